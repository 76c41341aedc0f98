import { z } from 'zod';
import { headerValue } from '../../headers.ts';
import { badRequest, ok } from '../../http.ts';
import { pageOf } from '../../paging.ts';
import { assertSupported, type Operation } from '../../program.ts';
import type { RequestContext, Route } from '../../routes.ts';
import { validate } from '../../validation.ts';
import { currencyCode } from '../../codes.ts';
import { openWallet } from './factory.ts';
import { historyQuery } from './history-query.ts';
import { walletIn, walletsOf } from './lookup.ts';
import type { WalletRecord } from './types.ts';
import { walletView } from './wire.ts';

const PATH = '/issuing/api/v1/wallet';

const createBody = z.object({ currency: currencyCode });

/** The cardholder named by x-cardholder-id (presence is checked by the pipeline), once the program allows the call. */
function cardholderIdFor(ctx: RequestContext, operation: Operation): string {
  assertSupported(ctx.runtime.program.current(), operation);
  return headerValue(ctx.headers, 'x-cardholder-id') ?? '';
}

/** The wallet named by x-wallet-id, which must be one of the cardholder's (a deleted cardholder's stay readable). */
function cardholderWallet(ctx: RequestContext, operation: Operation): WalletRecord {
  const cardholderId = cardholderIdFor(ctx, operation);
  const walletId = headerValue(ctx.headers, 'x-wallet-id') ?? '';
  const wallet = walletsOf(ctx.runtime.store, cardholderId).find((candidate) => candidate.id === walletId);
  if (wallet === undefined) throw badRequest(`Wallet ${walletId} not found for cardholder ${cardholderId}`);
  return wallet;
}

/** Endpoint 38: one wallet per cardholder and currency, READY and (where eKYC applies) verified. */
const createWallet: Route = {
  method: 'POST',
  path: PATH,
  headers: 'wallet',
  handler: (ctx) => {
    const cardholderId = cardholderIdFor(ctx, 'Create Wallet');
    const { currency } = validate(createBody, ctx.body);
    const { store } = ctx.runtime;
    const cardholder = store.services.readyCardholder(store, cardholderId);
    store.services.assertEkycDone(ctx.runtime.program.current(), store, cardholder.id, 'wallet creation');
    if (walletIn(store, cardholder.id, currency) !== undefined)
      throw badRequest(`Cardholder ${cardholder.id} already has a wallet in ${currency}`);
    const wallet = openWallet(store, cardholder.id, currency, ctx.runtime.clock.now().getTime());
    return ok([walletView(wallet)], 'Wallet created successfully');
  },
};

/** Endpoint 39: every wallet of the cardholder, oldest first; `data: []` for a cardholder without one. */
const getWallet: Route = {
  method: 'GET',
  path: PATH,
  headers: 'wallet',
  handler: (ctx) => {
    const wallets = walletsOf(ctx.runtime.store, cardholderIdFor(ctx, 'Get Wallet Details'));
    return ok(wallets.map(walletView), wallets.length > 0 ? 'Wallet retrieved successfully' : 'No wallet found for the cardholder');
  },
};

/** Endpoint 40: the wallet named by x-wallet-id must be the cardholder's. Newest first. */
const walletHistory: Route = {
  method: 'GET',
  path: `${PATH}/history`,
  headers: 'wallet',
  extraHeaders: ['x-wallet-id'],
  handler: (ctx) => {
    const wallet = cardholderWallet(ctx, 'Wallet history');
    const { paging, range } = validate(historyQuery, ctx.query);
    const entries = [...ctx.runtime.store.walletHistory.values()].filter(
      (record) => record.walletId === wallet.id && (range === null || (record.createdAt >= range.from && record.createdAt <= range.to)),
    );
    return ok(
      pageOf(entries, (record) => record.createdAt, paging).map((record) => record.entry),
      'Wallet history retrieved successfully',
    );
  },
};

export const walletRoutes: readonly Route[] = [createWallet, getWallet, walletHistory];
