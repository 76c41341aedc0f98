import { z } from 'zod';
import { badRequest, ok } from '../../http.ts';
import type { Route } from '../../routes.ts';
import { validate } from '../../validation.ts';
import { openAccount } from './factory.ts';
import { accountFromHeader } from './lookup.ts';
import { countryCode, currencyCode, TRANSFER_METHODS, VIRTUAL_ACCOUNT } from '../../codes.ts';
import { ACCOUNT_STATUSES, type AccountRecord } from './types.ts';

const createBody = z.object({
  // The documented message (Document 1, section 7); a capitalised message is used verbatim.
  type: z.string().refine((type) => type === VIRTUAL_ACCOUNT, `Invalid account type: must be ${VIRTUAL_ACCOUNT}`),
  country: countryCode,
  currency: currencyCode,
  // null is read as "no label", like an absent field.
  label: z.string().nullish(),
  required_features: z.array(z.object({ currency: currencyCode, transfer_method: z.enum(TRANSFER_METHODS) })).min(1),
});

const listQuery = z.object({
  id: z.string().optional(),
  currency: currencyCode.optional(),
  status: z.enum(ACCOUNT_STATUSES).optional(),
});

/** Endpoint 2, POST /svc/api/v1/account. */
const createAccount: Route = {
  method: 'POST',
  path: '/svc/api/v1/account',
  headers: 'standard',
  handler: ({ body, runtime }) => {
    const input = validate(createBody, body);
    const { store, clock } = runtime;
    const account = openAccount(store, { ...input, id: store.newId('acc') }, clock.now().getTime(), store.random);
    return ok([account], 'Account created successfully');
  },
};

/**
 * Endpoint 3, GET /svc/api/v1/account. Oldest first (the order accounts were opened);
 * an unknown id is an empty list, not an error, as for any other filter.
 */
const listAccounts: Route = {
  method: 'GET',
  path: '/svc/api/v1/account',
  headers: 'standard',
  handler: ({ query, runtime }) => {
    const filter = validate(listQuery, query);
    const accounts = [...runtime.store.accounts.values()]
      .filter(
        (record) =>
          (filter.id === undefined || record.id === filter.id) &&
          (filter.currency === undefined || hasCurrency(record, filter.currency)) &&
          (filter.status === undefined || record.account.status === filter.status),
      )
      .sort((a, b) => a.createdAt - b.createdAt)
      .map(({ account }) => account);
    return ok(accounts, 'Accounts retrieved successfully');
  },
};

/** An account matches a currency it was opened in or supports in one of its features. */
function hasCurrency(record: AccountRecord, currency: string): boolean {
  return record.currency === currency || record.account.supported_features.some((feature) => feature.currency === currency);
}

/** Endpoint 4, DELETE /svc/api/v1/account: ACTIVE or INACTIVE to CLOSED, irreversibly. */
const closeAccount: Route = {
  method: 'DELETE',
  path: '/svc/api/v1/account',
  headers: 'standard',
  extraHeaders: ['x-account-id'],
  handler: ({ headers, runtime }) => {
    const { account } = accountFromHeader(runtime.store, headers);
    if (account.status === 'CLOSED') throw badRequest(`Account ${account.id} is already closed`);
    account.status = 'CLOSED';
    return ok(null, 'Account closed successfully');
  },
};

export const accountRoutes: readonly Route[] = [createAccount, listAccounts, closeAccount];
