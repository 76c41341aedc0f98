import { json } from '../../control.ts';
import { inDateRange } from '../../date-range.ts';
import { codedError } from '../../http.ts';
import { pageWithMore } from '../../paging.ts';
import type { HttpMethod } from '../../http.ts';
import type { Handler, Route } from '../../routes.ts';
import { startOfUtcDay } from '../../time.ts';
import { validate } from '../../validation.ts';
import { directDebitAccount, findDirectDebit, findGlobalAccount, findMandate, holderOf, visibleAccounts } from './access.ts';
import { cancelDirectDebit, cancelMandate } from './lifecycle.ts';
import { directDebitsQuery, directDebitWindow, mandatesQuery, mandateWindow } from './schemas.ts';
import type { DirectDebitRecord, MandateRecord } from './types.ts';
import { directDebitView, globalAccountView, mandateView, pageView } from './wire.ts';

/**
 * Endpoints 51 to 57 of Document 3 (section 4.2): the bearer token, x-on-behalf-of for a
 * connected account, no envelope. Successes are the documented bodies (an object, the page
 * wrapper, or `true` for the cancels); errors are `{ code, message }` (codedError).
 */
const route = (method: HttpMethod, path: string, handler: Handler): Route => ({
  method,
  path,
  headers: 'direct-debit',
  errors: codedError,
  handler,
});

const ACCOUNT = '/api/v1/global_accounts/:global_account_id';
const MANDATE = `${ACCOUNT}/mandates/:mandate_id`;
const DIRECT_DEBITS = '/api/v1/direct_debits';

const byCreation = (record: { createdAt: number }): number => record.createdAt;

/** Endpoint 51. */
const globalAccount = route('GET', ACCOUNT, ({ headers, params, runtime }) =>
  json(globalAccountView(findGlobalAccount(runtime.store, params.global_account_id ?? '', holderOf(headers)))),
);

/** Endpoint 52: the account's mandates, newest first. */
const mandates = route('GET', `${ACCOUNT}/mandates`, ({ headers, params, query, runtime }) => {
  const { store } = runtime;
  const account = directDebitAccount(store, params.global_account_id ?? '', holderOf(headers));
  const { status, paging, dates } = validate(mandatesQuery, query);
  const window = mandateWindow(dates);
  const matching = [...store.mandates.values()].filter(
    (mandate) =>
      mandate.globalAccountId === account.id &&
      (status === undefined || mandate.status === status) &&
      inDateRange(mandate.createdAt, window),
  );
  return json(pageView(pageWithMore(matching, byCreation, paging), (mandate: MandateRecord) => mandateView(mandate, account)));
});

/** Endpoint 53. */
const mandate = route('GET', MANDATE, ({ headers, params, runtime }) => {
  const account = directDebitAccount(runtime.store, params.global_account_id ?? '', holderOf(headers));
  return json(mandateView(findMandate(runtime.store, account, params.mandate_id ?? ''), account));
});

/** Endpoint 54: no body; answers `true`. */
const cancelMandateRoute = route('POST', `${MANDATE}/cancel`, ({ headers, params, runtime }) => {
  const account = directDebitAccount(runtime.store, params.global_account_id ?? '', holderOf(headers));
  cancelMandate(findMandate(runtime.store, account, params.mandate_id ?? ''), runtime.clock.now().getTime());
  return json(true);
});

/** Endpoint 55: the payouts of every global account the caller holds, newest first. */
const directDebits = route('GET', DIRECT_DEBITS, ({ headers, query, runtime }) => {
  const { store } = runtime;
  const held = new Set(visibleAccounts(store, holderOf(headers)).map((account) => account.id));
  const { paging, dates } = validate(directDebitsQuery, query);
  const window = directDebitWindow(dates, startOfUtcDay(runtime.clock.now().getTime()));
  const matching = [...store.directDebits.values()].filter(
    (record) => held.has(record.globalAccountId) && inDateRange(record.createdAt, window),
  );
  return json(pageView(pageWithMore(matching, byCreation, paging), (record: DirectDebitRecord) => directDebitView(record)));
});

/** Endpoint 56. */
const directDebit = route('GET', `${DIRECT_DEBITS}/:transaction_id`, ({ headers, params, runtime }) =>
  json(directDebitView(findDirectDebit(runtime.store, params.transaction_id ?? '', holderOf(headers)))),
);

/** Endpoint 57: answers `true`; section 7's invalid_operation for anything but PENDING GBP in the UK. */
const cancelDirectDebitRoute = route('POST', `${DIRECT_DEBITS}/:transaction_id/cancel`, ({ headers, params, runtime }) => {
  const record = findDirectDebit(runtime.store, params.transaction_id ?? '', holderOf(headers));
  cancelDirectDebit(runtime.store, record, runtime.clock.now().getTime());
  return json(true);
});

export const directDebitRoutes: readonly Route[] = [
  globalAccount,
  mandates,
  mandate,
  cancelMandateRoute,
  directDebits,
  directDebit,
  cancelDirectDebitRoute,
];
