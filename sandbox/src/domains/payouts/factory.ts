import { payoutScheduledData } from './events.ts';
import type { RecordOf, SandboxStore } from '../../store.ts';
import type { TransferMethod } from '../../codes.ts';
import { feeFor, schedulePayout } from './lifecycle.ts';
import type { FeeType, PayoutRecord } from './types.ts';

// Another domain's records, named through the core (store.ts).
type BeneficiaryRecord = RecordOf<'beneficiaries'>;
type QuoteRecord = RecordOf<'quotes'>;

export interface PayoutSpec {
  id: string;
  systemReferenceNumber: string;
  beneficiary: BeneficiaryRecord;
  /** Already checked as usable for this payout. */
  quote: QuoteRecord;
  destinationCountry: string;
  feeType: FeeType;
  transferMethod: TransferMethod;
  reference: string;
  sourceOfFunds: string;
  scheduledPayoutDate: string;
  createdAt: number;
}

/**
 * Stores a PENDING payout, uses up its quote and schedules its processing. Used by Create
 * Payout and by the demo seed, so both produce the same records. Both amounts are the
 * quote's, whichever one the request gave.
 */
export function openPayout(store: SandboxStore, spec: PayoutSpec): PayoutRecord {
  const { beneficiary, quote, ...terms } = spec;
  const payout: PayoutRecord = {
    ...terms,
    status: 'PENDING',
    beneficiaryId: beneficiary.id,
    payeeName: beneficiary.beneficiary.company_name ?? beneficiary.id,
    quoteId: quote.id,
    sourceAmount: quote.sourceAmount,
    sourceCurrency: quote.sourceCurrency,
    destinationAmount: quote.destinationAmount,
    destinationCurrency: quote.destinationCurrency,
    fee: feeFor(spec.transferMethod, spec.feeType, quote.sourceCurrency),
  };
  store.services.claimQuote(quote, payout.id);
  store.payouts.set(payout.id, payout);
  store.events.emit('payout.transfer.funding.scheduled', payoutScheduledData(store, payout), payout.id, payout.createdAt);
  schedulePayout(store, payout);
  return payout;
}

export function newPayoutReference(store: SandboxStore): string {
  return store.newReference('PAY', (reference) => [...store.payouts.values()].some((payout) => payout.systemReferenceNumber === reference));
}
