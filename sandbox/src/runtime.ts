import { createClock, type SandboxClock } from './clock.ts';
import type { SandboxLogger } from './logger.ts';
import type { SandboxCredentials } from './credentials.ts';
import type { SandboxServices } from './services.ts';
import { createCapacity, type Capacity } from './capacity.ts';
import { createFaultQueue, type FaultQueue } from './faults.ts';
import { createEventBus, type WebhookEvent } from './events/bus.ts';
import type { EventName } from './events/catalogue.ts';
import type { EventDefault } from './events/defaults.ts';
import { createDeliveryQueue, DEFAULT_DELIVERY_TIMEOUT_MS, DEFAULT_RETRY_DELAYS_MS, type DeliveryQueue } from './events/delivery.ts';
import { createIdempotencyCache, type IdempotencyCache } from './idempotency.ts';
import { createProgramSetting, type Program, type ProgramSetting } from './program.ts';
import { createRequestLog, type RequestLog } from './request-log.ts';
import { createScheduler, schedulingClock, type JobHandler, type Scheduler } from './scheduler.ts';
import { createStore, type CollectionFactory, type SandboxStore } from './store.ts';
import { createTokenService, type TokenService } from './tokens.ts';

/** What the domains bring to the runtime, assembled from the domain list by domain.ts (runtimePartsOf). */
export interface DomainParts {
  collections: readonly CollectionFactory[];
  services: SandboxServices;
  jobs: ReadonlyMap<string, JobHandler>;
  /** Loads the demo data into a fresh store, domain by domain. */
  seed(store: SandboxStore, now: number): void;
  /** Tells the domains of an event, in their order. */
  onEvent(runtime: Runtime, event: WebhookEvent, at: number): void;
  eventDefault(name: EventName): EventDefault;
}

export interface RuntimeOptions {
  /** What the domains bring (domain.ts, runtimePartsOf; none for the core on its own). */
  domains: DomainParts;
  credentials: SandboxCredentials;
  tokenTtlSeconds: number;
  latencyMs: number;
  seed: boolean;
  logger: SandboxLogger;
  /** Default CARDS. */
  program?: Program;
  /** How events reach `w` subscriptions (events/delivery.ts): unsigned, 4 attempts, 5 s each by default. */
  webhooks?: { signingSecret?: string | null; retryDelaysMs?: readonly number[]; timeoutMs?: number };
}

/** Time from each API call's arrival to its answer: the configured default unless overridden at run time. */
interface Latency {
  current(): number;
  override(ms: number | null): void;
}

/** Everything a request needs, shared by the pipeline, the handlers and the control API. */
export interface Runtime {
  /** The default data of an event sent through POST /sandbox/events, from the domain that owns it. */
  eventDefault(name: EventName): EventDefault;
  credentials: SandboxCredentials;
  /** Reading or advancing it first runs the scheduled work that has come due. */
  clock: SandboxClock;
  store: SandboxStore;
  /** Handlers that create work due at once (a payout for today) run it through this. */
  scheduler: Scheduler;
  tokens: TokenService;
  idempotency: IdempotencyCache;
  faults: FaultQueue;
  /** The calls worked on at once, and what happens past that (PUT /sandbox/capacity). */
  capacity: Capacity;
  requestLog: RequestLog;
  latency: Latency;
  /** The card program in force (program.ts); PUT /sandbox/program changes it. */
  program: ProgramSetting;
  /** Webhook deliveries under way and the log of their attempts; events come from store.events. */
  deliveries: DeliveryQueue;
  logger: SandboxLogger;
  /** Aborted on shutdown; every pending wait (latency, stall) listens to it. */
  closing: AbortSignal;
  /** Back to the starting state: see POST /sandbox/reset. */
  reset(): void;
  /** Told after every reset, however it was asked for. */
  onReset(listener: () => void): () => void;
  /** The control API changed the state behind the API's back (a reset, the clock, a deposit...): tells onControlChange's listeners. */
  controlChanged(): void;
  /** Told after every change made through the control API (an embedded gateway drops what it cached). */
  onControlChange(listener: () => void): () => void;
  shutdown(): void;
}

export function createRuntime(options: RuntimeOptions): Runtime {
  const baseClock = createClock();
  const { domains } = options;
  const scheduler = createScheduler(() => runtime.store, domains.jobs);
  const clock = schedulingClock(baseClock, scheduler);
  const shutdown = new AbortController();
  let latencyOverride: number | null = null;
  const resetListeners = new Set<() => void>();
  const controlListeners = new Set<() => void>();
  const events = createEventBus(options.credentials.userId, (event, at) => {
    domains.onEvent(runtime, event, at);
  });
  const runtime: Runtime = {
    eventDefault: domains.eventDefault,
    credentials: options.credentials,
    clock,
    // Seeded from the clock's current day, so the demo history always ends yesterday. The
    // base clock: the seed runs while the store is being built, before any job may run.
    store: createStore(
      domains.collections,
      options.seed ? (store) => domains.seed(store, baseClock.now().getTime()) : null,
      events,
      domains.services,
    ),
    scheduler,
    tokens: createTokenService(clock, options.tokenTtlSeconds),
    idempotency: createIdempotencyCache(),
    faults: createFaultQueue(),
    capacity: createCapacity(),
    requestLog: createRequestLog(),
    latency: {
      current: () => latencyOverride ?? options.latencyMs,
      override: (ms) => {
        latencyOverride = ms;
      },
    },
    program: createProgramSetting(options.program ?? 'CARDS'),
    deliveries: createDeliveryQueue({
      signingSecret: options.webhooks?.signingSecret ?? null,
      retryDelaysMs: options.webhooks?.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
      timeoutMs: options.webhooks?.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS,
      logger: options.logger,
    }),
    logger: options.logger,
    closing: shutdown.signal,
    reset() {
      // The clock first: the reseeded data is dated relative to it.
      clock.reset();
      runtime.store.reset();
      // Pending deliveries belong to the state just dropped.
      runtime.deliveries.reset();
      runtime.tokens.revokeAll();
      runtime.idempotency.clear();
      runtime.faults.clear();
      runtime.capacity.reset();
      runtime.requestLog.clear();
      latencyOverride = null;
      runtime.program.reset();
      for (const listener of resetListeners) listener();
    },
    onReset(listener) {
      resetListeners.add(listener);
      return () => resetListeners.delete(listener);
    },
    controlChanged() {
      for (const listener of controlListeners) listener();
    },
    onControlChange(listener) {
      controlListeners.add(listener);
      return () => controlListeners.delete(listener);
    },
    shutdown: () => shutdown.abort(),
  };
  return runtime;
}
