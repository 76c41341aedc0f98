import { z } from 'zod';
import { found, ok } from '../../http.ts';
import { newestFirst } from '../../paging.ts';
import type { Route } from '../../routes.ts';
import { validate } from '../../validation.ts';
import { currencyCode } from '../../codes.ts';
import { bodyAmount, tradeRule, type TradeFields } from '../../trade.ts';
import { conversionView, createdConversion, openConversion } from './conversions.ts';
import { claimOf, usableQuote } from './quote-use.ts';

const CONVERSION_FIELDS: TradeFields = {
  sourceAmount: 'source_amount',
  destinationAmount: 'destination_amount',
  sourceCurrency: 'source_currency',
  destinationCurrency: 'destination_currency',
};

const conversionBody = z
  .object({
    quote_id: z.string().min(1),
    source_amount: bodyAmount,
    destination_amount: bodyAmount,
    source_currency: currencyCode,
    destination_currency: currencyCode,
  })
  .superRefine(tradeRule(CONVERSION_FIELDS, { distinctCurrencies: false }));

/** Endpoint 21, POST /svc/api/v1/transfer/conversion: reserves now, settles at the quote's instant. */
const createConversion: Route = {
  method: 'POST',
  path: '/svc/api/v1/transfer/conversion',
  headers: 'standard',
  handler: ({ body, runtime }) => {
    const input = validate(conversionBody, body);
    const now = runtime.clock.now().getTime();
    const quote = usableQuote(runtime.store, claimOf(input, CONVERSION_FIELDS, 'conversion', input.quote_id), now);
    const conversion = openConversion(runtime.store, quote, now);
    // An immediate conversion settles before the response.
    runtime.scheduler.runDue(now);
    return ok(createdConversion(conversion), 'Conversion created successfully');
  },
};

/** Endpoint 22, GET /svc/api/v1/transfer/conversion/{ConversionID}: data is an object. */
const getConversion: Route = {
  method: 'GET',
  path: '/svc/api/v1/transfer/conversion/:id',
  headers: 'standard',
  handler: ({ params, runtime }) => {
    const id = params.id ?? '';
    return ok(conversionView(found(runtime.store.conversions.get(id), 'Conversion', id)), 'Conversion retrieved successfully');
  },
};

/** Endpoint 23, GET /svc/api/v1/transfer/conversionlist: every conversion, newest first, unpaged. */
const listConversions: Route = {
  method: 'GET',
  path: '/svc/api/v1/transfer/conversionlist',
  headers: 'standard',
  handler: ({ runtime }) => {
    const conversions = newestFirst(runtime.store.conversions.values(), (conversion) => conversion.createdAt);
    return ok([{ conversions: conversions.map(conversionView) }], 'Conversions retrieved successfully');
  },
};

export const conversionRoutes: readonly Route[] = [createConversion, getConversion, listConversions];
