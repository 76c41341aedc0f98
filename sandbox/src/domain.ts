import type { WebhookEvent } from './events/bus.ts';
import type { EventName } from './events/catalogue.ts';
import type { EventDefault } from './events/defaults.ts';
import type { Route } from './routes.ts';
import type { DomainParts, Runtime } from './runtime.ts';
import { createScheduler, type JobHandler } from './scheduler.ts';
import type { SandboxServices } from './services.ts';
import type { CollectionFactory, SandboxStore } from './store.ts';

/**
 * A slice of the contract, as it registers with the core: its routes, its collections, its demo
 * data and the work it schedules. A new domain is a folder under domains/ exporting one of these,
 * listed in domains/index.ts (which also sets the seeding order); the core changes nothing.
 */
export interface Domain {
  name: string;
  routes: readonly Route[];
  /** The domain's own routes under /sandbox/ (built with control.ts's controlRoute). */
  controlRoutes?: readonly Route[];
  /** Its collections in the store (see store.ts for how their types reach SandboxStore). */
  collections?: CollectionFactory;
  /** What it offers the other domains through the core (see services.ts). */
  services?: Partial<SandboxServices>;
  /** Loads deterministic demo data dated relative to `now` (sandbox clock, epoch ms). */
  seed?(store: SandboxStore, now: number): void;
  /** Handlers of the scheduled jobs this domain creates, by job kind (see scheduler.ts). */
  jobs?: Readonly<Record<string, JobHandler>>;
  /** Told of every event emitted, at its instant (the webhooks domain delivers them to subscribers). */
  onEvent?(runtime: Runtime, event: WebhookEvent, at: number): void;
  /** What POST /sandbox/events sends for each of the domain's events when the caller gives no data or id. */
  eventDefaults?: { readonly [N in EventName]?: EventDefault };
}

/** What the runtime takes of the domains, in their order: the core never sees a Domain itself. */
export function runtimePartsOf(domains: readonly Domain[]): DomainParts {
  const jobs = new Map(domains.flatMap((domain) => Object.entries(domain.jobs ?? {})));
  return {
    collections: domains.flatMap((domain) => (domain.collections ? [domain.collections] : [])),
    // Complete for the domain list of domains/index.ts, which checks it at compile time.
    services: Object.assign({}, ...domains.map((domain) => domain.services ?? {})) as SandboxServices,
    jobs,
    seed: (store, now) => seedDemoData(store, now, domains, jobs),
    onEvent: (runtime, event, at) => {
      for (const domain of domains) domain.onEvent?.(runtime, event, at);
    },
    eventDefault: (name) =>
      domains.map((domain) => domain.eventDefaults?.[name]).find((candidate) => candidate !== undefined) ??
        // Every catalogue event has one (sandbox/test/domains.test.ts); a bare id is the fallback of a domain set without it.
        { idPrefix: 'evt', data: ({ id }) => ({ id }) },
  };
}

/**
 * Deterministic demo data of every domain, in the domains' order, dated relative to `now` (epoch
 * ms). Seeds arrange past activity the way clients would (a conversion opened yesterday); the work
 * that has come due by `now` then runs, so the data starts settled and the ledger wrote it. It runs
 * after each domain's seed, so a later domain posting to the ledger (a card load yesterday
 * evening) finds the earlier domains' movements already written and the running balances stay in
 * time order. The seed is the past: nobody was subscribed, so it emits no events.
 */
function seedDemoData(store: SandboxStore, now: number, domains: readonly Domain[], jobs: ReadonlyMap<string, JobHandler>): void {
  const scheduler = createScheduler(() => store, jobs);
  store.events.quietly(() => {
    for (const domain of domains) {
      domain.seed?.(store, now);
      scheduler.runDue(now);
    }
  });
}
