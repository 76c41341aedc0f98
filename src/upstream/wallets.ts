import { z } from 'zod';
import { orNullIfNotFound, type BoundCall } from './bound-call.ts';
import { records } from './cache-policy.ts';
import { camelObject } from './camel-case.ts';
import { endpoint } from './endpoint.ts';
import { extended } from './lazy-model.ts';
import { currencyCode, decimal, optionalText, orNull, single, upstreamDateTime } from './models.ts';

/**
 * Document 2, sections 2.5, 2.6 and 4.3: a cardholder's wallets (Get Wallet answers an array, Create
 * Wallet takes a currency: a cardholder may hold several) and their history (issuing family: the
 * `issuing` header set, with x-cardholder-id and, for history, x-wallet-id).
 */

/** A limit is the number the bank sends, 0 included: the document gives its type (number), not what 0 means. */
const limit = orNull(decimal);

/** The bank's own camelCase; each amount comes with the wallet's currency, or its own. */
const walletModel = z.object({
  id: z.string().min(1),
  currency: currencyCode,
  amount: decimal,
  holdingCurrency: orNull(currencyCode),
  holdingAmount: orNull(decimal),
  dailyLimitAmount: limit,
  weeklyLimitAmount: limit,
  monthlyLimitAmount: limit,
  yearlyLimitAmount: limit,
  totalLimitAmount: limit,
  status: z.string(),
  createdAt: orNull(upstreamDateTime),
});

/** A wallet and the cardholder it belongs to (the upstream's wallet does not name its cardholder). */
export type Wallet = z.output<typeof walletModel> & { cardholderId: string };

/** Partly camelCase, partly snake_case, as the bank sends it; each amount comes with its currency. */
const walletHistoryEntryModel = camelObject({
  genericSlNo: orNull(z.number().int()),
  slNo: z.union([z.string(), z.number()]).transform(String),
  wallet_id: optionalText,
  programCode: optionalText,
  txn_currency: orNull(currencyCode),
  txn_amount: orNull(decimal),
  available_amount: orNull(decimal),
  available_currency: orNull(currencyCode),
  acquirer_amount: orNull(decimal),
  acquirer_currency: orNull(currencyCode),
  txn_type: z.string(),
  txn_direction: optionalText,
  txn_ref_id: optionalText,
  txn_email: optionalText,
  txn_description: optionalText,
  txn_status: optionalText,
  card_acceptor_name: optionalText,
  card_id: optionalText,
  initiated_by: optionalText,
  settle_amount: orNull(decimal),
  settle_currency: orNull(currencyCode),
  billing_amount: orNull(decimal),
  billing_currency: orNull(currencyCode),
  initiatedAt: orNull(upstreamDateTime),
  updatedAt: orNull(upstreamDateTime),
});
export type WalletHistoryEntry = z.output<typeof walletHistoryEntryModel>;

const WALLET = '/issuing/api/v1/wallet';
const walletReads = records('wallets');

export const walletEndpoints = {
  /** The cardholder's record lists its wallets. */
  create: endpoint({ method: 'POST', path: WALLET, headers: 'issuing', data: single(walletModel), changes: ['wallets', 'cardholders'] }),
  list: endpoint({ method: 'GET', path: WALLET, headers: 'issuing', data: z.array(walletModel), cache: walletReads }),
  history: endpoint({
    method: 'GET',
    path: `${WALLET}/history`,
    headers: 'issuing',
    data: z.array(walletHistoryEntryModel),
    cache: walletReads,
  }),
};

export interface WalletHistoryPage {
  page: number;
  size: number;
  /** Either bound alone or both, each `YYYY-MM-DD` or `yyyy-MM-ddTHH:mm:ss` (UTC), as Document 2, 4.3 allows. */
  from?: string | undefined;
  to?: string | undefined;
}

export function walletsApi(call: BoundCall) {
  const cardholder = (cardholderId: string) => ({ 'x-cardholder-id': cardholderId });
  return {
    create: async (cardholderId: string, currency: string, idempotencyKey?: string | null): Promise<Wallet> =>
      extended(
        await call(walletEndpoints.create, {
          headers: cardholder(cardholderId),
          body: { currency },
          idempotencyKey: idempotencyKey ?? undefined,
        }),
        { cardholderId },
      ),
    /**
     * Every wallet of the cardholder, in the bank's order: `data: []` when there is none. A bank that
     * answers "not found" for a cardholder without wallets reads the same.
     */
    list: async (cardholderId: string): Promise<Wallet[]> => {
      const wallets = await orNullIfNotFound(call(walletEndpoints.list, { headers: cardholder(cardholderId) }));
      return (wallets ?? []).map((wallet) => extended(wallet, { cardholderId }));
    },
    history: (wallet: { id: string; cardholderId: string }, page: WalletHistoryPage) =>
      call(walletEndpoints.history, {
        headers: { ...cardholder(wallet.cardholderId), 'x-wallet-id': wallet.id },
        query: { page: page.page, size: page.size, from_date: page.from, to_date: page.to },
      }),
  };
}
