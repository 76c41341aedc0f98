import type { TransferMethod } from '../../codes.ts';
import type { Institution } from '../../institutions.ts';
/** Wire shapes of Document 1, sections 2.3 to 2.6, and the records that hold them. */

export const ACCOUNT_STATUSES = ['ACTIVE', 'INACTIVE', 'CLOSED'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

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

interface AccountTransaction {
  amount: number;
  create_time: string;
  description: string;
  currency: string;
  id: string;
  type: 'CREDIT' | 'DEBIT';
  status: 'SETTLED' | 'PENDING';
}

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

/** The domain's collections in the store, fresh for each store. */
export function accountCollections() {
  return {
    accounts: new Map<string, AccountRecord>(),
    transactions: new Map<string, TransactionRecord>(),
  };
}

declare module '../../store.ts' {
  interface SandboxCollections extends ReturnType<typeof accountCollections> {}
}
