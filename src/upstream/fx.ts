import { z } from 'zod';
import { orNullIfNotFound, type BoundCall } from './bound-call.ts';
import { records } from './cache-policy.ts';
import { endpoint } from './endpoint.ts';
import { extended } from './lazy-model.ts';
import { camelKeys } from './camel-case.ts';
import { anyCaseEnum, currencyCode, decimal, fieldOf, orNull, problem, ruled, single, upstreamDate, upstreamDateTime } from './models.ts';

/** Document 1, sections 2.10-2.12 and 4.5: rates, quotes and conversions. */

const LOCK_PERIODS = ['5_mins', '15_mins', '1_hour', '4_hours', '8_hours', '24_hours'] as const;
type LockPeriod = (typeof LOCK_PERIODS)[number];
const CONVERSION_SCHEDULES = ['immediate', 'end_of_day', 'next_day', '2_days'] as const;
type ConversionSchedule = (typeof CONVERSION_SCHEDULES)[number];
const QUOTE_TYPES = ['payout', 'conversion'] as const;
export type QuoteType = (typeof QUOTE_TYPES)[number];
export const CONVERSION_STATUSES = ['PROCESSING', 'SCHEDULED', 'SETTLED', 'CANCELLED', 'OVERDUE'] as const;

/** The generate response spells lock periods its own way (MIN_15 for 15_mins); both mean one thing. */
const LOCK_PERIOD_SPELLINGS: Record<string, LockPeriod> = {
  ...Object.fromEntries(LOCK_PERIODS.map((p) => [p, p])),
  MIN_5: '5_mins',
  MIN_15: '15_mins',
  HOUR_1: '1_hour',
  HOUR_4: '4_hours',
  HOUR_8: '8_hours',
  HOUR_24: '24_hours',
};

const lockPeriod = ruled(
  z.string(),
  (value) => LOCK_PERIOD_SPELLINGS[value] ?? LOCK_PERIOD_SPELLINGS[value.toUpperCase()] ?? problem(`unknown lock period "${value}"`),
);

/**
 * The generate response puts the conversion DATE the schedule implies here; the fetch response puts
 * the requested schedule. Read either into its own field.
 */
const conversionSchedule = z.string().transform((value, ctx): { schedule: ConversionSchedule | null; date: string | null } => {
  if (upstreamDate.safeParse(value).success) return { schedule: null, date: value };
  const schedule = CONVERSION_SCHEDULES.find((s) => s === value.toLowerCase());
  if (schedule) return { schedule, date: null };
  ctx.addIssue({ code: 'custom', message: `is neither a date nor a conversion schedule: "${value}"` });
  return z.NEVER;
});

/** Document 1, 2.11 types it a date; a bank that sends the time as well is read too: the day, and the time where there is one. */
const NOT_SENT = { on: null, at: null };
const createdTime = z
  .union([upstreamDate, upstreamDateTime])
  .nullish()
  .transform((created): { on: string | null; at: Date | null } =>
    created == null
      ? NOT_SENT
      : typeof created === 'string'
        ? { on: created, at: null }
        : { on: created.toISOString().slice(0, 10), at: created },
  );

const rateModel = z.object({
  netExchangeRate: decimal,
  sourceCurrencyCode: currencyCode,
  destinationCurrencyCode: currencyCode,
  rateCaptureTime: upstreamDateTime,
  sourceAmount: decimal,
  destinationAmount: decimal,
});
export type Rate = z.output<typeof rateModel>;

/** One model for both quote shapes: generated (strings, MIN_15, a date) and fetched (numbers, 15_mins). */
const quoteModel = z.object({
  id: z.string().min(1),
  netExchangeRate: decimal,
  expiryTime: upstreamDateTime,
  sourceCurrencyCode: currencyCode,
  destinationCurrencyCode: currencyCode,
  quoteType: orNull(anyCaseEnum(QUOTE_TYPES, { lowerCase: true })),
  conversionSchedule,
  lockPeriod,
  rateCaptureTime: upstreamDateTime,
  sourceAmount: decimal,
  destinationAmount: decimal,
  createdTime,
});
export type Quote = z.output<typeof quoteModel>;

/** Create answers with snake_case keys, get and list with camelCase: one model reads both. */
const conversionModel = camelKeys(
  z.object({
    id: z.string().min(1),
    status: anyCaseEnum(CONVERSION_STATUSES),
    conversionTime: orNull(upstreamDateTime),
    sourceCurrencycode: currencyCode,
    destinationCurrencycode: currencyCode,
    sourceAmount: decimal,
    destinationAmount: decimal,
    quoteId: orNull(z.string()),
    netExchangerate: orNull(decimal),
    systemReferenceNumber: orNull(z.string()),
    createdTime: orNull(upstreamDateTime),
  }),
);
export type Conversion = z.output<typeof conversionModel>;

