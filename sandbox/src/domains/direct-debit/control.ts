import { z } from 'zod';
import { controlRoute, json } from '../../control.ts';
import { badRequest } from '../../http.ts';
import type { Route } from '../../routes.ts';
import type { SandboxStore } from '../../store.ts';
import { validate } from '../../validation.ts';
import { currencyCode } from '../../codes.ts';
import { assertMinorUnits } from '../../amounts.ts';
import { notFound } from './access.ts';
import { DISPUTE_OUTCOMES, resolveDispute } from './disputes.ts';
import { openDirectDebit } from './lifecycle.ts';
import { directDebitView } from './wire.ts';

const text = z.string().trim().min(1);

const collectionBody = z.object({
  global_account_id: text,
  mandate_id: text,
  amount: z.number().positive(),
  currency: currencyCode.optional(),
  statement_ref: text.optional(),
});

const disputeBody = z.object({ outcome: z.enum(DISPUTE_OUTCOMES) });

/** `DD` and ten digits, unique among the payouts: the creditor's reference when none is given. */
function newStatementRef(store: SandboxStore): string {
  return store.newReference('DD', (reference) => [...store.directDebits.values()].some((record) => record.statementRef === reference));
}

/**
 * The happenings the API cannot cause: a creditor collecting under a mandate, and support
 * resolving a dispute (section 4.3). Neither looks at x-on-behalf-of: the control API sees
 * every global account.
 */
export const directDebitControlRoutes: readonly Route[] = [
  // A collection, run through the lifecycle at once: the answer shows it PENDING, IN_REVIEW
  // or, under a cancelled mandate, REJECTED. The currency is the account's; one given must match.
  controlRoute('POST', '/direct-debits', ({ body, runtime }) => {
    const input = validate(collectionBody, body);
    const { store } = runtime;
    const account = store.globalAccounts.get(input.global_account_id);
    if (account === undefined) throw notFound('Global account', input.global_account_id);
    const { currency, capability } = account.account;
    if (!capability.support_direct_debit) throw badRequest(`Global account ${account.id} does not support direct debit`);
    const mandate = store.mandates.get(input.mandate_id);
    if (mandate === undefined) throw notFound('Mandate', input.mandate_id);
    if (mandate.globalAccountId !== account.id)
      throw badRequest(`Mandate ${mandate.id} belongs to global account ${mandate.globalAccountId}`);
    if (input.currency !== undefined && input.currency !== currency)
      throw badRequest(`currency must be ${currency}, the global account's currency`);
    assertMinorUnits('amount', input.amount, currency);
    const now = runtime.clock.now().getTime();
    const statementRef = input.statement_ref ?? newStatementRef(store);
    const record = openDirectDebit(store, { id: store.newId('ddt'), account, mandate, amount: input.amount, statementRef, createdAt: now });
    runtime.scheduler.runDue(now);
    return json(directDebitView(record));
  }),
  // Answers the payout as the dispute left it: RETURNED (payer) or still SETTLED (creditor).
  controlRoute('POST', '/direct-debits/:transaction_id/dispute', ({ body, params, runtime }) => {
    const { outcome } = validate(disputeBody, body);
    const id = params.transaction_id ?? '';
    const record = runtime.store.directDebits.get(id);
    if (record === undefined) throw notFound('Direct debit', id);
    resolveDispute(runtime.store, record, outcome, runtime.clock.now().getTime());
    return json(directDebitView(record));
  }),
];
