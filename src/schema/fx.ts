import { z } from 'zod';
import { arrayConnection } from './connections.ts';
import { builder } from '../builder.ts';
import type { GatewayContext } from '../context.ts';
import {
  CONVERSION_STATUSES,
  type Conversion,
  type ExchangeAmounts,
  type Quote,
  type QuoteType as QuoteTypeValue,
  type Rate,
} from '../upstream/fx.ts';
import { sameDecimal } from '../upstream/models.ts';
import { onlyFound } from './batched-reads.ts';
import { readLink } from './links.ts';
import { sortedByTime } from './list-order.ts';
import { Money, money } from './money.ts';
import { MUTATION_ERRORS, validationError, validationErrors } from './mutation-errors.ts';
import { idempotencyKeyArg } from './mutation-inputs.ts';
import { upstreamIdFrom, bankIdIn, globalIdRule, recordIdDescription } from './record-ids.ts';
import { loaderBatch } from './loader-batch.ts';

/** Document 1, section 4.5 in the graph: rates, quotes and conversions. */

const LockPeriod = builder.enumType('LockPeriod', {
  description: 'How long a quote guarantees its rate.',
  values: {
    MINUTES_5: { value: '5_mins' as const, description: '5 minutes.' },
    MINUTES_15: { value: '15_mins' as const, description: '15 minutes.' },
    HOUR_1: { value: '1_hour' as const, description: '1 hour.' },
    HOURS_4: { value: '4_hours' as const, description: '4 hours.' },
    HOURS_8: { value: '8_hours' as const, description: '8 hours.' },
    HOURS_24: { value: '24_hours' as const, description: '24 hours.' },
  },
});

const ConversionSchedule = builder.enumType('ConversionSchedule', {
  description: 'When a conversion against the quote settles.',
  values: {
    IMMEDIATE: { value: 'immediate' as const, description: 'At once.' },
    END_OF_DAY: { value: 'end_of_day' as const, description: 'At the end of the current day (UTC).' },
    NEXT_DAY: { value: 'next_day' as const, description: 'On the next day.' },
    TWO_DAYS: { value: '2_days' as const, description: 'Two days after the quote.' },
  },
});

const QuoteType = builder.enumType('QuoteType', {
  description: 'What a quote may be used for; a quote serves one payout or one conversion.',
  values: {
    PAYOUT: { value: 'payout' as const, description: 'For a payout to a beneficiary.' },
    CONVERSION: { value: 'conversion' as const, description: 'For a conversion between own balances.' },
  },
});

const CONVERSION_STATUS_TEXT: Record<(typeof CONVERSION_STATUSES)[number], string> = {
  PROCESSING: 'Accepted; the source amount is reserved.',
  SCHEDULED: 'Waiting for its conversion time.',
  SETTLED: 'Done: the destination balance was credited.',
  CANCELLED: 'Cancelled; nothing was converted.',
  OVERDUE: 'Past its conversion time without settling.',
};

const ConversionStatus = builder.enumType('ConversionStatus', {
  description: 'Where a conversion stands.',
  values: Object.fromEntries(CONVERSION_STATUSES.map((s) => [s, { value: s, description: CONVERSION_STATUS_TEXT[s] }])),
});

// --- Amount inputs ------------------------------------------------------------------------------

const positiveDecimal = z.string().refine((v) => Number(v) > 0, 'must be greater than 0');

/** Exactly one side of an exchange carries the amount; the bank computes the other. */
export const oneAmountRule = z
  .looseObject({ sourceAmount: z.string().nullish(), destinationAmount: z.string().nullish() })
  .superRefine((input, ctx) => {
    const given = [input.sourceAmount, input.destinationAmount].filter((v) => v != null).length;
    if (given !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['sourceAmount'],
        message: given === 0 ? 'give sourceAmount or destinationAmount' : 'give sourceAmount or destinationAmount, not both',
      });
    }
  })
  .refine((input) => input.sourceCurrency !== input.destinationCurrency, {
    path: ['destinationCurrency'],
    message: 'must differ from sourceCurrency',
  });

type InputFields = Parameters<Parameters<typeof builder.inputType>[1]['fields']>[0];

