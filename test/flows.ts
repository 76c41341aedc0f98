import { BalancesDocument, QuoteCreateDocument, type QuoteCreateInput } from './generated/graphql.ts';
import type { Kit } from './kit.ts';

/** Steps several test files take through GraphQL: a quote, a balance, money in cents. */

export async function createQuote(kit: Kit, overrides: Partial<QuoteCreateInput> = {}) {
  const result = await kit.execute(QuoteCreateDocument, {
    input: {
      quoteType: 'CONVERSION',
      lockPeriod: 'MINUTES_15',
      conversionSchedule: 'NEXT_DAY',
      sourceCurrency: 'USD',
      destinationCurrency: 'EUR',
      sourceAmount: '1000',
      ...overrides,
    },
  });
  const outcome = result.data!.quoteCreate;
  if (outcome.__typename !== 'QuoteCreateSuccess') throw new Error(`quote failed: ${JSON.stringify(result)}`);
  return outcome.quote;
}

export async function balance(kit: Kit, currency: string) {
  const result = await kit.execute(BalancesDocument, { currency });
  const found = result.data?.balances[0];
  if (!found) throw new Error(`no ${currency} balance: ${JSON.stringify(result)}`);
  return found;
}

/** Decimal text → integer cents, so tests compare money without float drift. */
export const cents = (amount: string) => Math.round(Number(amount) * 100);
