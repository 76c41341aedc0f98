/**
 * The records of the ledger (ledger.ts): a balance per currency and the balance history. They are
 * the core's, not the accounts domain's, because every domain that moves money posts to them.
 */

export interface Balance {
  currency: string;
  available_balance: number;
  pending_amount: number;
  reserved_amount: number;
}

export interface BalanceHistoryEntry {
  id: string;
  amount: number;
  currency: string;
  balance: number;
  description: string;
  fee: number;
  create_time: string;
  source_type: HistorySourceType;
  transaction_type: HistoryTransactionType;
}

/**
 * CARD: card loads (Cards program) and card spending (Banking program), Document 2.
 * DIRECT_DEBIT: direct debit payouts settling and their returns, Document 3.
 */
export type HistorySourceType = 'PAYOUT' | 'CONVERSION' | 'DEPOSIT' | 'CARD' | 'DIRECT_DEBIT';
/**
 * The document's values seen, plus CONVERSION_SELL for the debit leg of a conversion, the
 * card movements: CARD_LOAD (a recharge into a wallet), CARD_PURCHASE and CARD_REFUND, and
 * the direct debit ones: DIRECT_DEBIT (a payout settling) and DIRECT_DEBIT_RETURN (a
 * dispute won by the payer).
 */
export type HistoryTransactionType =
  | 'PAYOUT'
  | 'CONVERSION_BUY'
  | 'CONVERSION_SELL'
  | 'DEPOSIT'
  | 'CARD_LOAD'
  | 'CARD_PURCHASE'
  | 'CARD_REFUND'
  | 'DIRECT_DEBIT'
  | 'DIRECT_DEBIT_RETURN';

export interface BalanceHistoryRecord {
  id: string;
  createdAt: number;
  entry: BalanceHistoryEntry;
}
