/** Document 2, sections 2.5 and 2.6, and the records that hold them. */

export interface WalletRecord {
  id: string;
  cardholderId: string;
  currency: string;
  /** Currency units; changed only through movements.ts. */
  amount: number;
  createdAt: number;
}

/** txn_type values: the document's FEE and fee_SCTF, plus the sandbox's LOAD, PURCHASE, REFUND. */
export type WalletTxnType = 'LOAD' | 'PURCHASE' | 'REFUND';
type WalletTxnDirection = 'CREDIT' | 'DEBIT';
export type WalletTxnStatus = 'SUCCESS' | 'APPROVED';

export interface WalletHistoryEntry {
  genericSlNo: number;
  slNo: string;
  wallet_id: string;
  programCode: string;
  txn_currency: string;
  txn_amount: number;
  available_amount: number;
  available_currency: string;
  acquirer_amount: string;
  acquirer_currency: string;
  txn_type: WalletTxnType;
  txn_direction: WalletTxnDirection;
  txn_ref_id: string;
  txn_email: string | null;
  txn_description: string | null;
  txn_status: WalletTxnStatus;
  card_acceptor_name: string;
  card_id: string;
  initiated_by: string;
  settle_amount: number;
  settle_currency: string;
  billing_amount: number;
  billing_currency: string;
  initiatedAt: string;
  updatedAt: string | null;
}

export interface WalletHistoryRecord {
  id: string;
  walletId: string;
  createdAt: number;
  entry: WalletHistoryEntry;
}

/** The domain's collections in the store, fresh for each store. */
export function walletCollections() {
  return {
    wallets: new Map<string, WalletRecord>(),
    walletHistory: new Map<string, WalletHistoryRecord>(),
  };
}

declare module '../../store.ts' {
  interface SandboxCollections extends ReturnType<typeof walletCollections> {}
}
