import { randomBytes } from 'node:crypto';
import type { EventLogConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import {
  createSeenSet,
  DEDUPE_RETENTION_MS,
  LocalEvents,
  NO_BUS_OBSERVER,
  readCursor,
  type EventBus,
  type EventBusObserver,
  type PublishedEvent,
} from './bus.ts';
import { compareStreamIds, encodeCursor, type Cursor } from './cursor.ts';
import { CursorExpiredError, EventLogUnavailableError } from './errors.ts';
import type { AcceptedEvent } from './log.ts';
import type { BankEvent } from './models.ts';
import { createRedisLink, READ_BLOCK_MS } from './redis-link.ts';

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
}

/**
 * KEYS: seen, stream, alias. ARGV: seen ttl, max length, event, origin, occurrence, provisional id
 * ('' if none), alias ttl. Entries over the count are removed with XDEL rather than XADD's MAXLEN:
 * only XDEL moves the stream's max-deleted-entry-id, which tells whether a cursor's successors are
 * all still there.
 */
const ACCEPT_SCRIPT = `
if not redis.call('SET', KEYS[1], '1', 'PX', ARGV[1], 'NX') then return false end
local fields = {'e', ARGV[3], 'o', ARGV[4], 'k', ARGV[5]}
if ARGV[6] ~= '' then table.insert(fields, 'p'); table.insert(fields, ARGV[6]) end
local id = redis.call('XADD', KEYS[2], '*', unpack(fields))
if ARGV[6] ~= '' then redis.call('SET', KEYS[3], id, 'PX', ARGV[7]) end
local excess = redis.call('XLEN', KEYS[2]) - tonumber(ARGV[2])
if excess > 0 then
  for _, entry in ipairs(redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', excess)) do redis.call('XDEL', KEYS[2], entry[1]) end
end
return id
`;

/** KEYS: stream. ARGV: the oldest id to keep. Removes up to 1000 older entries; returns how many. */
const TRIM_BY_AGE_SCRIPT = `
local old = redis.call('XRANGE', KEYS[1], '-', '(' .. ARGV[1], 'COUNT', 1000)
for _, entry in ipairs(old) do redis.call('XDEL', KEYS[1], entry[1]) end
return #old
`;

const READ_COUNT = 1_000;
const RETRY_PAUSE_MS = 250;
const HOUSEKEEPING_MS = 60_000;
/** Start-up never waits longer than this for Redis: without it the instance serves its own subscribers. */
const READY_WAIT_MS = 3_000;

