import { randomBytes } from 'node:crypto';
import type { Logger } from '../platform/logger.ts';
import { ALL_RECORD_KINDS, kindsChangedByEvent, type RecordKind } from '../upstream/cache-policy.ts';
import type { RecordCache } from '../upstream/record-cache.ts';
import { connectRedis } from '../platform/redis-options.ts';
import { COMMAND_TIMEOUT_MS } from './redis-link.ts';
import type { BankEvent } from './models.ts';
import type { RedisTarget } from '../settings/index.ts';

export interface CacheInvalidation {
  /** A bank event reached this instance (its intake, or the shared log): drop what it changed. */
  event(event: BankEvent): void;
  /** Invalidations published that could not reach the other instances. */
  readonly lost: number;
  close(): Promise<void>;
}

export interface CacheInvalidationOptions {
  cache: RecordCache | undefined;
  /** With it, this instance's writes reach every instance's cache through Redis pub/sub. */
  redis?: RedisTarget | undefined;
  /** Names the channel (`{prefix}:cache-invalidations`): instances that share events share it. */
  keyPrefix?: string | undefined;
  logger: Logger;
  /**
   * Told of every change as the cache is, on every instance: each bank event, and the kinds each
   * write changed (this instance's, and others' through the same channel). Live queries re-run from it.
   */
  changes?: ChangeListener | undefined;
}

/** Who else hears of changes beside the record cache (live/engine.ts). */
interface ChangeListener {
  event(event: BankEvent): void;
  changed(kinds: readonly RecordKind[]): void;
}

const NO_CACHE: CacheInvalidation = { event: () => {}, lost: 0, close: async () => {} };

/**
 * Keeps every instance's record cache honest. A bank event drops what it changed once on each
 * instance: the intake that takes it calls `event` before the bank's 202, and on every other
 * instance the shared event bus calls it as the event arrives. Writes are seen only by the instance
 * that sent them, so it publishes their kinds on a Redis channel the others listen on.
 *
 * Pub/sub delivers at most once: an instance whose listening connection is down may miss a write,
 * so it bypasses its cache meanwhile and drops everything it held once it listens again. A write
 * whose publish fails cannot be recalled from the others: it is logged and counted (`lost`), and
 * those instances may show the records it changed until their TTL.
 */
export function createCacheInvalidation(options: CacheInvalidationOptions): CacheInvalidation {
  const { cache, logger, changes } = options;
  if (!cache) return changes ? { ...NO_CACHE, event: (event) => changes.event(event) } : NO_CACHE;
  // The cache first: a live query the listener re-runs must read past what the event changed.
  const byEvent: CacheInvalidation['event'] = (event) => {
    cache.invalidate(kindsChangedByEvent(event.name));
    changes?.event(event);
  };
  const changedHere = (kinds: readonly RecordKind[]) => changes?.changed(kinds);
  if (!options.redis) {
    cache.onWrite(changedHere);
    return { event: byEvent, lost: 0, close: async () => {} };
  }

  const channel = `${options.keyPrefix ?? 'bank-events'}:cache-invalidations`;
  const instance = randomBytes(6).toString('hex');
  const publisher = connectRedis(options.redis, { commandTimeout: COMMAND_TIMEOUT_MS });
  const listener = connectRedis(options.redis, { autoResubscribe: false });
  let lost = 0;
  let listening = false;

  // Until it listens, this instance could miss another's write.
  cache.setTrusted(false);
  const stopListening = () => {
    if (listening)
      logger.warn({ channel }, "the record cache is bypassed: other instances' writes cannot reach this one while Redis is away");
    listening = false;
    cache.setTrusted(false);
  };
  listener.on('ready', () => {
    listener.subscribe(channel).then(
      () => {
        listening = true;
        cache.setTrusted(true);
      },
      (error: unknown) => {
        logger.warn({ err: error, channel }, 'could not listen for cache invalidations; the record cache stays bypassed');
      },
    );
  });
  listener.on('close', stopListening);
  // ioredis reports every failed reconnect; the close above already said what it means.
  listener.on('error', () => {});
  publisher.on('error', () => {});
  listener.on('message', (_channel: string, message: string) => {
    const published = parseMessage(message);
    if (published.instance === instance) return;
    cache.invalidate(published.kinds);
    changedHere(published.kinds);
  });

  cache.onWrite((kinds) => {
    changedHere(kinds);
    publisher.publish(channel, JSON.stringify({ instance, kinds })).catch((error: unknown) => {
      lost += 1;
      logger.error(
        { err: error, kinds, channel },
        "a write's cache invalidation could not be published: other instances may show the records it changed until their TTL",
      );
    });
  });

  return {
    event: byEvent,
    get lost() {
      return lost;
    },
    close: async () => {
      listener.removeListener('close', stopListening);
      listener.disconnect();
      await publisher.quit().catch(() => publisher.disconnect());
    },
  };
}

const KNOWN_KINDS = new Set<string>(ALL_RECORD_KINDS);

/** Another instance's message; anything unreadable drops everything rather than nothing. */
function parseMessage(message: string): { instance: string; kinds: RecordKind[] } {
  try {
    const parsed = JSON.parse(message) as { instance?: unknown; kinds?: unknown };
    if (typeof parsed.instance !== 'string' || !Array.isArray(parsed.kinds)) return { instance: '', kinds: [...ALL_RECORD_KINDS] };
    return { instance: parsed.instance, kinds: parsed.kinds.filter((kind): kind is RecordKind => KNOWN_KINDS.has(kind as string)) };
  } catch {
    return { instance: '', kinds: [...ALL_RECORD_KINDS] };
  }
}
