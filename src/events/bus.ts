import { LRUCache } from 'lru-cache';
import { entryBound } from '../platform/lru-bounds.ts';
import type { EventLogConfig } from '../settings/index.ts';
import { decodeCursor, encodeCursor, streamIdGenerator, type Cursor } from './cursor.ts';
import { CursorExpiredError, InvalidCursorError } from './errors.ts';
import { Fanout, type Delivery, type Subscriber, type SubscriptionOptions } from './fanout.ts';
import { EventLog, type LogEntry, type PublishedEvent } from './log.ts';
import type { BankEvent } from './models.ts';

/**
 * Where accepted bank events go. The bus decides whether a delivery is a new occurrence, logs it
 * with a cursor, and hands it to subscriptions, which may resume after a cursor. In one process
 * (this file) everything is in memory; with Redis (redis-bus.ts) the log is a Redis Stream shared by
 * every instance, so whichever instance the bank reaches, each occurrence is published once
 * everywhere, and a client may resume on any instance.
 */

export type { Delivery, PublishedEvent };

/**
 * `unavailable`: the event is not safe yet (the shared log cannot take it, or too few replicas
 * confirmed it), so it must not be acknowledged: the sender delivers it again later.
 */
type AcceptResult = { status: 'accepted'; cursor: string } | { status: 'duplicate' } | { status: 'unavailable'; reason: string };

/** A part of /readyz (see src/routes/health.ts): `detail` says what is wrong in words an operator can act on. */
interface BusHealth {
  ok: boolean;
  detail: string;
  [more: string]: unknown;
}

interface SubscribeOptions extends SubscriptionOptions {
  /** Resume after this cursor: the retained events after it first, in order, then live ones. */
  after?: string | null | undefined;
}

export interface EventBus {
  /**
   * Takes one delivered occurrence (`occurrence`: models.ts occurrenceKey). A duplicate is an
   * occurrence accepted before, within DEDUPE_RETENTION_MS. Resolves `accepted` or `duplicate` only
   * once the event is in the log for good (with Redis: in the stream, and on the replicas asked
   * for), `unavailable` when it is not; subscribers get it after that. Never rejects because of Redis.
   */
  accept(event: BankEvent, occurrence: string): Promise<AcceptResult>;
  /**
   * Every event published from now on, on any instance; with `after`, first the retained ones after
   * that cursor. Rejects with InvalidCursorError, CursorExpiredError or EventLogUnavailableError.
   */
  subscribe(options?: SubscribeOptions): Promise<AsyncIterableIterator<Delivery>>;
  /** How many subscriptions are open in this process (for health, metrics and tests). */
  activeSubscriptions(): number;
  /**
   * Ends every open subscription of this process as if its stream had finished: clients get a
   * proper completion (graphql-ws `complete`, the SSE `complete` event) instead of a cut connection.
   */
  endSubscriptions(): Promise<void>;
  /** Resolves once the bus can take events (Redis: connected and reading, or known to be away). */
  ready: Promise<void>;
  /** For /readyz: null when there is nothing outside the process to check (the memory bus). */
  health(): BusHealth | null;
  close(): Promise<void>;
}

/** Why an event was not acknowledged: the log could not take it, or too few replicas confirmed it in time. */
export type UnloggedReason = 'log_unavailable' | 'replicas_short';

/** What the bus reports as it works (metrics). Calls are synchronous; an observer must be cheap. */
export interface EventBusObserver {
  /** An occurrence accepted into the log. */
  accepted(): void;
  /** An occurrence not acknowledged (answered 503): the sender delivers it again. */
  unlogged(reason: UnloggedReason): void;
  /** Whether Redis answers. */
  redis(up: boolean): void;
}

export const NO_BUS_OBSERVER: EventBusObserver = { accepted: () => {}, unlogged: () => {}, redis: () => {} };

/** How long an occurrence is remembered: the bank's retries come well within a day. */
export const DEDUPE_RETENTION_MS = 24 * 60 * 60 * 1000;
const MAX_REMEMBERED = 100_000;

/** Occurrences seen lately, bounded by count and age. */
export function createSeenSet(): LRUCache<string, true> {
  return new LRUCache<string, true>({ ...entryBound(MAX_REMEMBERED), ttl: DEDUPE_RETENTION_MS, ttlAutopurge: false });
}

/** The cursor text given as `after`, read; InvalidCursorError when it is not one of ours. */
export function readCursor(after: string): Cursor {
  const cursor = decodeCursor(after);
  if (!cursor) throw new InvalidCursorError();
  return cursor;
}

