import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_EVENT_DURABILITY, type EventDurability, type EventLogConfig, type RedisTarget } from '../settings/index.ts';
import type { Logger } from '../platform/logger.ts';
import {
  createSeenSet,
  LocalEvents,
  NO_BUS_OBSERVER,
  readCursor,
  type EventBus,
  type EventBusObserver,
  type PublishedEvent,
  type UnloggedReason,
} from './bus.ts';
import { compareStreamIds, encodeCursor } from './cursor.ts';
import { CursorExpiredError, EventLogUnavailableError } from './errors.ts';
import type { BankEvent } from './models.ts';
import { createRedisLink, withoutAddress } from './redis-link.ts';
import { createRedisStream, type StreamEntry } from './redis-stream.ts';

/**
 * The event bus over Redis, for several gateway instances. Written with ioredis directly rather than
 * Yoga's Redis event target: pub/sub forgets a message the moment it is sent, while catch-up needs a
 * retained, ordered log, which a Redis Stream is.
 *
 * - Accepting an occurrence is one atomic script: remember it (SET NX, a day) and append it to the
 *   stream (XADD, trimmed to EVENT_LOG_MAX_EVENTS); a repeat appends nothing. With
 *   REDIS_MIN_REPLICAS_ACK, WAIT then holds the answer until that many replicas have it: a failover
 *   to one of them keeps it. Only then is the event acknowledged (202, or 200 for a repeat).
 * - Redis away, too slow, or too few replicas in time: the event is not acknowledged (the intake
 *   answers 503 with Retry-After) and nothing is kept aside: the bank delivers it again, and
 *   whichever instance it reaches, the seen key tells a repeat from a new occurrence. No event lives
 *   only in one instance's memory, so neither a stop nor a failover can lose one that was answered.
 * - Each instance reads the stream (XREAD BLOCK) and hands every entry to its own subscribers, in
 *   stream order; entry ids are the cursors. An occurrence it already handed over (a redelivery
 *   appended again after a failover lost the first entry) is not handed over twice.
 * - Catch-up: a cursor this instance delivered resumes from its own log; any other from the stream,
 *   if the stream can prove it holds everything after it (redis-stream.ts), else CURSOR_EXPIRED.
 */

export interface RedisEventBusOptions {
  redis: RedisTarget;
  logger: Logger;
  limits: EventLogConfig;
  /** How many replicas must hold an event before it is acknowledged, and how long to wait for them. */
  durability?: EventDurability | undefined;
  observer?: EventBusObserver | undefined;
  /** Names the keys (`{prefix}:log`, ...): instances that share events share it. Default `bank-events`. */
  keyPrefix?: string | undefined;
  /**
   * Told of each event another instance accepted, as it reaches this one (the record cache drops
   * what it changed); the events this instance accepts its intake tells of, before their 202.
   */
  onRemoteEvent?: ((event: PublishedEvent) => void) | undefined;
}

const RETRY_PAUSE_MS = 250;
const HOUSEKEEPING_MS = 60_000;
/** Start-up never waits longer than this for Redis: without it the instance serves queries, and answers events 503. */
const READY_WAIT_MS = 3_000;