/** The fields every exchange input shares. */
export function exchangeAmountFields(t: InputFields) {
  return {
    sourceCurrency: t.field({ type: 'Currency', required: true, description: 'Currency paid from.' }),
    destinationCurrency: t.field({ type: 'Currency', required: true, description: 'Currency received.' }),
    sourceAmount: t.field({
      type: 'Decimal',
      description: 'Amount in the source currency; give this or destinationAmount.',
      validate: positiveDecimal,
    }),
    destinationAmount: t.field({
      type: 'Decimal',
      description: 'Amount in the destination currency; give this or sourceAmount.',
      validate: positiveDecimal,
    }),
  };
}

/**
 * A payout or conversion must use the quote's currencies and amount exactly (the bank refuses
 * otherwise): checked here first, so a mismatch costs no write and names the field.
 */
export async function assertMatchesQuote(
  context: GatewayContext,
  quoteId: string,
  request: ExchangeAmounts,
  quoteType: QuoteTypeValue,
): Promise<Quote> {
  const quote = await QuoteNode.getDataloader(context).load(quoteId);
  if (!quote) throw validationError(['input', 'quoteId'], `quote ${quoteId} does not exist`);
  const problems: [string, string][] = [];
  if (quote.quoteType && quote.quoteType !== quoteType) problems.push(['quoteId', `is a ${quote.quoteType} quote, not a ${quoteType} quote`]);
  if (quote.expiryTime.getTime() <= Date.now()) problems.push(['quoteId', `expired at ${quote.expiryTime.toISOString()}`]);
  if (request.sourceCurrency !== quote.sourceCurrencyCode) problems.push(['sourceCurrency', `must be the quote's ${quote.sourceCurrencyCode}`]);
  if (request.destinationCurrency !== quote.destinationCurrencyCode) {
    problems.push(['destinationCurrency', `must be the quote's ${quote.destinationCurrencyCode}`]);
  }
  if (request.sourceAmount != null && !sameDecimal(request.sourceAmount, quote.sourceAmount)) {
    problems.push(['sourceAmount', `must be the quote's ${quote.sourceAmount}`]);
  }
  if (request.destinationAmount != null && !sameDecimal(request.destinationAmount, quote.destinationAmount)) {
    problems.push(['destinationAmount', `must be the quote's ${quote.destinationAmount}`]);
  }
  if (problems.length > 0) throw validationErrors(problems.map(([field, message]) => ({ path: ['input', field], message })));
  return quote;
}

// --- Types --------------------------------------------------------------------------------------

const RateType = builder.objectRef<Rate>('FxRate').implement({
  readPermission: 'fx:read',
  description: 'The current exchange rate for an amount, not guaranteed: lock it with quoteCreate.',
  fields: (t) => ({
    rate: t.expose('netExchangeRate', { type: 'Decimal', nullable: false, description: 'Net rate: destination units per source unit, spread included.' }),
    sourceAmount: t.field({ type: Money, nullable: false, description: 'Amount paid.', resolve: (r) => money(r.sourceAmount, r.sourceCurrencyCode) }),
    destinationAmount: t.field({ type: Money, nullable: false, description: 'Amount received.', resolve: (r) => money(r.destinationAmount, r.destinationCurrencyCode) }),
    capturedAt: t.expose('rateCaptureTime', { type: 'DateTime', nullable: false, description: 'When the bank captured this rate.' }),
  }),
});

