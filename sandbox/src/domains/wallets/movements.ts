import { fromCents, toCents } from '../../money.ts';
import type { SandboxStore } from '../../store.ts';
import { formatApiTime } from '../../time.ts';
import { formatAmount } from '../../rates.ts';
import type { WalletHistoryEntry, WalletHistoryRecord, WalletRecord, WalletTxnStatus, WalletTxnType } from './types.ts';

/**
 * Every change of a wallet's amount goes through here, so the amount and the wallet history
 * cannot drift apart (as the core's ledger.ts does for business balances).
 */
export interface WalletMovement {
  /** Signed, in the wallet currency. */
  cents: number;
  type: WalletTxnType;
  status: WalletTxnStatus;
  /** The card transaction or balance-history entry behind it. */
  refId: string;
  cardId: string;
  acceptor: string;
  description: string | null;
  email: string | null;
  initiatedBy: string;
  /** What the merchant (or the load) asked for, before conversion. */
  acquirer: { cents: number; currency: string };
  at: number;
}

// The issuing family's program: wallets exist only there.
const PROGRAM_CODE = 'CARDS';

export function moveWallet(store: SandboxStore, wallet: WalletRecord, movement: WalletMovement): WalletHistoryRecord {
  const cents = toCents(wallet.amount) + movement.cents;
  // Callers check cover first; a debit below zero is a bug, not a client error.
  if (cents < 0) throw new Error(`wallet ${wallet.id} cannot cover ${movement.cents}`);
  wallet.amount = fromCents(cents);
  const id = store.newId('wtx');
  const record: WalletHistoryRecord = { id, walletId: wallet.id, createdAt: movement.at, entry: historyEntry(store, wallet, movement) };
  store.walletHistory.set(id, record);
  return record;
}

/** A settlement posts a purchase: its entries get an updatedAt. */
export function markWalletEntriesUpdated(store: SandboxStore, refId: string, at: number): void {
  for (const record of store.walletHistory.values()) {
    if (record.entry.txn_ref_id === refId) record.entry.updatedAt = formatApiTime(at);
  }
}

function historyEntry(store: SandboxStore, wallet: WalletRecord, movement: WalletMovement): WalletHistoryEntry {
  const amount = fromCents(Math.abs(movement.cents));
  const sequence = [...store.walletHistory.values()].filter((record) => record.walletId === wallet.id).length + 1;
  return {
    genericSlNo: sequence,
    slNo: `${wallet.id.slice(4)}-${String(sequence).padStart(6, '0')}`,
    wallet_id: wallet.id,
    programCode: PROGRAM_CODE,
    txn_currency: wallet.currency,
    txn_amount: amount,
    available_amount: wallet.amount,
    available_currency: wallet.currency,
    acquirer_amount: formatAmount(fromCents(Math.abs(movement.acquirer.cents)), movement.acquirer.currency),
    acquirer_currency: movement.acquirer.currency,
    txn_type: movement.type,
    txn_direction: movement.cents < 0 ? 'DEBIT' : 'CREDIT',
    txn_ref_id: movement.refId,
    txn_email: movement.email,
    txn_description: movement.description,
    txn_status: movement.status,
    card_acceptor_name: movement.acceptor,
    card_id: movement.cardId,
    initiated_by: movement.initiatedBy,
    settle_amount: amount,
    settle_currency: wallet.currency,
    billing_amount: amount,
    billing_currency: wallet.currency,
    initiatedAt: formatApiTime(movement.at),
    updatedAt: null,
  };
}
