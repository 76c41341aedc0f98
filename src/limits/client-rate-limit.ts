import { createHash } from 'node:crypto';
import { connectRedis } from '../platform/redis-options.ts';
import type { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { ClientRateLimitConfig, RedisTarget } from '../settings/index.ts';
import type { Logger } from '../platform/logger.ts';
import { onFirstUse } from '../platform/on-first-use.ts';

/** rate-limiter-flexible, loaded with the first limiter: the limit is off unless configured. */
const rateLimiters = onFirstUse<typeof import('rate-limiter-flexible')>('rate-limiter-flexible');

/**
 * Operations per client per window (CLIENT_RATE_LIMIT_OPERATIONS per CLIENT_RATE_LIMIT_WINDOW_SECONDS),
 * counted with rate-limiter-flexible: fixed windows, in memory, or in Redis (one atomic script per
 * operation) so every instance sharing the Redis counts the same client against one window.
 * Chosen over @envelop/rate-limiter, whose limits are field directives checked while resolving:
 * a client over its limit would get half an operation, and the limit is per client, not per field.
 *
 * Redis failing is no reason to refuse or crash: the count falls back to this instance's memory
 * (each instance then lets a client have the whole limit), logged once per outage and shown by
 * `shared` (metrics), and goes back to Redis once it answers. rate-limiter-flexible's own
 * `insuranceLimiter` does the same fallback but cannot say when it is used, which the log and the
 * metric need; so the switch is made here, around its two stores. While Redis is down, one
 * operation a second tries it again; the others do not wait on it.
 */

/** Whether one more operation of a client may run now. */
type WindowVerdict = { allowed: true } | { allowed: false; retryAfterMs: number };

/** What the limiter reports, for metrics. */
export interface ClientRateLimitObserver {
  /** Redis counts the window (true), or this instance alone does while Redis is away (false). */
  shared?(up: boolean): void;
}

export interface ClientRateLimiter {
  /** Counts `points` (one operation, or its bank calls) of `client` (a fairShareKey) and says whether it may run. */
  take(client: string, points?: number): Promise<WindowVerdict>;
  /** Gives `points` back to `client`'s window (what an operation was charged and did not spend), where it was counted. */
  giveBack(client: string, points: number): Promise<void>;
  /** What `client` has counted in its window now and when the window ends, counting nothing. */
  peek(client: string): Promise<WindowCount>;
  close(): Promise<void>;
}

/** A client's window as it stands: points counted, and ms until it starts afresh (0: no window open). */
interface WindowCount {
  consumed: number;
  msBeforeNext: number;
}

async function countOf(store: RateLimiterMemory | RateLimiterRedis, key: string): Promise<WindowCount> {
  const counted = await store.get(key);
  return { consumed: counted?.consumedPoints ?? 0, msBeforeNext: Math.max(counted?.msBeforeNext ?? 0, 0) };
}

/** A window of `points` per `windowSeconds` for each client: operations, or bank calls (the budget). */
export interface ClientRateLimiterOptions extends Pick<ClientRateLimitConfig, 'windowSeconds'> {
  points: number;
  redis?: RedisTarget | undefined;
  /** Names the Redis keys: instances that share counts share it. */
  keyPrefix: string;
  logger: Logger;
  observer?: ClientRateLimitObserver | undefined;
}

/**
 * How long a Redis command may take before the count falls back to memory: an operation waits this
 * at most, and while Redis stays silent one operation a second does (PROBE_MS). Not shorter: on a
 * busy event loop the timeout's timer can fire before an answer already on the socket is read, and
 * each false fallback splits a client's window between instances for a second (it was 250 ms).
 */
const REDIS_TIMEOUT_MS = 1_000;
/** While Redis is away, how often an operation tries it again. */
const PROBE_MS = 1_000;
/**
 * How long an operation waits for a connection that was counting in Redis and is between
 * connections (a Sentinel's switch to a new primary closes and reopens it; a dropped connection
 * comes back within ioredis' first retries) before counting in memory. Counting in memory at once
 * split a client's window between the instances for a second at every such reconnect: after a
 * failover, both instances reconnected once more on the Sentinel's announcement and let a client's
 * operations past its limit (test/redis/redis-failover.test.ts, [200, 200] where [429, 429] was due, on
 * a busy machine). Only the operations of that moment wait; once it has passed, Redis counts as
 * away and the next operations count in memory at once, as before.
 */
const RECONNECT_WAIT_MS = 500;
/** ioredis' messages for a command its connection closed under: not sent, or sent and never answered. */
const CONNECTION_LOST = /^(Stream isn't writeable|Reached the max retries per request limit)/;

/**
 * The key a client is counted under: a hash, so a passthrough caller's bank token is never written
 * to Redis (nor kept as a key in memory).
 */
function countKey(client: string): string {
  return createHash('sha256').update(client).digest('base64url').slice(0, 32);
}

function verdictOf(outcome: RateLimiterRes | Error): WindowVerdict {
  if (outcome instanceof rateLimiters().RateLimiterRes) return { allowed: false, retryAfterMs: Math.max(outcome.msBeforeNext, 0) };
  throw outcome;
}

async function consume(store: RateLimiterMemory | RateLimiterRedis, key: string, points = 1): Promise<WindowVerdict> {
  try {
    await store.consume(key, points);
    return { allowed: true };
  } catch (outcome) {
    return verdictOf(outcome as RateLimiterRes | Error);
  }
}

export function createClientRateLimiter(options: ClientRateLimiterOptions): ClientRateLimiter {
  const window = { points: options.points, duration: options.windowSeconds, keyPrefix: options.keyPrefix };
  const memory = new (rateLimiters().RateLimiterMemory)(window);
  if (!options.redis) {
    return {
      take: (client, points) => consume(memory, countKey(client), points),
      giveBack: async (client, points) => void (await memory.reward(countKey(client), points)),
      peek: (client) => countOf(memory, countKey(client)),
      close: async () => {},
    };
  }
  return redisBacked(options.redis, memory, window, options);
}

function redisBacked(
  target: RedisTarget,
  memory: RateLimiterMemory,
  window: { points: number; duration: number; keyPrefix: string },
  { logger, observer }: Pick<ClientRateLimiterOptions, 'logger' | 'observer'>,
): ClientRateLimiter {
  const redis = connectRedis(target, { commandTimeout: REDIS_TIMEOUT_MS });
  const store = new (rateLimiters().RateLimiterRedis)({ ...window, storeClient: redis, rejectIfRedisNotReady: true });
  // `starting`: not connected yet (the first operations count locally without a warning).
  let state: 'starting' | 'shared' | 'local' = 'starting';
  let nextProbeAt = 0;
  let closed = false;

  const down = (reason: string) => {
    nextProbeAt = Date.now() + PROBE_MS;
    // A connection closed on purpose is no outage.
    if (state === 'local' || closed) return;
    state = 'local';
    observer?.shared?.(false);
    logger.warn({ reason }, 'Redis is unreachable: operations per client are counted by this instance alone until it is back');
  };
  const up = () => {
    if (state === 'shared') return;
    if (state === 'local') logger.info('Redis is back: operations per client are counted across instances again');
    state = 'shared';
    observer?.shared?.(true);
  };
  // An error on a connection that is still ready (a Sentinel's, an old primary's, after a
  // failover) says nothing of the counts: a command that fails, or a connection that is not ready
  // when an operation comes, is what sends them to memory (take, below).
  redis.on('error', (error: Error) => {
    if (redis.status !== 'ready') down(error.message);
  });
  redis.on('ready', () => {
    // Try it with the next operation rather than a second from now.
    nextProbeAt = 0;
  });
  // One wait for the operations that arrive during a reconnect, not a listener each.
  let reconnecting: Promise<boolean> | undefined;
  const reconnected = (): Promise<boolean> =>
    (reconnecting ??= new Promise<boolean>((resolve) => {
      const done = (ready: boolean) => {
        clearTimeout(timer);
        redis.off('ready', onReady);
        reconnecting = undefined;
        resolve(ready);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(false), RECONNECT_WAIT_MS);
      redis.once('ready', onReady);
    }));

  // A count lost to the connection closing under it goes once more on the reopened connection:
  // one ioredis could not send (no offline queue), or one sent whose connection closed before it
  // was answered (no retry per request). The second may have counted already: one operation
  // counted twice at the moment of a reconnect (a client refused one operation early) is the
  // lesser fault than its window split between the instances. A count that timed out on a
  // connection still open is not sent again: Redis is slow or hung, and the counts go to memory.
  const consumeAcrossReconnect = async (key: string, points: number | undefined): Promise<WindowVerdict> => {
    try {
      return await consume(store, key, points);
    } catch (error) {
      // The next 'ready': when the error comes, the connection is closing (or was already, its status not yet changed).
      if (state !== 'shared' || !CONNECTION_LOST.test((error as Error).message) || !(await reconnected())) throw error;
      return consume(store, key, points);
    }
  };

  return {
    take: async (client, points) => {
      const key = countKey(client);
      if (state === 'shared' && redis.status !== 'ready' && redis.status !== 'end') await reconnected();
      if (redis.status !== 'ready' || (state === 'local' && Date.now() < nextProbeAt)) {
        if (state === 'shared') down(`the connection is ${redis.status}`);
        return consume(memory, key, points);
      }
      try {
        const verdict = await consumeAcrossReconnect(key, points);
        up();
        return verdict;
      } catch (error) {
        down(error instanceof Error ? error.message : String(error));
        return consume(memory, key, points);
      }
    },
    // Where the window is counted now: a refund lost with Redis leaves the client's window fuller, never emptier.
    giveBack: async (client, points) => {
      const key = countKey(client);
      const counting = state === 'shared' && redis.status === 'ready' ? store : memory;
      await counting.reward(key, points).catch((error: unknown) => {
        logger.warn(
          { reason: error instanceof Error ? error.message : String(error), points },
          'a refund of bank calls to a client was lost',
        );
      });
    },
    peek: async (client) => {
      const key = countKey(client);
      if (state !== 'shared' || redis.status !== 'ready') return countOf(memory, key);
      return countOf(store, key).catch(() => countOf(memory, key));
    },
    close: async () => {
      closed = true;
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
