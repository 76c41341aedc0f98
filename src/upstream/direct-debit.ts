import { z } from 'zod';
import { orNullIfNotFound, type BoundCall } from './bound-call.ts';
import { records } from './cache-policy.ts';
import { camelObject } from './camel-case.ts';
import { endpoint } from './endpoint.ts';
import {
  anyCaseEnum,
  countryCode,
  currencyCode,
  decimal,
  optionalText,
  orEmpty,
  orEmptyObject,
  orFalse,
  orNull,
  upperCased,
  upstreamDateTime,
} from './models.ts';

/**
 * Document 3, sections 2.4-2.7 and 4.2: global accounts, direct debit mandates and direct debit
 * payouts. Its own base address, the bearer token, no envelope, and `{code, message}` errors.
 */

export const DIRECT_DEBIT_STATUSES = ['NEW', 'IN_REVIEW', 'PENDING', 'SETTLED', 'REJECTED', 'RETURNED', 'CANCELLED'] as const;

/** Absent capability reads as none: no clearing systems, no payment methods, no direct debit. */
const capability = orEmptyObject(
  camelObject({ clearing_systems: orEmpty(z.string()), payment_methods: orEmpty(z.string()), support_direct_debit: orFalse }),
);

const globalAccountModel = camelObject({
  id: z.string().min(1),
  account_name: optionalText,
  account_number: optionalText,
  account_type: optionalText,
  capability,
  country_code: countryCode,
  currency: currencyCode,
  iban: optionalText,
  institution: orNull(
    camelObject({ address: optionalText, branch_name: optionalText, city: optionalText, name: optionalText, zip_code: optionalText }),
  ),
  nick_name: optionalText,
  request_id: optionalText,
  routing_codes: orEmpty(z.object({ type: z.string(), value: z.string() })),
});
export type GlobalAccount = z.output<typeof globalAccountModel>;

const mandateModel = camelObject({
  id: z.string().min(1),
  created_at: orNull(upstreamDateTime),
  setup_time: orNull(upstreamDateTime),
  creditor_name: optionalText,
  debtor_name: optionalText,
  currency: currencyCode,
  global_account_id: z.string().min(1),
  payment_scheme: optionalText,
  status: upperCased,
});
export type Mandate = z.output<typeof mandateModel>;

const directDebitModel = camelObject({
  transaction_id: z.string().min(1),
  amount: decimal,
  created_at: upstreamDateTime,
  currency: currencyCode,
  debtor_name: optionalText,
  global_account_id: z.string().min(1),
  mandate_id: optionalText,
  statement_ref: optionalText,
  status: anyCaseEnum(DIRECT_DEBIT_STATUSES),
});
export type DirectDebit = z.output<typeof directDebitModel>;

/** Section 2.7: the page wrapper of mandate and direct debit lists. */
const page = <T extends z.ZodType>(item: T) => camelObject({ has_more: orFalse, items: orEmpty(item) });

const ACCOUNT = '/api/v1/global_accounts/{accountId}';
/** What every endpoint of Document 3's direct debit family declares: its headers, and a body without the envelope. */
const directDebitEndpoint = { headers: 'direct-debit' as const, envelope: false };
/** A direct debit read, kept by the record cache. */
const directDebitRead = { ...directDebitEndpoint, cache: records('direct-debit') };

export const directDebitEndpoints = {
  globalAccount: endpoint({ method: 'GET', path: ACCOUNT, ...directDebitRead, data: globalAccountModel }),
  mandates: endpoint({ method: 'GET', path: `${ACCOUNT}/mandates`, ...directDebitRead, data: page(mandateModel) }),
  mandate: endpoint({ method: 'GET', path: `${ACCOUNT}/mandates/{mandateId}`, ...directDebitRead, data: mandateModel }),
  mandateCancel: endpoint({
    method: 'POST',
    path: `${ACCOUNT}/mandates/{mandateId}/cancel`,
    ...directDebitEndpoint,
    data: z.literal(true),
    changes: ['direct-debit'],
  }),
  directDebits: endpoint({ method: 'GET', path: '/api/v1/direct_debits', ...directDebitRead, data: page(directDebitModel) }),
  directDebit: endpoint({ method: 'GET', path: '/api/v1/direct_debits/{transactionId}', ...directDebitRead, data: directDebitModel }),
  /** The debit's money returns to the account. */
  directDebitCancel: endpoint({
    method: 'POST',
    path: '/api/v1/direct_debits/{transactionId}/cancel',
    ...directDebitEndpoint,
    data: z.literal(true),
    changes: ['direct-debit', 'accounts'],
  }),
};

/** Who the call acts for: the platform itself, or a connected account (x-on-behalf-of). */
export type ActingFor = string | null;

const onBehalfOf = (actingFor: ActingFor) => (actingFor ? { 'x-on-behalf-of': actingFor } : undefined);

export interface ListWindow {
  page: number;
  size: number;
  /** YYYY-MM-DD. The documents spell these from_created_date/to_created_date and, in a sample, *_at: we send *_date. */
  fromDate?: string | null | undefined;
  toDate?: string | null | undefined;
}

const windowQuery = (w: ListWindow) => ({ page_num: w.page, page_size: w.size, from_created_date: w.fromDate, to_created_date: w.toDate });

export function directDebitApi(call: BoundCall) {
  return {
    globalAccount: (id: string, actingFor: ActingFor) =>
      orNullIfNotFound(call(directDebitEndpoints.globalAccount, { params: { accountId: id }, headers: onBehalfOf(actingFor) })),
    mandates: (accountId: string, filter: ListWindow & { status?: string | null }, actingFor: ActingFor) =>
      call(directDebitEndpoints.mandates, {
        params: { accountId },
        query: { ...windowQuery(filter), status: filter.status ?? undefined },
        headers: onBehalfOf(actingFor),
      }),
    mandate: (accountId: string, mandateId: string, actingFor: ActingFor) =>
      orNullIfNotFound(call(directDebitEndpoints.mandate, { params: { accountId, mandateId }, headers: onBehalfOf(actingFor) })),
    mandateCancel: (accountId: string, mandateId: string, actingFor: ActingFor, idempotencyKey?: string | null) =>
      call(directDebitEndpoints.mandateCancel, {
        params: { accountId, mandateId },
        headers: onBehalfOf(actingFor),
        idempotencyKey: idempotencyKey ?? undefined,
      }),
    directDebits: (window: ListWindow, actingFor: ActingFor) =>
      call(directDebitEndpoints.directDebits, { query: windowQuery(window), headers: onBehalfOf(actingFor) }),
    directDebit: (id: string, actingFor: ActingFor) =>
      orNullIfNotFound(call(directDebitEndpoints.directDebit, { params: { transactionId: id }, headers: onBehalfOf(actingFor) })),
    directDebitCancel: (id: string, actingFor: ActingFor, idempotencyKey?: string | null) =>
      call(directDebitEndpoints.directDebitCancel, {
        params: { transactionId: id },
        headers: onBehalfOf(actingFor),
        idempotencyKey: idempotencyKey ?? undefined,
      }),
  };
}