type AcceptScript = (seen: string, stream: string, alias: string, ...args: (string | number)[]) => Promise<string | null>;

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
  const prefix = `{${options.keyPrefix ?? 'bank-events'}}`;
  const keys = {
    stream: `${prefix}:log`,
    seen: (occurrence: string) => `${prefix}:seen:${occurrence}`,
    alias: (provisionalId: string) => `${prefix}:alias:${provisionalId}`,
  };
  const instance = randomBytes(6).toString('hex');
  const link = createRedisLink(options.url, logger);
  const { commands, reader } = link;
  commands.defineCommand('bankEventAccept', { numberOfKeys: 3, lua: ACCEPT_SCRIPT });
  commands.defineCommand('bankEventTrimByAge', { numberOfKeys: 1, lua: TRIM_BY_AGE_SCRIPT });
  const scripts = commands as unknown as { bankEventAccept: AcceptScript; bankEventTrimByAge: (stream: string, keepFrom: string) => Promise<number> };
  const seen = createSeenSet();
  const local = new LocalEvents(limits);
  let buffer: Buffered[] = [];
  let provisionalSeq = 0;
  let closed = false;
  /** The last stream entry this instance read; null until it knows where the stream ends. */
  let lastRead: string | null = null;

  const append = (event: LoggedEvent, occurrence: string, provisionalId = '') =>
    scripts.bankEventAccept(
      keys.seen(occurrence),
      keys.stream,
      keys.alias(provisionalId || 'none'),
      DEDUPE_RETENTION_MS,
      limits.maxEvents,
      JSON.stringify(event),
      instance,
      occurrence,
      provisionalId,
      limits.maxAgeMs,
    );

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
        await append(item.event, item.occurrence, item.provisionalId);
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

  function fieldsOf(raw: string[]): Record<string, string> {
    const fields: Record<string, string> = {};
    for (let i = 0; i + 1 < raw.length; i += 2) fields[raw[i]!] = raw[i + 1]!;
    return fields;
  }

  /** One stream entry to this instance's subscribers, unless they had it already (delivered here while Redis was away). */
  function receive(id: string, raw: string[]): void {
    const fields = fieldsOf(raw);
    const occurrence = fields.k ?? `entry:${id}`;
    const mine = local.log.byOccurrence(occurrence);
    if (mine) {
      if (!mine.streamId) local.log.assignStreamId(mine, id);
      return;
    }
    const event = parseLogged(id, fields.e);
    if (!event) return;
    seen.set(occurrence, true);
    local.deliver({ ...event, cursor: encodeCursor({ kind: 's', id }) }, { streamId: id, provisionalId: fields.p ?? null }, occurrence);
  }

  function parseLogged(id: string, text: string | undefined): LoggedEvent | null {
    try {
      const event = JSON.parse(text ?? '') as LoggedEvent;
      if (typeof event?.id === 'string' && typeof event.name === 'string') return event;
    } catch {
      // Reported below.
    }
    logger.error({ entry: id }, 'an entry of the Redis event stream is not an event this gateway wrote: skipped');
    return null;
  }

  /** Where the stream ends now. */
  async function streamEnd(): Promise<string> {
    const newest = (await commands.xrevrange(keys.stream, '+', '-', 'COUNT', 1)) as [string, string[]][];
    return newest[0]?.[0] ?? '0-0';
  }

  /**
   * On (re)connecting: where reading goes on. The first time, after the stream's end; later, after
   * the last entry read, so entries other instances appended meanwhile are not missed, unless the
   * stream now ends before it: Redis lost it (restarted without persistence), and reading starts over.
   */
  async function resumePoint(): Promise<string> {
    const end = await streamEnd();
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
        const reply = (await reader.xread('COUNT', READ_COUNT, 'BLOCK', READ_BLOCK_MS, 'STREAMS', keys.stream, lastRead)) as
          | [string, [string, string[]][]][]
          | null;
        link.succeeded();
        for (const [, entries] of reply ?? []) {
          for (const [id, fields] of entries) {
            lastRead = id;
            receive(id, fields);
          }
        }
      } catch (error) {
        if (closed) return;
        link.failed(error);
        await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
      }
    }
  }
  void readLoop();

  // --- Retention and catch-up ------------------------------------------------------------------

  /** Drops entries past the age limit (the count limit is kept by every append). */
  async function trimByAge(): Promise<void> {
    const keepFrom = `${Date.now() - limits.maxAgeMs}-0`;
    let removed: number;
    do removed = await scripts.bankEventTrimByAge(keys.stream, keepFrom);
    while (removed === 1000);
  }
  const housekeeping = setInterval(() => {
    if (link.up) trimByAge().catch((error: unknown) => link.failed(error));
  }, HOUSEKEEPING_MS);
  housekeeping.unref();

  interface StreamInfo {
    /** The newest id ever trimmed ('0-0' if none). */
    maxDeleted: string;
    first: string | null;
  }

  async function streamInfo(): Promise<StreamInfo | null> {
    let reply: unknown[];
    try {
      reply = (await commands.xinfo('STREAM', keys.stream)) as unknown[];
    } catch (error) {
      if (error instanceof Error && /no such key/i.test(error.message)) return null;
      throw error;
    }
    const info = new Map<string, unknown>();
    for (let i = 0; i + 1 < reply.length; i += 2) info.set(String(reply[i]), reply[i + 1]);
    const first = info.get('first-entry') as [string, string[]] | null | undefined;
    // Redis before 7.0 does not report max-deleted-entry-id: then only a cursor still in the stream is valid.
    return { maxDeleted: String(info.get('max-deleted-entry-id') ?? '0-0'), first: first?.[0] ?? null };
  }

  /** The stream entries after `cursor`, when all of them are still retained; CursorExpiredError otherwise. */
  async function replayFromStream(cursor: Cursor): Promise<{ events: PublishedEvent[]; through: string }> {
    const streamId = cursor.kind === 's' ? cursor.id : await commands.get(keys.alias(cursor.id));
    await trimByAge();
    const info = await streamInfo();
    const oldest = info?.first ? encodeCursor({ kind: 's', id: info.first }) : null;
    if (!streamId || !info) throw new CursorExpiredError(oldest);
    const retained =
      streamId === info.maxDeleted ||
      (compareStreamIds(streamId, info.maxDeleted) > 0 && ((await commands.xrange(keys.stream, streamId, streamId)) as unknown[]).length === 1);
    if (!retained) throw new CursorExpiredError(oldest);
    const events: PublishedEvent[] = [];
    let through = streamId;
    for (;;) {
      const page = (await commands.xrange(keys.stream, `(${through}`, '+', 'COUNT', READ_COUNT)) as [string, string[]][];
      for (const [id, raw] of page) {
        through = id;
        const event = parseLogged(id, fieldsOf(raw).e);
        if (event) events.push({ ...event, cursor: encodeCursor({ kind: 's', id }) });
      }
      if (page.length < READ_COUNT) return { events, through };
    }
  }

  return {
    async accept(event: BankEvent, occurrence: string) {
      if (seen.has(occurrence) || local.log.byOccurrence(occurrence)) return { status: 'duplicate' };
      const logged: LoggedEvent = { ...event, receivedAt: new Date().toISOString() };
      // While older events wait in the buffer, newer ones queue behind them: the stream keeps their order.
      if (link.up && buffer.length === 0) {
        try {
          const id = await append(logged, occurrence);
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
      if (!link.up) throw new EventLogUnavailableError(`Redis is unreachable: ${link.down?.reason ?? 'not connected'}`);
      // Live events arriving meanwhile wait aside; those the replay already holds are then skipped.
      const subscriber = local.fanout.open(subscribeOptions);
      subscriber.hold();
      try {
        const { events, through } = await replayFromStream(cursor!);
        subscriber.release(events, (entry) => !entry.streamId || compareStreamIds(entry.streamId, through) > 0);
        return subscriber;
      } catch (error) {
        void subscriber.return();
        if (error instanceof CursorExpiredError) throw error;
        link.failed(error);
        throw new EventLogUnavailableError(`Redis did not answer: ${error instanceof Error ? error.message : String(error)}`);
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
        detail: `Redis is unreachable since ${since} (${down?.reason ?? 'not connected'}): events reach this instance's subscribers only; ${buffer.length} wait to be published to the other instances`,
        buffered: buffer.length,
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
