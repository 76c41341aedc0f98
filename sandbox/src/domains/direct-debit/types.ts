/** Wire shapes of Document 3, sections 2.4 to 2.6, and the records that hold them. */

export interface GlobalAccountInstitution {
  address: string;
  branch_name: string;
  city: string;
  name: string;
  zip_code: string;
}

/** Section 2.4. Routing code types: sort_code, ach, bsb, institution_number, swift. */
interface RoutingCode {
  type: string;
  value: string;
}

export interface GlobalAccount {
  account_name: string;
  account_number: string;
  account_type: string;
  capability: { clearing_systems: string[]; payment_methods: string[]; support_direct_debit: boolean };
  country_code: string;
  currency: string;
  iban: string | null;
  id: string;
  institution: GlobalAccountInstitution;
  nick_name: string;
  request_id: string;
  routing_codes: RoutingCode[];
}

export interface GlobalAccountRecord {
  id: string;
  /** The connected account (x-on-behalf-of) that holds it; null for the platform's own. */
  ownerId: string | null;
  account: GlobalAccount;
}

/** Section 2.5 names ACTIVE only; `CANCELLED` is the sandbox's name for a cancelled mandate. */
export const MANDATE_STATUSES = ['ACTIVE', 'CANCELLED'] as const;
type MandateStatus = (typeof MANDATE_STATUSES)[number];

export interface MandateRecord {
  id: string;
  globalAccountId: string;
  status: MandateStatus;
  /** Who collects under the mandate. */
  creditorName: string;
  /** BACS, ACH, BECS, PAD or SEPA: the scheme of the global account's country. */
  paymentScheme: string;
  createdAt: number;
  /** When the mandate became usable. */
  setupAt: number;
  cancelledAt: number | null;
}

/**
 * Section 3's payout statuses, plus `CANCELLED`, the sandbox's name for the state a cancelled
 * PENDING payout moves to (the document gives none).
 */
export type DirectDebitStatus = 'NEW' | 'IN_REVIEW' | 'PENDING' | 'SETTLED' | 'REJECTED' | 'RETURNED' | 'CANCELLED';

/** A direct debit payout: money a creditor collects from the business under a mandate. */
export interface DirectDebitRecord {
  id: string;
  globalAccountId: string;
  mandateId: string;
  status: DirectDebitStatus;
  amount: number;
  currency: string;
  /** The payer: the holder of the global account. */
  debtorName: string;
  /** The creditor's name, kept for the balance history. */
  creditorName: string;
  statementRef: string;
  createdAt: number;
}

/** The domain's collections in the store, fresh for each store. */
export function directDebitCollections() {
  return {
    /** Document 3's global accounts with their direct debit capability. */
    globalAccounts: new Map<string, GlobalAccountRecord>(),
    mandates: new Map<string, MandateRecord>(),
    /** Keyed by transaction_id. */
    directDebits: new Map<string, DirectDebitRecord>(),
  };
}

declare module '../../store.ts' {
  interface SandboxCollections extends ReturnType<typeof directDebitCollections> {}
}
