import { z } from 'zod';
import { controlRoute, json } from '../../control.ts';
import { badRequest } from '../../http.ts';
import { toCents } from '../../money.ts';
import type { Route } from '../../routes.ts';
import type { SandboxStore } from '../../store.ts';
import { validate } from '../../validation.ts';
import { countryCode, currencyCode } from '../../codes.ts';
import { assertMinorUnits, hasRate } from '../../amounts.ts';
import { findCard } from './lookup.ts';
import { authorize, refund, settle, type Activity } from './simulate.ts';
import type { CardRecord, Merchant } from './types.ts';

const text = z.string().min(1);

const simulateBody = z
  .object({
    kind: z.enum(['authorization', 'settlement', 'refund']),
    amount: z.number().positive().optional(),
    currency: currencyCode.optional(),
    merchant: z
      .object({ name: text, category_code: z.string().regex(/^\d{4}$/, 'must be 4 digits'), city: text, country: countryCode })
      .optional(),
    transaction_id: text.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.kind !== 'settlement' && value.amount === undefined) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: `is required for ${value.kind}` });
    }
    if (value.kind === 'settlement' && value.transaction_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['transaction_id'], message: 'is required for settlement' });
    }
  });

type SimulateInput = z.output<typeof simulateBody>;

const DEFAULT_MERCHANT = { name: 'Sandbox Coffee Roasters', category_code: '5814', city: 'San Francisco', country: 'US' };

/**
 * POST /sandbox/cards/{cardId}/simulate: an authorization, the settlement of one, or a
 * refund, answered with the card transaction written. A settlement settles the whole
 * authorization: its `amount` is not used.
 */
export const simulateRoute: Route = controlRoute('POST', '/cards/:cardId/simulate', ({ body, params, runtime }) => {
  const input = validate(simulateBody, body);
  const { store } = runtime;
  const card = findCard(store, params.cardId ?? '');
  const at = runtime.clock.now().getTime();
  if (input.kind === 'settlement') return json({ transaction: settle(store, card, input.transaction_id ?? '', at).transaction });
  const activity = activityOf(store, card, input, runtime.program.current(), at);
  const record =
    input.kind === 'authorization' ? authorize(store, card, activity) : refund(store, card, activity, input.transaction_id ?? null);
  return json({ transaction: record.transaction });
});

function activityOf(store: SandboxStore, card: CardRecord, input: SimulateInput, program: Activity['program'], at: number): Activity {
  const currency = input.currency ?? card.currency;
  if (currency !== card.currency && !hasRate(currency, card.currency)) {
    throw badRequest(`currency ${currency} has no exchange rate to the card currency ${card.currency}`);
  }
  const amount = input.amount ?? 0;
  assertMinorUnits('amount', amount, currency);
  return { program, amountCents: toCents(amount), currency, merchant: merchantOf(store, input.merchant ?? DEFAULT_MERCHANT), at };
}

function merchantOf(store: SandboxStore, input: typeof DEFAULT_MERCHANT): Merchant {
  return { ...input, identifier: `MID${store.random.digits(9)}`, postcode: null, state: null };
}
