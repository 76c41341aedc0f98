import type { SandboxStore } from '../../store.ts';
import type { WalletRecord } from './types.ts';

/**
 * A cardholder's wallets, oldest first: one per currency (Create Wallet takes a currency and Get
 * Wallet answers an array; the documents do not limit how many). They outlive a deleted cardholder.
 */
export function walletsOf(store: SandboxStore, cardholderId: string): WalletRecord[] {
  return [...store.wallets.values()].filter((wallet) => wallet.cardholderId === cardholderId).sort((a, b) => a.createdAt - b.createdAt);
}

/** The cardholder's wallet in `currency`: the one its cards in that currency spend from. */
export function walletIn(store: SandboxStore, cardholderId: string, currency: string): WalletRecord | undefined {
  return walletsOf(store, cardholderId).find((wallet) => wallet.currency === currency);
}
