import type { SandboxStore } from '../../store.ts';
import type { WalletRecord } from './types.ts';

/** An empty wallet; Create Wallet and the demo seed both open theirs here. */
export function openWallet(store: SandboxStore, cardholderId: string, currency: string, at: number, id = store.newId('wal')): WalletRecord {
  const wallet: WalletRecord = { id, cardholderId, currency, amount: 0, createdAt: at };
  store.wallets.set(id, wallet);
  return wallet;
}