export const QuoteNode = builder.loadableNode('Quote', {
  authScopes: { permission: 'fx:read' },
  description: 'A rate guaranteed for a lock period, for one payout or one conversion of the quoted amounts.',
  id: { resolve: (quote) => quote.id },
  load: loaderBatch('Quote', async (ids: string[], context: GatewayContext) => onlyFound(await Promise.all(ids.map((id) => context.upstream.fx.quote(id))))),
  sort: (quote) => quote.id,
  // Records a list or a mutation returns are cached for later reads by id in the same request.
  cacheResolved: (quote) => quote.id,
  fields: (t) => ({
    upstreamId: t.exposeString('id', { nullable: false, description: "The bank's id of the quote." }),
    rate: t.expose('netExchangeRate', { type: 'Decimal', nullable: false, description: 'Guaranteed net rate.' }),
    sourceAmount: t.field({ type: Money, nullable: false, description: 'Amount paid.', resolve: (q) => money(q.sourceAmount, q.sourceCurrencyCode) }),
    destinationAmount: t.field({ type: Money, nullable: false, description: 'Amount received.', resolve: (q) => money(q.destinationAmount, q.destinationCurrencyCode) }),
    expiresAt: t.expose('expiryTime', { type: 'DateTime', nullable: false, description: 'The rate holds until then.' }),
    expired: t.boolean({ nullable: false, description: 'Whether the lock period is over (by this gateway\u2019s clock).', resolve: (q) => q.expiryTime.getTime() <= Date.now() }),
    lockPeriod: t.expose('lockPeriod', { type: LockPeriod, nullable: false, description: 'Lock period asked for.' }),
    conversionSchedule: t.field({ type: ConversionSchedule, description: 'Settlement schedule asked for.', resolve: (q) => q.conversionSchedule.schedule }),
    conversionDate: t.field({
      type: 'Date',
      description: 'The day the schedule settles on; the bank sends it only when the quote is generated.',
      resolve: (q) => q.conversionSchedule.date,
    }),
    quoteType: t.expose('quoteType', { type: QuoteType, description: 'Use of the quote; the bank sends it only when the quote is generated.' }),
    rateCapturedAt: t.expose('rateCaptureTime', { type: 'DateTime', nullable: false, description: 'When the rate was captured.' }),
    createdOn: t.field({
      type: 'Date',
      description: 'The day the quote was generated: createdTime, a date (Document 1, 2.11), sent only when the quote is generated.',
      resolve: (q) => q.createdTime.on,
    }),
    createdAt: t.field({
      type: 'DateTime',
      description: 'When the quote was generated, only where the bank sends a time with createdTime (it documents a date).',
      resolve: (q) => q.createdTime.at,
    }),
  }),
});

export const ConversionNode = builder.loadableNode('Conversion', {
  authScopes: { permission: 'fx:read' },
  description: 'An exchange between two of the business\u2019s own currency balances, against a quote.',
  id: { resolve: (conversion) => conversion.id },
  load: loaderBatch('Conversion', async (ids: string[], context: GatewayContext) =>
    onlyFound(await Promise.all(ids.map((id) => context.upstream.fx.conversion(id))))),
  sort: (conversion) => conversion.id,
  // Records a list or a mutation returns are cached for later reads by id in the same request.
  cacheResolved: (conversion) => conversion.id,
  fields: (t) => ({
    upstreamId: t.exposeString('id', { nullable: false, description: "The bank's id of the conversion." }),
    status: t.expose('status', { type: ConversionStatus, nullable: false, description: 'Where the conversion stands.' }),
    sourceAmount: t.field({ type: Money, nullable: false, description: 'Amount debited.', resolve: (c) => money(c.sourceAmount, c.sourceCurrencycode) }),
    destinationAmount: t.field({ type: Money, nullable: false, description: 'Amount credited.', resolve: (c) => money(c.destinationAmount, c.destinationCurrencycode) }),
    rate: t.expose('netExchangerate', { type: 'Decimal', description: 'Net rate applied.' }),
    conversionTime: t.expose('conversionTime', { type: 'DateTime', description: 'When it settles or settled.' }),
    systemReferenceNumber: t.exposeString('systemReferenceNumber', { description: "The bank's reference for the conversion." }),
    createdAt: t.expose('createdTime', { type: 'DateTime', description: 'When it was created, where the bank says.' }),
    quoteUpstreamId: t.exposeString('quoteId', { description: "The bank's id of the quote it was made against (quote_id / quoteId)." }),
    quote: t.field({
      type: QuoteNode,
      description: 'The quote it was made against. An error (NOT_FOUND) when the bank does not find the record it names; the id is in `quoteUpstreamId` either way.',
      resolve: (c, _args, context) => readLink(QuoteNode, c.quoteId, c.quoteId, context),
    }),
  }),
});

// --- Queries ------------------------------------------------------------------------------------

