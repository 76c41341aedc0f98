import { createRandom, type Random } from './random.ts';
import type { ScheduledJob } from './scheduler.ts';
import type {
  AccountRecord,
  Balance,
  BalanceHistoryRecord,
  TransactionRecord,
} from './domains/accounts/types.ts';
import type { BeneficiaryRecord } from './domains/beneficiaries/types.ts';
import type { CardholderRecord } from './domains/cardholders/types.ts';
import type { CardRecord, CardRequestRecord, CardTransactionRecord } from './domains/cards/types.ts';
import type { DirectDebitRecord, GlobalAccountRecord, MandateRecord } from './domains/direct-debit/types.ts';
import type { ConversionRecord, QuoteRecord } from './domains/fx/types.ts';
import type { KycRecord } from './domains/kyc/types.ts';
import type { AccountRfiRecord, UserProfile } from './domains/onboarding/types.ts';
import type { PayoutRecord } from './domains/payouts/types.ts';
import type { WalletHistoryRecord, WalletRecord } from './domains/wallets/types.ts';
import type { SubscriptionRecord } from './domains/webhooks/types.ts';
import { createEventBus, type EventBus } from './events/bus.ts';
import type { SentEmail } from './outbox.ts';

/**
 * The sandbox's state: plain in-memory maps, one per collection. A later domain adds its
 * own Map-valued fields here and to createStore; reset() clears every Map it finds, so
 * nothing else has to change.
 */
export interface SandboxStore {
  accounts: Map<string, AccountRecord>;
  /** Keyed by currency: the contract has one balance per currency for the user. */
  balances: Map<string, Balance>;
  transactions: Map<string, TransactionRecord>;
  balanceHistory: Map<string, BalanceHistoryRecord>;
  beneficiaries: Map<string, BeneficiaryRecord>;
  payouts: Map<string, PayoutRecord>;
  quotes: Map<string, QuoteRecord>;
  conversions: Map<string, ConversionRecord>;
  cardholders: Map<string, CardholderRecord>;
  /** Keyed by cardholder id: one KYC record per cardholder. */
  kyc: Map<string, KycRecord>;
  cards: Map<string, CardRecord>;
  /** Keyed by Create Card's request_id. */
  cardRequests: Map<string, CardRequestRecord>;
  cardTransactions: Map<string, CardTransactionRecord>;
  wallets: Map<string, WalletRecord>;
  walletHistory: Map<string, WalletHistoryRecord>;
  /** The sandbox's outbox (GET /sandbox/emails). */
  emails: Map<string, SentEmail>;
  /** The business's profile (one entry, keyed `profile`). */
  userProfile: Map<'profile', UserProfile>;
  accountRfis: Map<string, AccountRfiRecord>;
  /** Time-driven work not yet done, keyed by kind and subject (scheduler.ts). */
  jobs: Map<string, ScheduledJob>;
  /** Document 3's webhook subscriptions, keyed by their identity (domains/webhooks). */
  webhookSubscriptions: Map<string, SubscriptionRecord>;
  /** Document 3's global accounts with their direct debit capability (domains/direct-debit). */
  globalAccounts: Map<string, GlobalAccountRecord>;
  mandates: Map<string, MandateRecord>;
  /** Keyed by transaction_id. */
  directDebits: Map<string, DirectDebitRecord>;
  /**
   * Where every state change is reported as an event (events/). Here, beside the state, so
   * scheduled jobs, which get only the store, emit like handlers do. Reset empties its log.
   */
  events: EventBus;
  /**
   * Seeded generator for ids and numbers of records created at run time, so the same
   * sequence of calls after a reset yields the same ids.
   */
  random: Random;
  /** `<prefix>_<16 hex>`, from `random`. */
  newId(prefix: string): string;
  /** `<PREFIX><10 digits>`, from `random`, that `taken` does not know yet. */
  newReference(prefix: string, taken: (candidate: string) => boolean): string;
  /** Empties every collection and, when seeding is on, loads the demo data again. */
  reset(): void;
}

const RUNTIME_SEED = 0x5eed_2026;

/** `events` defaults to a bus that keeps events and tells no one (for stores used on their own). */
export function createStore(seed: ((store: SandboxStore) => void) | null, events: EventBus = createEventBus('', () => {})): SandboxStore {
  const store: SandboxStore = {
    accounts: new Map(),
    balances: new Map(),
    transactions: new Map(),
    balanceHistory: new Map(),
    beneficiaries: new Map(),
    payouts: new Map(),
    quotes: new Map(),
    conversions: new Map(),
    cardholders: new Map(),
    kyc: new Map(),
    cards: new Map(),
    cardRequests: new Map(),
    cardTransactions: new Map(),
    wallets: new Map(),
    walletHistory: new Map(),
    emails: new Map(),
    userProfile: new Map(),
    accountRfis: new Map(),
    jobs: new Map(),
    webhookSubscriptions: new Map(),
    globalAccounts: new Map(),
    mandates: new Map(),
    directDebits: new Map(),
    events,
    random: createRandom(RUNTIME_SEED),
    newId: (prefix) => `${prefix}_${store.random.hex(16)}`,
    newReference(prefix, taken) {
      for (;;) {
        const candidate = `${prefix}${store.random.digits(10)}`;
        if (!taken(candidate)) return candidate;
      }
    },
    reset() {
      // Cleared in place, so references held by callers (sandbox.store.accounts) stay live.
      for (const value of Object.values(store)) {
        if (value instanceof Map) value.clear();
      }
      store.events.clear();
      store.random = createRandom(RUNTIME_SEED);
      seed?.(store);
    },
  };
  store.reset();
  return store;
}
