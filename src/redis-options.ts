import type { Redis, RedisOptions } from 'ioredis';
import type { RedisTarget } from './config.ts';
import type { Logger } from './logger.ts';
import { onFirstUse } from './on-first-use.ts';

/** ioredis, loaded with the first connection: most instances have no Redis. */
const ioredis = onFirstUse<typeof import('ioredis')>('ioredis');

/** ioredis's reconnect delays: quick at first, then every 2 s while Redis stays away. */
const retryStrategy = (attempt: number) => Math.min(100 * attempt, 2_000);

/**
 * How every Redis connection of the gateway behaves (the event bus, cache invalidation, the audit
 * trail, client limits, persisted queries, card freezes): a command never waits for a connection (no
 * offline queue) and fails at once when the connection drops, so each user falls back in its own
 * way; ioredis reconnects by itself. Each user adds its own `commandTimeout`.
 */
const REDIS_BASE_OPTIONS: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  retryStrategy,
  // Connection problems are reported by each user, once per change.
  showFriendlyErrorStack: false,
};

/** Whom a connection serves: a label for the logs, never an address with credentials. */
export function describeRedisTarget(target: RedisTarget): string {
  if ('url' in target) {
    const url = new URL(target.url);
    return `${url.protocol}//${url.host}`;
  }
  return `sentinel group "${target.name}" (${target.sentinels.map((s) => `${s.host}:${s.port}`).join(', ')})`;
}

/** Sentinels are asked again every 2 s at most while none answers; ioredis never gives up. */
const sentinelRetryStrategy = (attempt: number) => Math.min(250 * attempt, 2_000);

/**
 * A connection to the target's primary, with the gateway's usual behaviour and the user's own
 * `commandTimeout` (and the like). With Sentinels, ioredis finds the primary, checks its role, and
 * follows a failover (`failoverDetector`: it listens for Sentinel's `+switch-master` rather than
 * waiting for the old primary's connection to break).
 */
export function connectRedis(target: RedisTarget, options: RedisOptions = {}): Redis {
  const { Redis } = ioredis();
  const redis =
    'url' in target
      ? new Redis(target.url, { ...REDIS_BASE_OPTIONS, ...options })
      : new Redis({
          ...REDIS_BASE_OPTIONS,
          ...options,
          sentinels: target.sentinels,
          name: target.name,
          role: 'master',
          sentinelPassword: target.sentinelPassword,
          password: target.password,
          sentinelRetryStrategy,
          failoverDetector: true,
          Connector: quietSentinelConnector(),
          // A primary demoted by a failover answers writes with READONLY: reconnect, via the Sentinels, to the new one.
          reconnectOnError: (error) => /^READONLY/.test(error.message),
        });
  return reconnectingAfterEnd(redis);
}

/** What a connector's Sentinel client is made by: private in ioredis' types, which this subclass overrides. */
interface SentinelClients {
  connectToSentinel(endpoint: unknown, options?: RedisOptions): Redis;
}

let quietConnector: RedisOptions['Connector'] | undefined;

/**
 * ioredis' SentinelConnector, each of whose clients to a Sentinel has an error listener. ioredis
 * gives none to the failover detector's clients (one per Sentinel per connection), so a Sentinel
 * that stopped answering had every connection print a raw stack on stderr (`[ioredis] Unhandled
 * error event`) at each retry, outside the log. A Sentinel down is no outage of the gateway's: the
 * others still announce a failover, and a connection that finds no Sentinel at all is reported by
 * its user, as it is when Redis itself is away.
 */
function quietSentinelConnector(): NonNullable<RedisOptions['Connector']> {
  if (quietConnector) return quietConnector;
  const Base = ioredis().SentinelConnector as unknown as new (options: object) => SentinelClients;
  class QuietSentinelConnector extends Base {
    override connectToSentinel(endpoint: unknown, options?: RedisOptions): Redis {
      const client = super.connectToSentinel(endpoint, options);
      client.on('error', () => {});
      return client;
    }
  }
  return (quietConnector = QuietSentinelConnector as unknown as NonNullable<RedisOptions['Connector']>);
}

