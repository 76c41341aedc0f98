import type { Address } from '../../address.ts';

/** Document 2, sections 2.1 to 2.3 and 4.1, and the records that hold them. */

export const CARD_TYPES = ['VIRTUAL', 'PHYSICAL'] as const;
export type CardType = (typeof CARD_TYPES)[number];

export const CARD_STATUSES = ['ACTIVE', 'INACTIVE', 'CLOSED'] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];

export const LIMIT_INTERVALS = ['PER_TRANSACTION', 'DAILY', 'WEEKLY', 'MONTHLY', 'ALL_TIME'] as const;
export type LimitInterval = (typeof LIMIT_INTERVALS)[number];

export const TRANSACTION_COUNTS = ['SINGLE', 'MULTIPLE'] as const;
export type TransactionCount = (typeof TRANSACTION_COUNTS)[number];

export interface Limit {
  interval: LimitInterval;
  amount: number;
}

/** What a card may be used for; see spending.ts for how it is applied. */
export interface SpendingControls {
  allowedTransactionCount: TransactionCount;
  /** The currency the limit amounts are in (the card currency unless Update Card changed it). */
  limitCurrency: string;
  limits: Limit[];
  /** `YYYY-MM-DDTHH:mm:ssZ`, or null for no bound. */
  activeFrom: string | null;
  activeTo: string | null;
  /** Empty: any currency, any merchant category. */
  allowedCurrencies: string[];
  allowedMerchantCategories: string[];
}

export interface Delivery {
  delivery_mode: string;
  delivery_vendor: string | null;
  status: string;
  tracked: boolean;
  tracking_link: string | null;
  tracking_number: string | null;
  updated_at: string;
}

/**
 * A card. The full card number is never kept: only what the masked form shows and a digest
 * that tells whether a number was assigned before. The PIN is kept as a digest too.
 */
export interface CardRecord {
  id: string;
  cardholderId: string;
  type: CardType;
  status: CardStatus;
  currency: string;
  firstSix: string;
  lastFour: string;
  numberDigest: string;
  scheme: string;
  nameOnCard: string;
  /** No request sets one: the sandbox names the card by its kind and last four digits. */
  nickName: string;
  createdBy: string;
  personalized: boolean;
  /** Pre-issued and given to the cardholder by Assign Card (Cards program). */
  assigned: boolean;
  /** A physical card has been activated once (a virtual card is active from the start). */
  activated: boolean;
  /** The code e-mailed for a physical card; null for virtual cards. */
  activationCode: string | null;
  pinDigest: string | null;
  postalAddress: Address | null;
  delivery: Delivery | null;
  controls: SpendingControls;
  createdAt: number;
  updatedAt: number;
}

export type CardTransactionType = 'PURCHASE' | 'REFUND';
/** APPROVED and the failure reasons are the document's values; DECLINED and SETTLED the sandbox's. */
export type CardTransactionStatus = 'APPROVED' | 'DECLINED' | 'SETTLED';
export type FailureReason = 'CARD_INACTIVE' | 'TRANSACTION_NOT_ALLOWED' | 'CARD_USAGE_EXCEEDED' | 'LIMIT_EXCEEDED' | 'INSUFFICIENT_FUNDS';

export interface Merchant {
  category_code: string;
  city: string;
  country: string;
  identifier: string;
  name: string;
  postcode: string | null;
  state: string | null;
}

/** Document 2, section 2.3. */
interface CardTransaction {
  acquiring_institution_identifier: string;
  auth_code: string | null;
  billing_amount: number;
  billing_currency: string;
  card_id: string;
  card_nickname: string;
  client_data: string | null;
  digital_wallet_token_id: string | null;
  failure_reason: FailureReason | null;
  lifecycle_id: string;
  masked_card_number: string;
  matched_authorizations: string[];
  merchant: Merchant;
  network_transaction_id: string;
  posted_date: string | null;
  retrieval_ref: string;
  risk_details: { risk_actions_performed: string[]; risk_factors: string[]; three_dsecure_outcome: string | null };
  status: CardTransactionStatus;
  transaction_amount: number;
  transaction_currency: string;
  transaction_date: string;
  transaction_id: string;
  transaction_type: CardTransactionType;
}

export interface CardTransactionRecord {
  id: string;
  cardId: string;
  createdAt: number;
  transaction: CardTransaction;
}

/** A Create Card request_id and the card it made (idempotency separate from x-request-id). */
export interface CardRequestRecord {
  cardId: string;
  fingerprint: string;
}

/** The domain's collections in the store, fresh for each store. */
export function cardCollections() {
  return {
    cards: new Map<string, CardRecord>(),
    /** Keyed by Create Card's request_id. */
    cardRequests: new Map<string, CardRequestRecord>(),
    cardTransactions: new Map<string, CardTransactionRecord>(),
  };
}

declare module '../../store.ts' {
  interface SandboxCollections extends ReturnType<typeof cardCollections> {}
}
