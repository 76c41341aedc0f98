import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EventLogConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import {
  createSeenSet,
  LocalEvents,
  NO_BUS_OBSERVER,
  readCursor,
  type EventBus,
  type EventBusObserver,
  type PublishedEvent,
} from './bus.ts';
import { compareStreamIds, encodeCursor } from './cursor.ts';
import { CursorExpiredError, EventLogUnavailableError } from './errors.ts';
import type { AcceptedEvent } from './log.ts';
import type { BankEvent } from './models.ts';
import { createRedisLink, withoutAddress } from './redis-link.ts';
import { createRedisStream, type StreamEntry } from './redis-stream.ts';

/**
 * The event bus over Redis, for several gateway instances. Written with ioredis directly rather than
 * Yoga's Redis event target: pub/sub forgets a message the moment it is sent, while catch-up needs a
 * retained, ordered log, which a Redis Stream is.
 *
 * - Accepting an occurrence is one atomic script: remember it (SET NX, a day) and append it to the
 *   stream (XADD, trimmed to EVENT_LOG_MAX_EVENTS); a repeat appends nothing.
 * - Each instance reads the stream (XREAD BLOCK) and hands every entry to its own subscribers, in
 *   stream order; entry ids are the cursors.
 * - Redis away (down at start, lost later, or too slow to answer): an occurrence is remembered in
 *   memory, given a provisional cursor, handed to this instance's subscribers at once and buffered
 *   (at most EVENT_LOG_MAX_EVENTS; beyond, the oldest is dropped, logged and counted). When Redis
 *   answers again the buffer is appended to the stream in order, each entry naming its provisional
 *   cursor, so the other instances get the events and either cursor resumes after them.
 * - Catch-up: a cursor this instance delivered resumes from its own log; any other from the stream,
 *   if everything after it is still there.
 */

