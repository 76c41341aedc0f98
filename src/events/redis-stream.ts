import type { Redis } from 'ioredis';
import type { EventLogConfig } from '../settings/index.ts';
import type { Logger } from '../platform/logger.ts';
import { DEDUPE_RETENTION_MS } from './bus.ts';
import { compareStreamIds, encodeCursor, type Cursor } from './cursor.ts';
import { CursorExpiredError } from './errors.ts';
import type { AcceptedEvent, PublishedEvent } from './log.ts';
import { READ_BLOCK_MS } from './redis-link.ts';

/**
 * The shared event log as Redis keys, all under one hash tag (`{prefix}`) so a Redis Cluster keeps
 * them on one node: `{prefix}:log` the stream, `{prefix}:seen:<occurrence>` what was accepted in the
 * last day.
 *
 * An entry holds `e` (the event as accepted, as JSON, without its cursor: the entry id is the
 * cursor), `k` (its occurrence key) and `o` (the instance that accepted it).
 */

/**
 * KEYS: seen, stream. ARGV: seen ttl, max length, event, origin, occurrence. Entries over the count
 * are removed with XDEL rather than XADD's MAXLEN: only XDEL moves the stream's
 * max-deleted-entry-id, which tells whether a cursor's successors are all still there.
 *
 * A repeat appends nothing but still writes (the seen key's expiry, renewed): a write is what WAIT
 * counts, and replication keeps order, so once replicas acknowledge this one they hold the first
 * acceptance too, whichever instance made it. A repeat is then as safe to acknowledge as the first.
 */
const ACCEPT_SCRIPT = `
if not redis.call('SET', KEYS[1], '1', 'PX', ARGV[1], 'NX') then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  return false
end
local id = redis.call('XADD', KEYS[2], '*', 'e', ARGV[3], 'o', ARGV[4], 'k', ARGV[5])
local excess = redis.call('XLEN', KEYS[2]) - tonumber(ARGV[2])
if excess > 0 then
  for _, entry in ipairs(redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', excess)) do redis.call('XDEL', KEYS[2], entry[1]) end
end
return id
`;

/** KEYS: stream. ARGV: the oldest id to keep. Removes up to TRIM_BATCH older entries; returns how many. */
const TRIM_BATCH = 1_000;
const TRIM_BY_AGE_SCRIPT = `
local old = redis.call('XRANGE', KEYS[1], '-', '(' .. ARGV[1], 'COUNT', ${TRIM_BATCH})
for _, entry in ipairs(old) do redis.call('XDEL', KEYS[1], entry[1]) end
return #old
`;

const READ_COUNT = 1_000;

/** One entry as read: the event (null when it is not one this gateway wrote) and what identifies it. */
export interface StreamEntry {
  id: string;
  event: AcceptedEvent | null;
  occurrence: string;
  /** The instance that accepted it (`o`); null for an entry without one. */
  origin: string | null;
}

export interface RedisStreamOptions {
  commands: Redis;
  reader: Redis;
  /** Names the keys; instances that share events share it. */
  keyPrefix: string;
  /** This instance, named in the entries it writes. */
  instance: string;
  limits: EventLogConfig;
  logger: Logger;
}

type Scripts = {
  bankEventAccept(seen: string, stream: string, ...args: (string | number)[]): Promise<string | null>;
  bankEventTrimByAge(stream: string, keepFrom: string): Promise<number>;
};

