import { builder } from '../builder.ts';

/** Money as the graph shows it: an exact decimal amount and its currency. */

export interface MoneyShape {
  amount: string;
  currency: string;
}

export const Money = builder.objectRef<MoneyShape>('Money').implement({
  description: 'An amount of money: an exact decimal amount and its currency.',
  fields: (t) => ({
    amount: t.expose('amount', { type: 'Decimal', nullable: false, description: 'The amount as exact decimal text.' }),
    currency: t.expose('currency', { type: 'Currency', nullable: false, description: 'ISO 4217 currency of the amount.' }),
  }),
});

export function money(amount: string, currency: string): MoneyShape {
  return { amount, currency };
}
