import { z } from 'zod';
import { controlRoute, json } from '../../control.ts';
import { depositRejectedData, depositSettledData, gaNewData, topUpData, type Deposit } from './deposit-events.ts';
import { badRequest, found } from '../../http.ts';
import { toCents } from '../../money.ts';
import type { Route } from '../../routes.ts';
import type { SandboxStore } from '../../store.ts';
import { formatApiTime } from '../../time.ts';
import { validate } from '../../validation.ts';
import { assertMinorUnits } from '../../amounts.ts';
import { post } from '../../ledger.ts';
import { currencyCode } from '../../codes.ts';
import type { AccountRecord } from './types.ts';

const text = z.string().trim().min(1);

const depositBody = z.object({
  currency: currencyCode,
  amount: z.number().positive(),
  payer_name: text.optional(),
  reference: text.optional(),
  account_id: text.optional(),
  reject: z.boolean().default(false),
});

export interface DepositSpec {
  currency: string;
  amount: number;
  payer_name?: string | undefined;
  reference?: string | undefined;
  account_id?: string | undefined;
}

/**
 * A deposit about to arrive: on the account named, or the first ACTIVE account in its
 * currency. Also the default data of deposit events sent through POST /sandbox/events.
 */
export function incomingDeposit(store: SandboxStore, spec: DepositSpec, id: string, at: number): Deposit {
  const account = receivingAccount(store, spec.currency, spec.account_id);
  return {
    id,
    globalAccountId: account.id,
    accountNumber: account.account.account_number,
    beneficiaryName: account.account.account_holder_name,
    currency: spec.currency,
    amount: spec.amount,
    payerName: spec.payer_name ?? 'Globex Corporation',
    payerBankName: 'Sandbox Clearing Bank',
    reference: spec.reference ?? `Deposit ${id}`,
    providerTransactionId: `PTX${store.random.digits(12)}`,
    at,
  };
}

function receivingAccount(store: SandboxStore, currency: string, accountId: string | undefined): AccountRecord {
  if (accountId === undefined) {
    const first = [...store.accounts.values()].find((record) => record.currency === currency && record.account.status === 'ACTIVE');
    if (first === undefined) throw badRequest(`No ACTIVE account in ${currency} to receive the deposit`);
    return first;
  }
  const account = found(store.accounts.get(accountId), 'Account', accountId);
  if (account.account.status !== 'ACTIVE') throw badRequest(`Account ${accountId} is ${account.account.status}`);
  if (account.currency !== currency) throw badRequest(`Account ${accountId} holds ${account.currency}, not ${currency}`);
  return account;
}

/** Settles a deposit: the balance moves through the ledger, the account shows the credit. */
function credit(store: SandboxStore, deposit: Deposit): number {
  const description = `Incoming transfer from ${deposit.payerName}`;
  const cents = toCents(deposit.amount);
  post(store, {
    currency: deposit.currency,
    cents,
    feeCents: 0,
    description,
    source_type: 'DEPOSIT',
    transaction_type: 'DEPOSIT',
    at: deposit.at,
  });
  const id = store.newId('txn');
  store.transactions.set(id, {
    id,
    accountId: deposit.globalAccountId,
    createdAt: deposit.at,
    transaction: {
      amount: deposit.amount,
      create_time: formatApiTime(deposit.at),
      description,
      currency: deposit.currency,
      id,
      type: 'CREDIT',
      status: 'SETTLED',
    },
  });
  return store.balances.get(deposit.currency)?.available_balance ?? 0;
}

/**
 * POST /sandbox/deposits: money arriving from outside (Document 3, section 3, deposit
 * processing), all at the current instant. ga.new NEW, PENDING, SETTLED, the credit,
 * deposit.settled and balance.ga.top_up; or, with `reject`, ga.new NEW, PENDING, FAILED and
 * deposit.rejected, nothing credited. Answers the deposit id and the event ids in order.
 *
 * Event ids are `<resource>_<STATUS>`: ga.new's resource is the deposit, deposit.*'s is the
 * provider's transaction, so that ga.new SETTLED and deposit.settled, two events, keep two ids
 * (receivers drop an id they have seen).
 */
export const depositRoute: Route = controlRoute('POST', '/deposits', ({ body, runtime }) => {
  const input = validate(depositBody, body);
  assertMinorUnits('amount', input.amount, input.currency);
  const { store } = runtime;
  const at = runtime.clock.now().getTime();
  const deposit = incomingDeposit(store, input, store.newId('dep'), at);
  const { events } = store;
  const emitted = [
    events.emit('ga.new', gaNewData(deposit, 'NEW'), deposit.id, at),
    events.emit('ga.new', gaNewData(deposit, 'PENDING'), deposit.id, at),
  ];
  if (input.reject) {
    emitted.push(events.emit('ga.new', gaNewData(deposit, 'FAILED'), deposit.id, at));
    emitted.push(events.emit('deposit.rejected', depositRejectedData(deposit), deposit.providerTransactionId, at));
  } else {
    emitted.push(events.emit('ga.new', gaNewData(deposit, 'SETTLED'), deposit.id, at));
    const balance = credit(store, deposit);
    emitted.push(events.emit('deposit.settled', depositSettledData(deposit), deposit.providerTransactionId, at));
    emitted.push(events.emit('balance.ga.top_up', topUpData(deposit, balance), deposit.id, at));
  }
  return json({ depositId: deposit.id, events: emitted.map((event) => event.id) });
});
