import { z } from 'zod';
import { minorUnits, roundHalfUp, type FixedAmount } from './rates.ts';

/**
 * The amount rules every FX-priced request shares (rate, quote, conversion, payout), each
 * with its own field names: exactly one of the two amounts, greater than 0, in the minor
 * units of its currency. "null if the other is given" in the document: null means absent.
 */
export interface TradeFields {
  sourceAmount: string;
  destinationAmount: string;
  sourceCurrency: string;
  destinationCurrency: string;
}

export const bodyAmount = z.number().positive().nullish();

type Trade = Record<string, unknown>;

// A value of the wrong type counts as given: its own field already reports it.
const isGiven = (value: unknown): boolean => value !== null && value !== undefined;

/** A zod refinement; `distinctCurrencies` for pricing requests, where a same-currency pair has no rate. */
export function tradeRule(fields: TradeFields, options: { distinctCurrencies: boolean }) {
  return (value: Trade, ctx: z.RefinementCtx): void => {
    if (options.distinctCurrencies && value[fields.sourceCurrency] === value[fields.destinationCurrency]) {
      ctx.addIssue({ code: 'custom', path: [fields.destinationCurrency], message: `must differ from ${fields.sourceCurrency}` });
    }
    const given = [fields.sourceAmount, fields.destinationAmount].filter((key) => isGiven(value[key]));
    if (given.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `exactly one of ${fields.sourceAmount} and ${fields.destinationAmount} must be given`,
      });
      return;
    }
    const [key] = given as [string];
    const amount = value[key];
    if (typeof amount !== 'number') return;
    const currency = String(value[key === fields.sourceAmount ? fields.sourceCurrency : fields.destinationCurrency]);
    const decimals = minorUnits(currency);
    if (roundHalfUp(amount, decimals) !== amount) {
      ctx.addIssue({ code: 'custom', path: [key], message: `must have at most ${decimals} decimal place(s) for ${currency}` });
    }
  };
}

/** The amount the client fixed, once tradeRule has passed. */
export function fixedAmountOf(value: Trade, fields: TradeFields): FixedAmount {
  const source = value[fields.sourceAmount];
  if (typeof source === 'number') return { side: 'source', amount: source };
  return { side: 'destination', amount: value[fields.destinationAmount] as number };
}