/**
 * Events handed to subscriptions in one turn of the event loop, times the subscriptions. Sized
 * between two costs: the webhook intake's answers wait for at most one turn, so a longer turn
 * delays them, while several events a turn let a burst's frames to a socket leave in two writes.
 * The figures each way: docs/architecture.md, "Measured costs".
 */
export const DELIVERIES_PER_TURN = 5_000;

/**
 * This process's half of any bus: the log of what it delivered and its subscriptions. A subscription
 * resuming from a cursor this log holds is served from it synchronously, so nothing can slip between
 * the replay and the live events.
 */
export class LocalEvents {
  readonly log: EventLog;
  readonly fanout = new Fanout();

  /** Logged entries not yet handed to the subscriptions, oldest first. */
  #pending: LogEntry[] = [];

  readonly #deliveriesPerTurn: number;

  constructor(limits: EventLogConfig, now: () => number = Date.now, deliveriesPerTurn = DELIVERIES_PER_TURN) {
    this.log = new EventLog(limits, now);
    this.#deliveriesPerTurn = deliveriesPerTurn;
  }

  /** Logs an event and hands it to the subscriptions on a later turn: the caller answers the bank first. */
  deliver(event: PublishedEvent, streamId: string, occurrence: string): LogEntry {
    const entry = this.log.append(event, streamId, occurrence);
    if (this.#pending.push(entry) === 1) setImmediate(this.#fanOutSome);
    return entry;
  }

  /**
   * As many entries per turn of the event loop as make about DELIVERIES_PER_TURN deliveries (one at
   * least): a thousand subscribers take five events per turn, five thousand one. Handing an event
   * to a thousand subscribers takes milliseconds; a whole burst handed over in one turn kept the
   * loop from reading its sockets for seconds, so the bank's deliveries behind it waited that long
   * for their answer (and Redis's replies for their timeout). Between two turns the loop takes its
   * I/O. Several events per turn let each subscriber's frames of the turn leave in two writes, the
   * first at once and the rest together (transport/ws-sends.ts): writes are most of a burst's cost.
   */
  readonly #fanOutSome = (): void => {
    const perTurn = Math.max(1, Math.floor(this.#deliveriesPerTurn / Math.max(1, this.fanout.size)));
    const entries = this.#pending.splice(0, perTurn);
    if (this.#pending.length > 0) setImmediate(this.#fanOutSome);
    for (const entry of entries) this.fanout.deliver(entry);
  };

  /** A subscription, resumed after `cursor` from this log; null when the log does not hold the cursor. */
  open(cursor: Cursor | null, options: SubscriptionOptions): Subscriber | null {
    if (!cursor) return this.fanout.open(options);
    const position = this.log.after(cursor);
    if ('unknown' in position) return null;
    const subscriber = this.fanout.open(options);
    const lastSeq = position.entries.at(-1)?.seq ?? this.log.lastSeq();
    subscriber.release(
      position.entries.map((entry) => entry.event),
      (entry) => entry.seq > lastSeq,
    );
    return subscriber;
  }

  oldestCursor(): string | null {
    return this.log.oldest()?.event.cursor ?? null;
  }
}

export interface MemoryEventBusOptions {
  limits: EventLogConfig;
  observer?: EventBusObserver | undefined;
  now?: () => number;
}

export function createMemoryEventBus(options: MemoryEventBusOptions): EventBus {
  const { limits, now = Date.now } = options;
  const observer = options.observer ?? NO_BUS_OBSERVER;
  const seen = createSeenSet();
  // Every event of this bus is one its own intake accepted, and the intake tells the record cache of it.
  const local = new LocalEvents(limits, now);
  const nextId = streamIdGenerator(now);
  return {
    async accept(event, occurrence) {
      if (seen.has(occurrence)) return { status: 'duplicate' };
      seen.set(occurrence, true);
      const streamId = nextId();
      const published: PublishedEvent = {
        ...event,
        occurrence,
        cursor: encodeCursor({ kind: 's', id: streamId }),
        receivedAt: new Date(now()).toISOString(),
      };
      local.deliver(published, streamId, occurrence);
      observer.accepted();
      return { status: 'accepted', cursor: published.cursor };
    },
    async subscribe(options = {}) {
      const cursor = options.after == null ? null : readCursor(options.after);
      const subscriber = local.open(cursor, options);
      // Only this process ever held the log: a cursor it does not hold is gone (or from a previous run).
      if (!subscriber) throw new CursorExpiredError(local.oldestCursor());
      return subscriber;
    },
    activeSubscriptions: () => local.fanout.size,
    endSubscriptions: () => local.fanout.endAll(),
    ready: Promise.resolve(),
    health: () => null,
    close: async () => {},
  };
}
