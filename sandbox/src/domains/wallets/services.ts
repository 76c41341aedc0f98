import { openWallet } from './factory.ts';
import { walletIn } from './lookup.ts';
import { markWalletEntriesUpdated, moveWallet } from './movements.ts';

/** What the wallets domain offers the others, through the core (services.ts). */
export const walletServices = { openWallet, walletIn, moveWallet, markWalletEntriesUpdated };

declare module '../../services.ts' {
  interface SandboxServices extends Readonly<typeof walletServices> {}
}