export interface RedisEventBusOptions {
  url: string;
  logger: Logger;
  limits: EventLogConfig;
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
/** Start-up never waits longer than this for Redis: without it the instance serves its own subscribers. */
const READY_WAIT_MS = 3_000;

/** What travels in a stream entry's `e` field: the event as accepted, without its cursor (the entry id is). */
type LoggedEvent = AcceptedEvent;

interface Buffered {
  event: LoggedEvent;
  occurrence: string;
  provisionalId: string;
}

export function createRedisEventBus(options: RedisEventBusOptions): EventBus {
  const { logger, limits } = options;
  const observer = options.observer ?? NO_BUS_OBSERVER;
  const instance = randomBytes(6).toString('hex');
  const link = createRedisLink(options.url, logger);
  const stream = createRedisStream({ commands: link.commands, reader: link.reader, keyPrefix: options.keyPrefix ?? 'bank-events', instance, limits, logger });
  const seen = createSeenSet();
  const local = new LocalEvents(limits, Date.now);
  let buffer: Buffered[] = [];
  let provisionalSeq = 0;
  let closed = false;
  /** The last stream entry this instance read; null until it knows where the stream ends. */
  let lastRead: string | null = null;

  // --- Accepting ------------------------------------------------------------------------------

  /** Redis away: this instance's subscribers get the event now, the other instances once it is back. */
  function acceptLocally(event: LoggedEvent, occurrence: string): string {
    const provisionalId = `${instance}:${++provisionalSeq}`;
    const published: PublishedEvent = { ...event, cursor: encodeCursor({ kind: 'p', id: provisionalId }) };
    local.deliver(published, { streamId: null, provisionalId }, occurrence);
    buffer.push({ event, occurrence, provisionalId });
    if (buffer.length > limits.maxEvents) {
      const dropped = buffer.splice(0, buffer.length - limits.maxEvents);
      observer.dropped(dropped.length);
      logger.error(
        { dropped: dropped.length, eventIds: dropped.map((b) => b.event.id).slice(0, 20) },
        'Redis has been away too long: the oldest buffered events will not reach the other instances',
      );
    }
    observer.buffered(buffer.length);
    observer.accepted('local');
    return published.cursor;
  }

  /** Appends the buffer to the stream in order, while Redis answers; one run at a time. */
  let flushing = false;
  async function flush(): Promise<void> {
    if (flushing) return;
    flushing = true;
    let flushed = 0;
    try {
      while (buffer.length > 0 && link.up && !closed) {
        const item = buffer[0]!;
        await stream.append(item.event, item.occurrence, item.provisionalId);
        buffer.shift();
        flushed += 1;
      }
    } catch (error) {
      link.failed(error);
    } finally {
      flushing = false;
      observer.buffered(buffer.length);
      if (flushed > 0) {
        observer.flushed(flushed);
        logger.info({ flushed, left: buffer.length }, 'events accepted while Redis was away are now published to the other instances');
      }
    }
  }
  link.onChange((up) => {
    observer.redis(up);
    if (up) void flush();
  });

  // --- Reading the stream ------------------------------------------------------------------------

  /** One stream entry to this instance's subscribers, unless they had it already (delivered here while Redis was away). */
  function receive(entry: StreamEntry): void {
    const mine = local.log.byOccurrence(entry.occurrence);
    if (mine) {
      if (!mine.streamId) local.log.assignStreamId(mine, entry.id);
      return;
    }
    if (!entry.event) return;
    seen.set(entry.occurrence, true);
    const published = { ...entry.event, cursor: encodeCursor({ kind: 's', id: entry.id }) };
    local.deliver(published, { streamId: entry.id, provisionalId: entry.provisionalId }, entry.occurrence);
    if (entry.origin !== instance) options.onRemoteEvent?.(published);
  }

  /**
   * On (re)connecting: where reading goes on. The first time, after the stream's end; later, after
   * the last entry read, so entries other instances appended meanwhile are not missed, unless the
   * stream now ends before it: Redis lost it (restarted without persistence), and reading starts over.
   */
  async function resumePoint(): Promise<string> {
    const end = await stream.end();
    if (lastRead === null) return end;
    if (compareStreamIds(end, lastRead) >= 0) return lastRead;
    logger.warn({ lastRead, streamEnd: end }, 'the Redis event stream is shorter than before (Redis lost its data?): reading it from its start');
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

  async function readLoop(): Promise<void> {
    while (!closed) {
      await link.connected();
      if (closed) return;
      try {
        if (!link.up || lastRead === null) {
          lastRead = await resumePoint();
          link.succeeded();
          started();
        }
        const entries = await stream.read(lastRead);
        link.succeeded();
        for (const entry of entries) {
          lastRead = entry.id;
          receive(entry);
        }
      } catch (error) {
        if (closed) return;
        link.failed(error);
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
      if (seen.has(occurrence) || local.log.byOccurrence(occurrence)) return { status: 'duplicate' };
      const logged: LoggedEvent = { ...event, receivedAt: new Date().toISOString() };
      // While older events wait in the buffer, newer ones queue behind them: the stream keeps their order.
      if (link.up && buffer.length === 0) {
        try {
          const id = await stream.append(logged, occurrence);
          seen.set(occurrence, true);
          if (id === null) return { status: 'duplicate' };
          observer.accepted('shared');
          return { status: 'accepted', cursor: encodeCursor({ kind: 's', id }) };
        } catch (error) {
          link.failed(error);
        }
      }
      seen.set(occurrence, true);
      const cursor = acceptLocally(logged, occurrence);
      if (link.up) void flush();
      return { status: 'accepted', cursor };
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
        subscriber.release(events, (entry) => !entry.streamId || compareStreamIds(entry.streamId, through) > 0);
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
      if (link.up) return { ok: true, detail: 'Redis answers: events are shared with every instance', buffered: buffer.length };
      const down = link.down;
      const since = down ? new Date(down.since).toISOString() : null;
      return {
        ok: false,
        detail: `Redis is unreachable since ${since} (${withoutAddress(down?.reason ?? 'not connected')}): events reach this instance's subscribers only; ${buffer.length} wait to be published to the other instances`,
        buffered: buffer.length,
        since,
      };
    },

    async close() {
      closed = true;
      clearInterval(housekeeping);
      if (buffer.length > 0) {
        // Nothing is lost silently: these reached this instance's subscribers, and no other instance will get them.
        logger.error(
          { lost: buffer.length, eventIds: buffer.map((b) => b.event.id).slice(0, 20) },
          'stopping while Redis is away: events accepted meanwhile never reached the other instances',
        );
      }
      await link.close();
    },
  };
}
