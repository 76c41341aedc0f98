import type { TransferMethod } from '../../codes.ts';

export const FEE_TYPES = ['OUR', 'SHA'] as const;
export type FeeType = (typeof FEE_TYPES)[number];

/** See lifecycle.ts for how a payout moves between them. */
type PayoutStatus = 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';

export interface PayoutRecord {
  id: string;
  systemReferenceNumber: string;
  status: PayoutStatus;
  beneficiaryId: string;
  /** Kept so the balance history can name the payee even if the beneficiary changes later. */
  payeeName: string;
  quoteId: string;
  /** Both amounts are the quote's, whichever one the request gave. */
  sourceAmount: number;
  sourceCurrency: string;
  destinationAmount: number;
  destinationCurrency: string;
  destinationCountry: string;
  feeType: FeeType;
  transferMethod: TransferMethod;
  /** In the source currency. */
  fee: number;
  reference: string;
  sourceOfFunds: string;
  /** YYYY-MM-DD. */
  scheduledPayoutDate: string;
  createdAt: number;
}

/** The domain's collections in the store, fresh for each store. */
export function payoutCollections() {
  return {
    payouts: new Map<string, PayoutRecord>(),
  };
}

declare module '../../store.ts' {
  interface SandboxCollections extends ReturnType<typeof payoutCollections> {}
}