export function createRedisStream(options: RedisStreamOptions) {
  const { commands, reader, limits, logger } = options;
  const prefix = `{${options.keyPrefix}}`;
  const keys = {
    stream: `${prefix}:log`,
    seen: (occurrence: string) => `${prefix}:seen:${occurrence}`,
  };
  commands.defineCommand('bankEventAccept', { numberOfKeys: 2, lua: ACCEPT_SCRIPT });
  commands.defineCommand('bankEventTrimByAge', { numberOfKeys: 1, lua: TRIM_BY_AGE_SCRIPT });
  const scripts = commands as unknown as Scripts;

  function entryOf(id: string, raw: string[]): StreamEntry {
    const fields: Record<string, string> = {};
    for (let i = 0; i + 1 < raw.length; i += 2) fields[raw[i]!] = raw[i + 1]!;
    const occurrence = fields.k ?? `entry:${id}`;
    const event = parseLogged(id, fields.e);
    // Entries written before events carried their occurrence take it from the entry.
    if (event) event.occurrence ??= occurrence;
    return { id, event, occurrence, origin: fields.o ?? null };
  }

  function parseLogged(id: string, text: string | undefined): AcceptedEvent | null {
    try {
      const event = JSON.parse(text ?? '') as AcceptedEvent;
      if (typeof event?.id === 'string' && typeof event.name === 'string') return event;
    } catch {
      // Reported below.
    }
    logger.error({ entry: id }, 'an entry of the Redis event stream is not an event this gateway wrote: skipped');
    return null;
  }

  /** The newest id ever deleted ('0-0' if none) and the first entry's, or null when the stream does not exist. */
  async function info(): Promise<{ maxDeleted: string; first: string | null } | null> {
    let reply: unknown[];
    try {
      reply = (await commands.xinfo('STREAM', keys.stream)) as unknown[];
    } catch (error) {
      if (error instanceof Error && /no such key/i.test(error.message)) return null;
      throw error;
    }
    const fields = new Map<string, unknown>();
    for (let i = 0; i + 1 < reply.length; i += 2) fields.set(String(reply[i]), reply[i + 1]);
    const first = fields.get('first-entry') as [string, string[]] | null | undefined;
    // Redis before 7.0 does not report max-deleted-entry-id: then only a cursor still in the stream is valid.
    const maxDeleted = fields.get('max-deleted-entry-id') as string | undefined;
    return { maxDeleted: maxDeleted ?? '0-0', first: first?.[0] ?? null };
  }

  /** Drops entries past the age limit (the count limit is kept by every append). */
  async function trimByAge(): Promise<void> {
    const keepFrom = `${Date.now() - limits.maxAgeMs}-0`;
    let removed: number;
    do removed = await scripts.bankEventTrimByAge(keys.stream, keepFrom);
    while (removed === TRIM_BATCH);
  }

  return {
    /** Remembers the occurrence for a day and appends the event, atomically; null when the occurrence was accepted before. */
    append: (event: AcceptedEvent, occurrence: string) =>
      scripts.bankEventAccept(
        keys.seen(occurrence),
        keys.stream,
        DEDUPE_RETENTION_MS,
        limits.maxEvents,
        JSON.stringify(event),
        options.instance,
        occurrence,
      ),

    /**
     * Waits until `replicas` replicas hold every write this connection made (Redis WAIT), at most
     * `timeoutMs`; how many did. WAIT runs on the connection that wrote: it counts that client's writes.
     */
    replicasHold: (replicas: number, timeoutMs: number) => commands.wait(replicas, timeoutMs),

    /** Where the stream ends now ('0-0' when empty). */
    async end(): Promise<string> {
      const newest = (await commands.xrevrange(keys.stream, '+', '-', 'COUNT', 1)) as [string, string[]][];
      return newest[0]?.[0] ?? '0-0';
    },

    /** The entries after `after`, waiting up to READ_BLOCK_MS for some (on the reader connection). */
    async read(after: string): Promise<StreamEntry[]> {
      const reply = await reader.xread('COUNT', READ_COUNT, 'BLOCK', READ_BLOCK_MS, 'STREAMS', keys.stream, after);
      return (reply ?? []).flatMap(([, entries]) => entries.map(([id, raw]) => entryOf(id, raw)));
    },

    trimByAge,

    /**
     * The events after `cursor`, when the log can prove it holds all of them; CursorExpiredError
     * otherwise. The proof is the cursor's own entry, still there (or the newest deleted one): a
     * cursor the log never had, or lost (a failover to a replica that had not received it, a Redis
     * that restarted empty), is past whatever the log could vouch for.
     */
    async replayAfter(cursor: Cursor): Promise<{ events: PublishedEvent[]; through: string }> {
      const streamId = cursor.id;
      await trimByAge();
      const stream = await info();
      const oldest = stream?.first ? encodeCursor({ kind: 's', id: stream.first }) : null;
      if (!streamId || !stream) throw new CursorExpiredError(oldest);
      const retained =
        streamId === stream.maxDeleted ||
        (compareStreamIds(streamId, stream.maxDeleted) > 0 &&
          ((await commands.xrange(keys.stream, streamId, streamId)) as unknown[]).length === 1);
      if (!retained) throw new CursorExpiredError(oldest);
      const events: PublishedEvent[] = [];
      let through = streamId;
      for (;;) {
        const page = (await commands.xrange(keys.stream, `(${through}`, '+', 'COUNT', READ_COUNT)) as [string, string[]][];
        for (const [id, raw] of page) {
          through = id;
          const { event } = entryOf(id, raw);
          if (event) events.push({ ...event, cursor: encodeCursor({ kind: 's', id }) });
        }
        if (page.length < READ_COUNT) return { events, through };
      }
    },
  };
}
