import { z } from 'zod';
import { ok } from '../../http.ts';
import type { Route } from '../../routes.ts';
import { validate } from '../../validation.ts';
import { bodyAmount, fixedAmountOf, tradeRule } from '../../trade.ts';
import { createQuote, fetchedQuote, findQuote, generatedQuote } from './quotes.ts';
import { fxCurrency, PRICING_FIELDS } from './schemas.ts';
import { CONVERSION_SCHEDULES, LOCK_PERIODS, QUOTE_TYPES } from './types.ts';

const quoteBody = z
  .object({
    quoteType: z.enum(QUOTE_TYPES),
    lockPeriod: z.enum(LOCK_PERIODS),
    conversionSchedule: z.enum(CONVERSION_SCHEDULES),
    sourceCurrencyCode: fxCurrency,
    destinationCurrencyCode: fxCurrency,
    sourceAmount: bodyAmount,
    destinationAmount: bodyAmount,
  })
  .superRefine(tradeRule(PRICING_FIELDS, { distinctCurrencies: true }));

const detailsQuery = z.object({ quote_id: z.string().min(1) });

/** Endpoint 19, POST /svc/api/v1/transfer/quote: locks today's net rate for the lock period. */
const generateQuote: Route = {
  method: 'POST',
  path: '/svc/api/v1/transfer/quote',
  headers: 'standard',
  handler: ({ body, runtime }) => {
    const input = validate(quoteBody, body);
    const spec = {
      quoteType: input.quoteType,
      lockPeriod: input.lockPeriod,
      conversionSchedule: input.conversionSchedule,
      sourceCurrency: input.sourceCurrencyCode,
      destinationCurrency: input.destinationCurrencyCode,
      fixed: fixedAmountOf(input, PRICING_FIELDS),
    };
    const quote = createQuote(runtime.store, spec, runtime.clock.now().getTime());
    return ok([generatedQuote(quote)], 'Quote generated successfully');
  },
};

/** Endpoint 20, GET /svc/api/v1/transfer/quotedetails: data is an object; expired quotes too. */
const quoteDetails: Route = {
  method: 'GET',
  path: '/svc/api/v1/transfer/quotedetails',
  headers: 'standard',
  handler: ({ query, runtime }) => {
    const { quote_id } = validate(detailsQuery, query);
    return ok(fetchedQuote(findQuote(runtime.store, quote_id)), 'Quote retrieved successfully');
  },
};

export const quoteRoutes: readonly Route[] = [generateQuote, quoteDetails];