/** How long an ended connection waits before it is connected again. */
const RECONNECT_AFTER_END_MS = 500;

/**
 * `redis`, connected again whenever ioredis ends it without the gateway asking. ioredis ends a
 * connection for good when a connect fails, and one fails when a reconnect is asked while it is
 * being made: the failover detector does just that when a Sentinel announces +switch-master while
 * the connection is still asking the Sentinels where the primary is (ioredis 5: Redis#_connect,
 * SentinelConnector#connect). Under load that window is wide: beside two busy loops, a failover left
 * 5 of 18 connections ended, and an instance whose event reader was among them never read events
 * again. A connection the gateway closes itself (quit, disconnect) stays closed.
 */
function reconnectingAfterEnd(redis: Redis): Redis {
  let closedByUs = false;
  const quit = redis.quit.bind(redis);
  const disconnect = redis.disconnect.bind(redis);
  redis.quit = ((...args: Parameters<Redis['quit']>) => {
    closedByUs = true;
    return quit(...args);
  }) as Redis['quit'];
  redis.disconnect = (reconnect = false) => {
    if (!reconnect) closedByUs = true;
    disconnect(reconnect);
  };
  redis.on('end', () => {
    // ioredis leaves the failover detector's Sentinel clients subscribed after a quit (only its
    // disconnect lets them go), and they would retry a Sentinel for as long as the process runs.
    if (closedByUs) return disconnect();
    setTimeout(() => {
      // A connect that fails ends it again, and this runs again.
      if (!closedByUs && redis.status === 'end') redis.connect().catch(() => {});
    }, RECONNECT_AFTER_END_MS).unref();
  });
  return redis;
}

/** Where the current primary is, as a connection last found it (for the logs: "back, with which primary"). */
export function primaryAddress(redis: Redis): string {
  const { remoteAddress, remotePort } = redis.stream ?? {};
  return remoteAddress ? `${remoteAddress}:${remotePort}` : 'unknown';
}

/** How long a command waits for a connection still being made (a fresh instance's first requests). */
const CONNECT_WAIT_MS = 1_000;

/** A key-value user's connection: its commands, each failing at once while Redis is away, and its close. */
export interface RedisCommands {
  readonly redis: Redis;
  /** Runs one command; throws when Redis cannot answer, and says so once per outage (and once when it answers again). */
  command<T>(run: (redis: Redis) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * A connection for a user that reads and writes a few keys per request (card freezes, uncertain
 * writes), and decides itself what an unanswered command means. `what` names the user in its log
 * lines; `outage` says what the outage costs, for the operator.
 */
export function redisCommands(target: RedisTarget, options: { commandTimeout: number; logger: Logger; what: string; outage: string }): RedisCommands {
  const redis = connectRedis(target, { commandTimeout: options.commandTimeout });
  let failing = false;
  // ioredis reports each reconnect attempt; the first command that fails says it once.
  redis.on('error', () => {});
  return {
    redis,
    command: async (run) => {
      await connecting(redis);
      try {
        const answer = await run(redis);
        if (failing) options.logger.info(`${options.what}: Redis answers again`);
        failing = false;
        return answer;
      } catch (error) {
        if (!failing) options.logger.warn({ reason: (error as Error).message }, `${options.what}: Redis is not answering; ${options.outage}`);
        failing = true;
        throw error;
      }
    },
    close: () => redis.quit().then(() => undefined, () => redis.disconnect()),
  };
}

/**
 * Commands are not queued while there is no connection: one made while the first connection is
 * still being set up would fail for nothing, so it waits for that (bounded). While Redis is away
 * ioredis is between attempts ('reconnecting'), and commands fail at once.
 */
function connecting(redis: Redis): Promise<void> {
  if (!['wait', 'connecting', 'connect'].includes(redis.status)) return Promise.resolve();
  return new Promise((resolve) => {
    const events = ['ready', 'error', 'close', 'end'] as const;
    const done = () => {
      clearTimeout(timer);
      for (const event of events) redis.off(event, done);
      resolve();
    };
    const timer = setTimeout(done, CONNECT_WAIT_MS);
    for (const event of events) redis.once(event, done);
  });
}
