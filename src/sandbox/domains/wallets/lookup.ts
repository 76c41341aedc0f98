import type { SandboxStore } from '../../store.ts';
import type { WalletRecord } from './types.ts';

/** One wallet per cardholder; it outlives a deleted cardholder. */
export function walletOf(store: SandboxStore, cardholderId: string): WalletRecord | undefined {
  return [...store.wallets.values()].find((wallet) => wallet.cardholderId === cardholderId);
}
