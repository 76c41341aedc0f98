import { createRandom, type Random } from './random.ts';
import { createEventBus, type EventBus } from './events/bus.ts';
import type { Balance, BalanceHistoryRecord } from './ledger-records.ts';
import type { ScheduledJob, SentEmail } from './records.ts';
import type { SandboxServices } from './services.ts';

/**
 * The collections of the state: plain in-memory maps. The core's own are here; each domain adds
 * its own by declaration merging, from the factory its Domain's `collections` returns:
 *
 *   declare module '../../store.ts' { interface SandboxCollections extends ReturnType<typeof cardCollections> {} }
 *
 * so the core names no domain's records and a new domain edits nothing here.
 */
export interface SandboxCollections {
  /** The sandbox's outbox (GET /sandbox/emails). */
  emails: Map<string, SentEmail>;
  /** Time-driven work not yet done, keyed by kind and subject (scheduler.ts). */
  jobs: Map<string, ScheduledJob>;
  /** The ledger's (ledger.ts): one balance per currency for the user, keyed by currency. */
  balances: Map<string, Balance>;
  /** The ledger's: every settled movement of a balance. */
  balanceHistory: Map<string, BalanceHistoryRecord>;
}

/**
 * The record type of a collection, whichever domain brought it: how a domain names another's
 * records (a card's cardholder) through the core, without importing that domain.
 */
export type RecordOf<K extends keyof SandboxCollections> = SandboxCollections[K] extends Map<unknown, infer R> ? R : never;

/** A domain's collections, fresh for each store (several sandboxes may run in one process). */
export type CollectionFactory = () => Record<string, Map<unknown, unknown>>;

/** The sandbox's state: every collection, the event bus and the seeded generator of ids. */
export interface SandboxStore extends SandboxCollections {
  /** What the domains publish for one another (services.ts). */
  services: SandboxServices;
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

/**
 * A store holding the core's collections and those of `collections` (the domains' factories).
 * `events` defaults to a bus that keeps events and tells no one (for stores used on their own).
 */
export function createStore(
  collections: readonly CollectionFactory[],
  seed: ((store: SandboxStore) => void) | null,
  events: EventBus = createEventBus('', () => {}),
  // A store on its own (a unit test) may run without the domains' services.
  services: SandboxServices = {} as SandboxServices,
): SandboxStore {
  // The maps are what the domains' declarations say they are: each comes from the factory its type is read from.
  const store = Object.assign(
    { emails: new Map(), jobs: new Map(), balances: new Map(), balanceHistory: new Map() },
    ...collections.map((factory) => factory()),
  ) as SandboxStore;
  const core: Omit<SandboxStore, keyof SandboxCollections> = {
    services,
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
  Object.assign(store, core);
  store.reset();
  return store;
}
