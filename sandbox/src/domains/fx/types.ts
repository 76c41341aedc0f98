/** Records of Document 1, sections 2.10 to 2.12; amounts in currency units, as on the wire. */

export const QUOTE_TYPES = ['payout', 'conversion'] as const;
export type QuoteType = (typeof QUOTE_TYPES)[number];

export const LOCK_PERIODS = ['5_mins', '15_mins', '1_hour', '4_hours', '8_hours', '24_hours'] as const;
export type LockPeriod = (typeof LOCK_PERIODS)[number];

export const CONVERSION_SCHEDULES = ['immediate', 'end_of_day', 'next_day', '2_days'] as const;
export type ConversionSchedule = (typeof CONVERSION_SCHEDULES)[number];

export interface QuoteRecord {
  id: string;
  quoteType: QuoteType;
  lockPeriod: LockPeriod;
  conversionSchedule: ConversionSchedule;
  sourceCurrency: string;
  destinationCurrency: string;
  sourceAmount: number;
  destinationAmount: number;
  rate: number;
  createdAt: number;
  expiresAt: number;
  /** The instant the schedule implies, as of the quote's creation. */
  conversionAt: number;
  /** The payout or conversion that used it; a quote is good for one use. */
  usedBy: string | null;
}

/** processing is only ever shown in the create response. */
type ConversionStatus = 'SCHEDULED' | 'SETTLED';

export interface ConversionRecord {
  id: string;
  status: ConversionStatus;
  quoteId: string;
  sourceCurrency: string;
  destinationCurrency: string;
  sourceAmount: number;
  destinationAmount: number;
  rate: number;
  systemReferenceNumber: string;
  conversionAt: number;
  createdAt: number;
  /** Demo conversions show createdTime null, as the document says list entries may. */
  createdTimeShown: boolean;
}

/** The domain's collections in the store, fresh for each store. */
export function fxCollections() {
  return {
    quotes: new Map<string, QuoteRecord>(),
    conversions: new Map<string, ConversionRecord>(),
  };
}

declare module '../../store.ts' {
  interface SandboxCollections extends ReturnType<typeof fxCollections> {}
}