const conversionReads = records('conversions');

export const fxEndpoints = {
  /** Rates and quotes move with the market, and no event says so: kept for the short `rates` TTL. */
  rate: endpoint({
    method: 'GET',
    path: '/{svc}/api/v1/transfer/rate',
    headers: 'standard',
    data: single(rateModel),
    cache: { kinds: ['fx-rates'], ttl: 'rates' },
  }),
  quoteCreate: endpoint({
    method: 'POST',
    path: '/{svc}/api/v1/transfer/quote',
    headers: 'standard',
    data: single(quoteModel),
    changes: ['quotes'],
  }),
  quote: endpoint({
    method: 'GET',
    path: '/{svc}/api/v1/transfer/quotedetails',
    headers: 'standard',
    data: quoteModel,
    cache: { kinds: ['quotes'], ttl: 'rates' },
  }),
  /** It uses its quote and moves the money. */
  conversionCreate: endpoint({
    method: 'POST',
    path: '/{svc}/api/v1/transfer/conversion',
    headers: 'standard',
    data: conversionModel,
    changes: ['conversions', 'quotes', 'accounts'],
  }),
  conversion: endpoint({
    method: 'GET',
    path: '/{svc}/api/v1/transfer/conversion/{id}',
    headers: 'standard',
    data: conversionModel,
    cache: conversionReads,
  }),
  conversionList: endpoint({
    method: 'GET',
    path: '/{svc}/api/v1/transfer/conversionlist',
    headers: 'standard',
    cache: conversionReads,
    data: fieldOf(single(z.object({ conversions: z.array(conversionModel) })), 'conversions'),
  }),
};

/** Exactly one side of an exchange carries the amount; the upstream computes the other. */
export interface ExchangeAmounts {
  sourceCurrency: string;
  destinationCurrency: string;
  sourceAmount?: string | null | undefined;
  destinationAmount?: string | null | undefined;
}

const amount = (value: string | null | undefined) => (value == null ? undefined : Number(value));

export interface QuoteRequest extends ExchangeAmounts {
  quoteType: QuoteType;
  lockPeriod: LockPeriod;
  conversionSchedule: ConversionSchedule;
}

export function fxApi(call: BoundCall) {
  return {
    rate: (request: ExchangeAmounts) =>
      call(fxEndpoints.rate, {
        query: {
          sourceCurrencyCode: request.sourceCurrency,
          destinationCurrencyCode: request.destinationCurrency,
          sourceAmount: amount(request.sourceAmount),
          destinationAmount: amount(request.destinationAmount),
        },
      }),
    quoteCreate: async (request: QuoteRequest, idempotencyKey?: string | null) => {
      const quote = await call(fxEndpoints.quoteCreate, {
        idempotencyKey: idempotencyKey ?? undefined,
        body: {
          quoteType: request.quoteType,
          lockPeriod: request.lockPeriod,
          conversionSchedule: request.conversionSchedule,
          sourceCurrencyCode: request.sourceCurrency,
          destinationCurrencyCode: request.destinationCurrency,
          sourceAmount: amount(request.sourceAmount) ?? null,
          destinationAmount: amount(request.destinationAmount) ?? null,
        },
      });
      // The generate response carries the date instead of the schedule: we know what we asked for.
      return extended(quote, {
        conversionSchedule: extended(quote.conversionSchedule, {
          schedule: quote.conversionSchedule.schedule ?? request.conversionSchedule,
        }),
      });
    },
    quote: (id: string) => orNullIfNotFound(call(fxEndpoints.quote, { query: { quote_id: id } })),
    conversionCreate: (request: ExchangeAmounts & { quoteId: string }, idempotencyKey?: string | null) =>
      call(fxEndpoints.conversionCreate, {
        idempotencyKey: idempotencyKey ?? undefined,
        body: {
          quote_id: request.quoteId,
          source_amount: amount(request.sourceAmount) ?? null,
          destination_amount: amount(request.destinationAmount) ?? null,
          source_currency: request.sourceCurrency,
          destination_currency: request.destinationCurrency,
        },
      }),
    conversion: (id: string) => orNullIfNotFound(call(fxEndpoints.conversion, { params: { id } })),
    conversions: () => call(fxEndpoints.conversionList),
  };
}