builder.queryFields((t) => ({
  fxRate: t.field({
    authScopes: { permission: 'fx:read' },
    type: RateType,
    description: 'The current rate for converting an amount (give the source or the destination amount).',
    args: {
      sourceCurrency: t.arg({ type: 'Currency', required: true, description: 'Currency paid from.' }),
      destinationCurrency: t.arg({ type: 'Currency', required: true, description: 'Currency received.' }),
      sourceAmount: t.arg({ type: 'Decimal', description: 'Amount paid; give this or destinationAmount.', validate: positiveDecimal }),
      destinationAmount: t.arg({ type: 'Decimal', description: 'Amount received; give this or sourceAmount.', validate: positiveDecimal }),
    },
    validate: oneAmountRule,
    resolve: (_root, args, context) => context.upstream.fx.rate(args),
  }),
  quote: t.field({
    authScopes: { permission: 'fx:read' },
    type: QuoteNode,
    description: "A quote by its global ID or the bank's id; null when there is none.",
    args: { id: t.arg.id({ required: true, description: "Global ID or the bank's quote id.", validate: globalIdRule('Quote') }) },
    resolve: (_root, args) => upstreamIdFrom(String(args.id), 'Quote'),
  }),
  conversion: t.field({
    authScopes: { permission: 'fx:read' },
    type: ConversionNode,
    description: "A conversion by its global ID or the bank's id; null when there is none.",
    args: { id: t.arg.id({ required: true, description: "Global ID or the bank's conversion id.", validate: globalIdRule('Conversion') }) },
    resolve: (_root, args) => upstreamIdFrom(String(args.id), 'Conversion'),
  }),
  conversions: t.connection(
    {
      authScopes: { permission: 'fx:read' },
      type: ConversionNode,
      description:
        'Every conversion of the business, newest first by creation time (the bank may omit it in its list: those come last, in the bank\'s order). The bank answers the whole list at once, so the gateway sorts it.',
      resolve: async (_root, args, context) => {
        const conversions = sortedByTime(await context.upstream.fx.conversions(), (c) => c.createdTime, 'latest');
        return arrayConnection(args, conversions);
      },
    },
    { name: 'ConversionConnection' },
    { name: 'ConversionEdge' },
  ),
}));

// --- Mutations ----------------------------------------------------------------------------------

const QuoteCreateInput = builder.inputType('QuoteCreateInput', {
  description: 'The exchange to lock a rate for.',
  fields: (t) => ({
    quoteType: t.field({ type: QuoteType, required: true, description: 'What the quote will be used for.' }),
    lockPeriod: t.field({ type: LockPeriod, required: true, description: 'How long the rate holds.' }),
    conversionSchedule: t.field({ type: ConversionSchedule, required: true, description: 'When a conversion settles.' }),
    ...exchangeAmountFields(t),
  }),
  validate: oneAmountRule,
});

builder.mutationField('quoteCreate', (t) =>
  t.field({
    authScopes: { permission: 'quotes:write' },
    type: QuoteNode,
    nullable: false,
    description: 'Locks a rate for the lock period. Use the quote for one payout or one conversion of exactly these amounts.',
    errors: { types: MUTATION_ERRORS, dataField: { name: 'quote', description: 'The new quote.' } },
    args: { input: t.arg({ type: QuoteCreateInput, required: true, description: 'The exchange.' }), ...idempotencyKeyArg() },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      const quote = await context.upstream.fx.quoteCreate(input, idempotencyKey);
      return quote;
    },
  }),
);

const ConversionCreateInput = builder.inputType('ConversionCreateInput', {
  description: 'A conversion against a quote: currencies and amount must be the quote\u2019s.',
  fields: (t) => ({
    quoteId: t.id({ required: true, description: recordIdDescription('Quote', 'A conversion quote') }),
    ...exchangeAmountFields(t),
  }),
  validate: oneAmountRule,
});

builder.mutationField('conversionCreate', (t) =>
  t.field({
    authScopes: { permission: 'conversions:write' },
    type: ConversionNode,
    nullable: false,
    description: 'Converts between two own balances against a quote: the source is debited, the destination credited by the schedule.',
    errors: { types: MUTATION_ERRORS, dataField: { name: 'conversion', description: 'The new conversion.' } },
    args: { input: t.arg({ type: ConversionCreateInput, required: true, description: 'The conversion.' }), ...idempotencyKeyArg() },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      const quoteId = bankIdIn(input.quoteId, ['input', 'quoteId'], 'Quote');
      await assertMatchesQuote(context, quoteId, input, 'conversion');
      const conversion: Conversion = await context.upstream.fx.conversionCreate({ ...input, quoteId }, idempotencyKey);
      return conversion;
    },
  }),
);
