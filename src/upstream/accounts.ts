import { z } from 'zod';
import type { BoundCall } from './bound-call.ts';
import { records } from './cache-policy.ts';
import { camelObject } from './camel-case.ts';
import { endpoint } from './endpoint.ts';
import { countryCode, currencyCode, decimal, optionalText, orEmpty, orNull, single, upstreamDateTime } from './models.ts';

/** Document 1, sections 2.3 to 2.6 and 4.2: accounts, balances, transactions, balance history. */

export const ACCOUNT_STATUSES = ['ACTIVE', 'INACTIVE', 'CLOSED'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];
export const TRANSFER_METHODS = ['LOCAL', 'SWIFT'] as const;
export type TransferMethod = (typeof TRANSFER_METHODS)[number];

const transferMethod = z.enum(TRANSFER_METHODS);

const routingCode = z.object({ type: z.string(), value: z.string() });

const supportedFeature = camelObject({
  currency: currencyCode,
  local_clearing_system: optionalText,
  transfer_method: transferMethod,
  type: optionalText,
  routing_codes: orEmpty(routingCode),
});

const requiredFeature = camelObject({ transfer_method: transferMethod, currency: currencyCode });

const institution = camelObject({ address: optionalText, city: optionalText, name: optionalText, zip_code: optionalText });

const accountModel = camelObject({
  id: z.string().min(1),
  status: z.enum(ACCOUNT_STATUSES),
  account_number: z.string(),
  account_holder_name: z.string(),
  label: optionalText,
  account_type: optionalText,
  country_code: countryCode,
  institution: orNull(institution),
  supported_features: orEmpty(supportedFeature),
  required_features: orEmpty(requiredFeature),
  swift_code: optionalText,
  iban: optionalText,
});
export type Account = z.output<typeof accountModel>;

const balanceModel = camelObject({ currency: currencyCode, available_balance: decimal, pending_amount: decimal, reserved_amount: decimal });
export type Balance = z.output<typeof balanceModel>;

const accountTransactionModel = camelObject({
  id: z.string().min(1),
  amount: decimal,
  currency: currencyCode,
  create_time: upstreamDateTime,
  description: optionalText,
  type: z.string(),
  status: z.string(),
});
export type AccountTransaction = z.output<typeof accountTransactionModel>;

const balanceHistoryModel = camelObject({
  id: z.string().min(1),
  amount: decimal,
  currency: currencyCode,
  /** The balance after this change. */
  balance: decimal,
  description: optionalText,
  fee: decimal.nullish().transform((v) => v ?? '0'),
  create_time: upstreamDateTime,
  source_type: z.string(),
  transaction_type: z.string(),
});
export type BalanceHistoryEntry = z.output<typeof balanceHistoryModel>;

const accountReads = records('accounts');
/** Opening or closing an account changes its global account (direct debit) and the user's profile too. */
const ACCOUNT_WRITE = ['accounts', 'direct-debit', 'user'] as const;

export const accountEndpoints = {
  create: endpoint({
    method: 'POST',
    path: '/{svc}/api/v1/account',
    headers: 'standard',
    data: single(accountModel),
    changes: ACCOUNT_WRITE,
  }),
  list: endpoint({ method: 'GET', path: '/{svc}/api/v1/account', headers: 'standard', data: z.array(accountModel), cache: accountReads }),
  close: endpoint({ method: 'DELETE', path: '/{svc}/api/v1/account', headers: 'standard', data: z.null(), changes: ACCOUNT_WRITE }),
  balances: endpoint({
    method: 'GET',
    path: '/{svc}/api/v1/account/balance',
    headers: 'standard',
    data: z.array(balanceModel),
    cache: accountReads,
  }),
  transactions: endpoint({
    method: 'GET',
    path: '/{svc}/api/v1/account/transactions',
    headers: 'standard',
    data: z.array(accountTransactionModel),
    cache: accountReads,
  }),
  balanceHistory: endpoint({
    method: 'GET',
    path: '/{svc}/api/v1/account/balance/history',
    headers: 'standard',
    data: z.array(balanceHistoryModel),
    cache: accountReads,
  }),
};

export interface AccountCreateRequest {
  country: string;
  currency: string;
  label?: string | null | undefined;
  requiredFeatures: { currency: string; transferMethod: TransferMethod }[];
}

/** One page of a paged list: `page` is 1-based (the sandbox's documented choice). */
export interface PageRequest {
  page: number;
  size: number;
  /** YYYY-MM-DD, given together with `toDate` or not at all. */
  fromDate?: string | undefined;
  toDate?: string | undefined;
}

const pageQuery = (p: PageRequest) => ({ page: p.page, size: p.size, from_date: p.fromDate, to_date: p.toDate });

export function accountsApi(call: BoundCall) {
  return {
    list: (filter: { id?: string; currency?: string | null; status?: AccountStatus | null } = {}) =>
      call(accountEndpoints.list, { query: filter }),
    create: (request: AccountCreateRequest, idempotencyKey?: string | null) =>
      call(accountEndpoints.create, {
        idempotencyKey: idempotencyKey ?? undefined,
        body: {
          // The only type Create Account accepts since 2026-01-22.
          type: 'virtual_account',
          country: request.country,
          currency: request.currency,
          label: request.label ?? undefined,
          required_features: request.requiredFeatures.map((f) => ({ currency: f.currency, transfer_method: f.transferMethod })),
        },
      }),
    close: (accountId: string, idempotencyKey?: string | null) =>
      call(accountEndpoints.close, { headers: { 'x-account-id': accountId }, idempotencyKey: idempotencyKey ?? undefined }),
    balances: (currency?: string | null) => call(accountEndpoints.balances, { query: { currency } }),
    transactions: (accountId: string, page: PageRequest) =>
      call(accountEndpoints.transactions, { headers: { 'x-account-id': accountId }, query: pageQuery(page) }),
    balanceHistory: (page: PageRequest) => call(accountEndpoints.balanceHistory, { query: pageQuery(page) }),
  };
}
