import { z } from 'zod';
import { headerValue } from '../../headers.ts';
import { badRequest, ok } from '../../http.ts';
import { pageOf } from '../../paging.ts';
import { assertSupported, type Operation } from '../../program.ts';
import type { RequestContext, Route } from '../../routes.ts';
import { validate } from '../../validation.ts';
import { currencyCode } from '../accounts/schemas.ts';
import { readyCardholder } from '../cardholders/lookup.ts';
import { assertEkycDone } from '../kyc/records.ts';
import { openWallet } from './factory.ts';
import { historyQuery } from './history-query.ts';
import { walletOf } from './lookup.ts';
import type { WalletRecord } from './types.ts';
import { walletView } from './wire.ts';

const PATH = '/issuing/api/v1/wallet';

const createBody = z.object({ currency: currencyCode });

/** The cardholder named by x-cardholder-id (presence is checked by the pipeline), once the program allows the call. */
function cardholderIdFor(ctx: RequestContext, operation: Operation): string {
  assertSupported(ctx.runtime.program.current(), operation);
  return headerValue(ctx.headers, 'x-cardholder-id') ?? '';
}

/** A deleted cardholder's wallet stays readable, so this asks for the wallet, not the cardholder. */
function existingWallet(ctx: RequestContext, operation: Operation): WalletRecord {
  const cardholderId = cardholderIdFor(ctx, operation);
  const wallet = walletOf(ctx.runtime.store, cardholderId);
  if (wallet === undefined) throw badRequest(`Wallet for cardholder ${cardholderId} not found`);
  return wallet;
}

/** Endpoint 38: one wallet per cardholder, READY and (where eKYC applies) verified. */
const createWallet: Route = {
  method: 'POST',
  path: PATH,
  headers: 'wallet',
  handler: (ctx) => {
    const cardholderId = cardholderIdFor(ctx, 'Create Wallet');
    const { currency } = validate(createBody, ctx.body);
    const { store } = ctx.runtime;
    const cardholder = readyCardholder(store, cardholderId);
    assertEkycDone(ctx.runtime.program.current(), store, cardholder.id, 'wallet creation');
    if (walletOf(store, cardholder.id) !== undefined) throw badRequest(`Cardholder ${cardholder.id} already has a wallet`);
    const wallet = openWallet(store, cardholder.id, currency, ctx.runtime.clock.now().getTime());
    return ok([walletView(wallet)], 'Wallet created successfully');
  },
};

/** Endpoint 39. */
const getWallet: Route = {
  method: 'GET',
  path: PATH,
  headers: 'wallet',
  handler: (ctx) => ok([walletView(existingWallet(ctx, 'Get Wallet Details'))], 'Wallet retrieved successfully'),
};

/** Endpoint 40: the wallet named by x-wallet-id must be the cardholder's. Newest first. */
const walletHistory: Route = {
  method: 'GET',
  path: `${PATH}/history`,
  headers: 'wallet',
  extraHeaders: ['x-wallet-id'],
  handler: (ctx) => {
    const wallet = existingWallet(ctx, 'Wallet history');
    const walletId = headerValue(ctx.headers, 'x-wallet-id') ?? '';
    if (wallet.id !== walletId) throw badRequest(`Wallet ${walletId} not found for cardholder ${wallet.cardholderId}`);
    const { paging, range } = validate(historyQuery, ctx.query);
    const entries = [...ctx.runtime.store.walletHistory.values()].filter(
      (record) => record.walletId === wallet.id && (range === null || (record.createdAt >= range.from && record.createdAt <= range.to)),
    );
    return ok(pageOf(entries, (record) => record.createdAt, paging).map((record) => record.entry), 'Wallet history retrieved successfully');
  },
};

export const walletRoutes: readonly Route[] = [createWallet, getWallet, walletHistory];
