/** Wire shapes of Document 1, sections 2.3 to 2.6, and the records that hold them. */

export const ACCOUNT_STATUSES = ['ACTIVE', 'INACTIVE', 'CLOSED'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

export const TRANSFER_METHODS = ['LOCAL', 'SWIFT'] as const;
export type TransferMethod = (typeof TRANSFER_METHODS)[number];

export interface Institution {
  address: string;
  city: string;
  name: string;
  zip_code: string;
}

export interface RoutingCode {
  type: 'bank_code' | 'branch_code' | 'swift';
  value: string;
}

export interface SupportedFeature {
  currency: string;
  local_clearing_system: string | null;
  transfer_method: TransferMethod;
  type: 'DEPOSIT';
  routing_codes: RoutingCode[];
}

export interface RequiredFeature {
  currency: string;
  transfer_method: TransferMethod;
}

export interface Account {
  id: string;
  status: AccountStatus;
  account_number: string;
  account_holder_name: string;
  label: string;
  account_type: string | null;
  country_code: string;
  institution: Institution;
  supported_features: SupportedFeature[];
  required_features: RequiredFeature[];
  swift_code: string | null;
  iban: string | null;
}

export interface Balance {
  currency: string;
  available_balance: number;
  pending_amount: number;
  reserved_amount: number;
}

export interface AccountTransaction {
  amount: number;
  create_time: string;
  description: string;
  currency: string;
  id: string;
  type: 'CREDIT' | 'DEBIT';
  status: 'SETTLED' | 'PENDING';
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

/** Records keep the creation instant as a number so lists can sort and filter cheaply. */
export interface AccountRecord {
  id: string;
  createdAt: number;
  /** The currency the account was opened in; the wire shape has no field for it. */
  currency: string;
  account: Account;
}

export interface TransactionRecord {
  id: string;
  accountId: string;
  createdAt: number;
  transaction: AccountTransaction;
}

export interface BalanceHistoryRecord {
  id: string;
  createdAt: number;
  entry: BalanceHistoryEntry;
}

/** The domain's collections in the store, fresh for each store. */
export function accountCollections() {
  return {
    accounts: new Map<string, AccountRecord>(),
    /** Keyed by currency: the contract has one balance per currency for the user. */
    balances: new Map<string, Balance>(),
    transactions: new Map<string, TransactionRecord>(),
    balanceHistory: new Map<string, BalanceHistoryRecord>(),
  };
}

declare module '../../store.ts' {
  interface SandboxCollections extends ReturnType<typeof accountCollections> {}
}
