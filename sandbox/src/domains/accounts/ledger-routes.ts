import { z } from 'zod';
import { ok } from '../../http.ts';
import { listPage, listQuerySchema } from '../../listing.ts';
import type { Route } from '../../routes.ts';
import { validate } from '../../validation.ts';
import { accountFromHeader } from './lookup.ts';
import { currencyCode } from '../../codes.ts';

// Document 1, section 8.
const TRANSACTIONS_MAX_RANGE_DAYS = 31;
const BALANCE_HISTORY_MAX_RANGE_DAYS = 7;

const balanceQuery = z.object({ currency: currencyCode.optional() });
const transactionsQuery = listQuerySchema(TRANSACTIONS_MAX_RANGE_DAYS);
const historyQuery = listQuerySchema(BALANCE_HISTORY_MAX_RANGE_DAYS);

/** Endpoint 5, GET /svc/api/v1/account/balance: one balance per currency, in opening order. */
const balances: Route = {
  method: 'GET',
  path: '/svc/api/v1/account/balance',
  headers: 'standard',
  handler: ({ query, runtime }) => {
    const { currency } = validate(balanceQuery, query);
    const list = [...runtime.store.balances.values()].filter((balance) => currency === undefined || balance.currency === currency);
    return ok(list, 'Balances retrieved successfully');
  },
};

/** Endpoint 6, GET /svc/api/v1/account/transactions: a page of one account's transactions. */
const transactions: Route = {
  method: 'GET',
  path: '/svc/api/v1/account/transactions',
  headers: 'standard',
  extraHeaders: ['x-account-id'],
  handler: ({ headers, query, runtime }) => {
    const account = accountFromHeader(runtime.store, headers);
    const listQuery = validate(transactionsQuery, query);
    const own = [...runtime.store.transactions.values()].filter((record) => record.accountId === account.id);
    const page = listPage(own, (record) => record.createdAt, listQuery);
    return ok(
      page.map((record) => record.transaction),
      'Transactions retrieved successfully',
    );
  },
};

/**
 * Endpoint 7, GET /svc/api/v1/account/balance/history: the user's balance changes across
 * all currencies (the contract names no account header for it).
 */
const balanceHistory: Route = {
  method: 'GET',
  path: '/svc/api/v1/account/balance/history',
  headers: 'standard',
  handler: ({ query, runtime }) => {
    const listQuery = validate(historyQuery, query);
    const page = listPage(runtime.store.balanceHistory.values(), (record) => record.createdAt, listQuery);
    return ok(
      page.map((record) => record.entry),
      'Balance history retrieved successfully',
    );
  },
};

export const ledgerRoutes: readonly Route[] = [balances, transactions, balanceHistory];
