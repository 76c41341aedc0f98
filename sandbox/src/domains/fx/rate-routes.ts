import { z } from 'zod';
import { ok } from '../../http.ts';
import type { Route } from '../../routes.ts';
import { formatApiTime } from '../../time.ts';
import { validate } from '../../validation.ts';
import { fixedAmountOf, tradeRule } from '../../trade.ts';
import { price } from '../../rates.ts';
import { fxCurrency, PRICING_FIELDS } from './schemas.ts';

// "Blank if the other is given": an empty parameter counts as absent.
const queryAmount = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, 'must be a decimal number')
    .transform(Number)
    .pipe(z.number().positive())
    .optional(),
);

const rateQuery = z
  .object({
    sourceCurrencyCode: fxCurrency,
    destinationCurrencyCode: fxCurrency,
    sourceAmount: queryAmount,
    destinationAmount: queryAmount,
  })
  .superRefine(tradeRule(PRICING_FIELDS, { distinctCurrencies: true }));

/** Endpoint 18, GET /svc/api/v1/transfer/rate: today's net rate applied to the amount given. */
const currentRate: Route = {
  method: 'GET',
  path: '/svc/api/v1/transfer/rate',
  headers: 'standard',
  handler: ({ query, runtime }) => {
    const input = validate(rateQuery, query);
    const priced = price(input.sourceCurrencyCode, input.destinationCurrencyCode, fixedAmountOf(input, PRICING_FIELDS));
    return ok(
      [
        {
          netExchangeRate: priced.rate,
          sourceCurrencyCode: input.sourceCurrencyCode,
          destinationCurrencyCode: input.destinationCurrencyCode,
          rateCaptureTime: formatApiTime(runtime.clock.now().getTime()),
          sourceAmount: priced.sourceAmount,
          destinationAmount: priced.destinationAmount,
        },
      ],
      'Rate retrieved successfully',
    );
  },
};

export const rateRoutes: readonly Route[] = [currentRate];