export function createRedisEventBus(options: RedisEventBusOptions): EventBus {
  const { logger, limits } = options;
  const { minReplicasAck, replicaAckTimeoutMs } = options.durability ?? DEFAULT_EVENT_DURABILITY;
  const observer = options.observer ?? NO_BUS_OBSERVER;
  const instance = randomBytes(6).toString('hex');
  const link = createRedisLink(options.redis, logger, minReplicasAck > 0 ? replicaAckTimeoutMs : 0);
  const stream = createRedisStream({
    commands: link.commands,
    reader: link.reader,
    keyPrefix: options.keyPrefix ?? 'bank-events',
    instance,
    limits,
    logger,
  });
  /** Occurrences this instance acknowledged: safe in the log, so a repeat needs no round trip. */
  const acknowledged = createSeenSet();
  const local = new LocalEvents(limits, Date.now);
  let closed = false;
  /** The last stream entry this instance read; null until it knows where the stream ends. */
  let lastRead: string | null = null;

  link.onChange((up) => observer.redis(up));

  // --- Accepting ------------------------------------------------------------------------------

  const unlogged = (reason: UnloggedReason, detail: string) => {
    observer.unlogged(reason);
    return { status: 'unavailable', reason: detail } as const;
  };

  /** Said once when replicas start falling short, once when they confirm again. */
  let short = false;
  const replicasShort = (now: boolean, held: number) => {
    if (now === short) return;
    short = now;
    if (now)
      logger.warn(
        { replicas: held, needed: minReplicasAck, timeoutMs: replicaAckTimeoutMs },
        'too few Redis replicas confirm bank events in time: they are answered 503 (the bank delivers them again)',
      );
    else logger.info({ needed: minReplicasAck }, 'Redis replicas confirm bank events again');
  };

  /** Into the stream, then on the replicas asked for; what the bank may be told. */
  async function log(event: BankEvent, occurrence: string) {
    let id: string | null;
    try {
      id = await stream.append({ ...event, receivedAt: new Date().toISOString(), occurrence }, occurrence);
      link.succeeded();
    } catch (error) {
      link.failed(error);
      return unlogged('log_unavailable', 'the shared event log (Redis) did not take it');
    }
    if (minReplicasAck > 0) {
      // A WAIT that falls short says nothing against the primary: the link stays up.
      const held = Math.max(await stream.replicasHold(minReplicasAck, replicaAckTimeoutMs).catch(() => 0), 0);
      replicasShort(held < minReplicasAck, held);
      if (held < minReplicasAck)
        return unlogged('replicas_short', `${held} of ${minReplicasAck} replicas confirmed it within ${replicaAckTimeoutMs} ms`);
    }
    acknowledged.set(occurrence, true);
    if (id === null) return { status: 'duplicate' } as const;
    observer.accepted();
    return { status: 'accepted', cursor: encodeCursor({ kind: 's', id }) } as const;
  }

  // --- Reading the stream ------------------------------------------------------------------------

  /** One stream entry to this instance's subscribers, unless they had it already (a redelivery appended again after a failover). */
  function receive(entry: StreamEntry): void {
    if (!entry.event || local.log.byOccurrence(entry.occurrence)) return;
    const published = { ...entry.event, cursor: encodeCursor({ kind: 's', id: entry.id }) };
    local.deliver(published, entry.id, entry.occurrence);
    if (entry.origin !== instance) options.onRemoteEvent?.(published);
  }

  /**
   * On (re)connecting: where reading goes on. The first time, after the stream's end; later, after
   * the last entry read, so entries other instances appended meanwhile are not missed, unless the
   * stream now ends before it: Redis lost its newest entries (restarted without persistence, or a
   * failover to a replica that had not received them), and reading starts over; what this instance
   * delivered already is not delivered twice.
   */
  async function resumePoint(): Promise<string> {
    const end = await stream.end();
    if (lastRead === null) return end;
    if (compareStreamIds(end, lastRead) >= 0) return lastRead;
    logger.warn(
      { lastRead, streamEnd: end },
      'the Redis event stream ends before the last entry read (a failover, or Redis restarted empty): reading it from its start',
    );
    return '0-0';
  }

  let started: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    started = resolve;
    setTimeout(resolve, READY_WAIT_MS).unref();
    link.onChange((up) => {
      if (!up) resolve();
    });
  });

  /**
   * Reads the stream for as long as the bus runs. Its failures are the reader's: they delay this
   * instance's subscribers, who get what was missed once it reads again, but never turn an event
   * away, so they leave the intake's verdict to the commands connection (redis-link.ts).
   */
  async function readLoop(): Promise<void> {
    let resume = true;
    while (!closed) {
      await link.connected();
      if (closed) return;
      try {
        if (link.readerReconnected() || resume || lastRead === null) {
          lastRead = await resumePoint();
          resume = false;
          if (!link.up) link.succeeded();
          started();
        }
        const entries = await stream.read(lastRead);
        link.readSucceeded();
        for (const entry of entries) {
          lastRead = entry.id;
          receive(entry);
        }
      } catch (error) {
        if (closed) return;
        link.readFailed(error);
        // Read again from where the stream stands then: it may be another primary's.
        resume = true;
        await sleep(RETRY_PAUSE_MS);
      }
    }
  }
  void readLoop();

  // --- Retention ---------------------------------------------------------------------------------

  const housekeeping = setInterval(() => {
    if (link.up) stream.trimByAge().catch((error: unknown) => link.failed(error));
  }, HOUSEKEEPING_MS);
  housekeeping.unref();

  return {
    async accept(event: BankEvent, occurrence: string) {
      // Tried even while the link is down: a command fails at once without a connection (no offline
      // queue), and one that succeeds is the quickest proof that Redis is back.
      return acknowledged.has(occurrence) ? { status: 'duplicate' } : log(event, occurrence);
    },

    async subscribe(subscribeOptions = {}) {
      const cursor = subscribeOptions.after == null ? null : readCursor(subscribeOptions.after);
      const fromLog = local.open(cursor, subscribeOptions);
      if (fromLog) return fromLog;
      if (!link.up) throw new EventLogUnavailableError('the shared event log (Redis) cannot be reached');
      // Live events arriving meanwhile wait aside; those the replay already holds are then skipped.
      const subscriber = local.fanout.open(subscribeOptions);
      subscriber.hold();
      try {
        const { events, through } = await stream.replayAfter(cursor!);
        subscriber.release(events, (entry) => compareStreamIds(entry.streamId, through) > 0);
        return subscriber;
      } catch (error) {
        void subscriber.return();
        if (error instanceof CursorExpiredError) throw error;
        link.failed(error);
        throw new EventLogUnavailableError('the shared event log (Redis) did not answer');
      }
    },

    activeSubscriptions: () => local.fanout.size,
    endSubscriptions: () => local.fanout.endAll(),
    ready,

    health() {
      // Not essential: queries and subscriptions go on while Redis is away; only bank events wait (503, redelivered).
      if (link.up) return { ok: true, essential: false, detail: 'Redis answers: events are shared with every instance' };
      const down = link.down;
      const since = down ? new Date(down.since).toISOString() : null;
      return {
        ok: false,
        essential: false,
        detail: `Redis is unreachable since ${since} (${withoutAddress(down?.reason ?? 'not connected')}): bank events are answered 503 until it answers, and resumed subscriptions need a cursor this instance delivered`,
        since,
      };
    },

    async close() {
      closed = true;
      clearInterval(housekeeping);
      await link.close();
    },
  };
}
