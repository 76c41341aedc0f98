import type { WebhookEvent } from './events/bus.ts';
import type { EventName } from './events/catalogue.ts';
import type { Route } from './routes.ts';
import type { Runtime } from './runtime.ts';
import type { JobHandler } from './scheduler.ts';
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

/** The record an event sent through the control API is about, and when. */
export interface EventSubject {
  store: SandboxStore;
  id: string;
  at: number;
}

/** The default of one event: built from the record the id names where the sandbox holds it, plausible demo values otherwise. */
export interface EventDefault {
  /** The prefix of a made-up resource id (`cnv_…`), or `user` for events about the user (its id). */
  idPrefix: string;
  data(subject: EventSubject): object;
}
