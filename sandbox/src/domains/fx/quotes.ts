import { found } from '../../http.ts';
import type { SandboxStore } from '../../store.ts';
import { DAY_MS, formatApiTime, startOfUtcDay, utcDay } from '../../time.ts';
import { formatAmount, formatRate, price, type FixedAmount } from '../../rates.ts';
import type { ConversionSchedule, LockPeriod, QuoteRecord, QuoteType } from './types.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** How long each lock period holds the rate, and its spelling in the generate response. */
const LOCKS: Record<LockPeriod, { ms: number; generated: string }> = {
  '5_mins': { ms: 5 * MINUTE_MS, generated: 'MIN_5' },
  '15_mins': { ms: 15 * MINUTE_MS, generated: 'MIN_15' },
  '1_hour': { ms: HOUR_MS, generated: 'HOUR_1' },
  '4_hours': { ms: 4 * HOUR_MS, generated: 'HOUR_4' },
  '8_hours': { ms: 8 * HOUR_MS, generated: 'HOUR_8' },
  '24_hours': { ms: 24 * HOUR_MS, generated: 'HOUR_24' },
};

// Later schedules settle at the start of the business day, 09:00 UTC.
const SETTLEMENT_HOUR_MS = 9 * HOUR_MS;

/** The instant a schedule implies for something arranged at `now`. */
function conversionInstant(schedule: ConversionSchedule, now: number): number {
  const today = startOfUtcDay(now);
  switch (schedule) {
    case 'immediate':
      return now;
    case 'end_of_day':
      return today + DAY_MS - 1_000;
    case 'next_day':
      return today + DAY_MS + SETTLEMENT_HOUR_MS;
    case '2_days':
      return today + 2 * DAY_MS + SETTLEMENT_HOUR_MS;
  }
}

export interface QuoteSpec {
  quoteType: QuoteType;
  lockPeriod: LockPeriod;
  conversionSchedule: ConversionSchedule;
  sourceCurrency: string;
  destinationCurrency: string;
  fixed: FixedAmount;
}

export function createQuote(store: SandboxStore, spec: QuoteSpec, now: number, id = store.newId('quo')): QuoteRecord {
  const { fixed, ...terms } = spec;
  // The wire shows whole seconds: a quote taken in them has an expiryTime that is exact.
  const createdAt = Math.floor(now / 1_000) * 1_000;
  const quote: QuoteRecord = {
    id,
    ...terms,
    ...price(spec.sourceCurrency, spec.destinationCurrency, fixed),
    createdAt,
    expiresAt: createdAt + LOCKS[spec.lockPeriod].ms,
    conversionAt: conversionInstant(spec.conversionSchedule, createdAt),
    usedBy: null,
  };
  store.quotes.set(id, quote);
  return quote;
}

export function findQuote(store: SandboxStore, id: string): QuoteRecord {
  return found(store.quotes.get(id), 'Quote', id);
}

/** The generate response: rate and amounts as text, the schedule as its date, MIN_15 spellings. */
export function generatedQuote(quote: QuoteRecord) {
  return {
    id: quote.id,
    netExchangeRate: formatRate(quote.rate),
    expiryTime: formatApiTime(quote.expiresAt),
    sourceCurrencyCode: quote.sourceCurrency,
    destinationCurrencyCode: quote.destinationCurrency,
    quoteType: quote.quoteType,
    conversionSchedule: utcDay(quote.conversionAt),
    lockPeriod: LOCKS[quote.lockPeriod].generated,
    rateCaptureTime: formatApiTime(quote.createdAt),
    sourceAmount: formatAmount(quote.sourceAmount, quote.sourceCurrency),
    destinationAmount: formatAmount(quote.destinationAmount, quote.destinationCurrency),
    // Document 1, 2.11 types the generated quote's createdTime as a date.
    createdTime: utcDay(quote.createdAt),
  };
}

/** The fetch response: numbers, and the schedule and lock period as they were requested. */
export function fetchedQuote(quote: QuoteRecord) {
  return {
    id: quote.id,
    netExchangeRate: quote.rate,
    expiryTime: formatApiTime(quote.expiresAt),
    sourceCurrencyCode: quote.sourceCurrency,
    destinationCurrencyCode: quote.destinationCurrency,
    conversionSchedule: quote.conversionSchedule,
    lockPeriod: quote.lockPeriod,
    rateCaptureTime: formatApiTime(quote.createdAt),
    sourceAmount: quote.sourceAmount,
    destinationAmount: quote.destinationAmount,
  };
}
