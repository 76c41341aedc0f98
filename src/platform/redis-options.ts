import type { Redis, RedisOptions } from 'ioredis';
import type { RedisTarget } from '../settings/index.ts';
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

type SentinelTarget = Extract<RedisTarget, { sentinels: unknown }>;

/**
 * A connection to the target's primary, with the gateway's usual behaviour and the user's own
 * `commandTimeout` (and the like). With Sentinels, ioredis finds the primary and checks its role;
 * a failover is followed from the Sentinels' announcements (followFailovers, below), or from the
 * old primary's connection breaking or answering READONLY.
 */
export function connectRedis(target: RedisTarget, options: RedisOptions = {}): Redis {
  const { Redis } = ioredis();
  if ('url' in target) return reconnectingAfterEnd(new Redis(target.url, { ...REDIS_BASE_OPTIONS, ...options }));
  const redis = reconnectingAfterEnd(
    new Redis({
      ...REDIS_BASE_OPTIONS,
      ...options,
      sentinels: target.sentinels,
      name: target.name,
      role: 'master',
      sentinelPassword: target.sentinelPassword,
      password: target.password,
      sentinelRetryStrategy,
      // followFailovers does its work, once per process rather than once per connection.
      failoverDetector: false,
      Connector: rememberingConnector(),
      // A primary demoted by a failover answers writes with READONLY: reconnect, via the Sentinels, to the new one.
      reconnectOnError: (error) => /^READONLY/.test(error.message),
    }),
  );
  followFailovers(redis, target);
  return redis;
}

/** What ioredis' SentinelConnector keeps that followFailovers reads: private in its types. */
interface SentinelConnectorInternals {
  resolve(endpoint: unknown): Promise<{ host: string; port: number } | null>;
}

let connectorClass: RedisOptions['Connector'] | undefined;

/**
 * ioredis' SentinelConnector, remembering the primary the Sentinels last named to it: the address a
 * connection is on, in the form the Sentinels announce it (an IP, or a name with announce-hostnames).
 */
function rememberingConnector(): NonNullable<RedisOptions['Connector']> {
  if (connectorClass) return connectorClass;
  const Base = ioredis().SentinelConnector as unknown as new (options: object) => SentinelConnectorInternals;
  class RememberingSentinelConnector extends Base {
    primary: string | undefined;
    override async resolve(endpoint: unknown) {
      const found = await super.resolve(endpoint);
      if (found) this.primary = `${found.host}:${found.port}`;
      return found;
    }
  }
  return (connectorClass = RememberingSentinelConnector as unknown as NonNullable<RedisOptions['Connector']>);
}

/** The primary a Sentinel connection is on, as the Sentinels named it. */
const primaryNamed = (redis: Redis) => (redis as unknown as { connector?: { primary?: string } }).connector?.primary;

/** The Sentinels' announcement that a failover ended: `<name> <old-ip> <old-port> <new-ip> <new-port>`. */
const SWITCH_MASTER = '+switch-master';

/** A process's listeners to one Sentinel group's announcements, and the connections they move. */
interface FailoverWatch {
  connections: Set<Redis>;
  sentinels: Redis[];
}

const watches = new Map<string, FailoverWatch>();

/**
 * Moves the target's connections to the new primary when a Sentinel announces a failover, rather
 * than waiting for the old primary's connection to break (a hung or partitioned primary never breaks
 * it). In place of ioredis' failoverDetector, which reconnects a connection at every announcement:
 * each Sentinel makes its own when it takes the new configuration, up to seconds apart, and a
 * connection already on the new primary was cut again by each later one, the event intake going
 * down and up again with it ("Redis is back", then unreachable, per Sentinel). Here a connection
 * moves only when it is on another primary than the one announced (one still connecting asks the
 * Sentinels anyway), one waiting to reconnect does so at once rather than after its retry delay,
 * and one listener per Sentinel serves every connection of the process.
 */
function followFailovers(redis: Redis, target: SentinelTarget): void {
  const key = JSON.stringify([target.name, target.sentinels]);
  let watch = watches.get(key);
  if (!watch) watches.set(key, (watch = startWatch(target)));
  watch.connections.add(redis);
  const current = watch;
  onClosedByGateway(redis, () => {
    current.connections.delete(redis);
    if (current.connections.size > 0) return;
    watches.delete(key);
    for (const sentinel of current.sentinels) sentinel.disconnect();
  });
}

function startWatch(target: SentinelTarget): FailoverWatch {
  const { Redis } = ioredis();
  const watch: FailoverWatch = { connections: new Set(), sentinels: [] };
  const switched = (message: string) => {
    const [name, , , host, port] = message.split(' ');
    if (name !== target.name) return;
    for (const redis of watch.connections) {
      // One waiting out its retry delay (its primary died) asks the Sentinels now, and finds the new one.
      if (redis.status === 'reconnecting') redis.connect().catch(() => {});
      else if (redis.status === 'ready' && primaryNamed(redis) !== `${host}:${port}`) redis.disconnect(true);
    }
  };
  for (const { host, port } of target.sentinels) {
    const sentinel = new Redis({
      host,
      port,
      password: target.sentinelPassword,
      retryStrategy: sentinelRetryStrategy,
      enableReadyCheck: false,
      showFriendlyErrorStack: false,
    });
    // A Sentinel down is no outage of the gateway's: the others announce a failover, and a connection
    // that finds no Sentinel at all is reported by its user, as when Redis itself is away.
    sentinel.on('error', () => {});
    sentinel.on('message', (channel: string, message: string) => channel === SWITCH_MASTER && switched(message));
    sentinel.subscribe(SWITCH_MASTER).catch(() => {});
    watch.sentinels.push(sentinel);
  }
  return watch;
}

/** How long an ended connection waits before it is connected again. */
const RECONNECT_AFTER_END_MS = 500;

/** What runs when the gateway closes a connection itself (quit, disconnect), per connection. */
const closers = new WeakMap<Redis, (() => void)[]>();

/** Runs `closed` when the gateway closes `redis` itself. */
function onClosedByGateway(redis: Redis, closed: () => void): void {
  closers.get(redis)?.push(closed);
}

/**
 * `redis`, connected again whenever ioredis ends it without the gateway asking. ioredis ends a
 * connection for good when a connect fails, and one fails when a reconnect is asked while it is
 * being made (ioredis 5: Redis#_connect, SentinelConnector#connect): under load, with ioredis' own
 * failover detector, a failover left 5 of 18 connections ended, and an instance whose event reader
 * was among them never read events again. followFailovers moves only a connection that is ready,
 * but nothing else promises ioredis never ends one. A connection the gateway closes itself (quit,
 * disconnect) stays closed.
 */
function reconnectingAfterEnd(redis: Redis): Redis {
  let closedByUs = false;
  closers.set(redis, []);
  const closing = () => {
    if (closedByUs) return;
    closedByUs = true;
    for (const closed of closers.get(redis) ?? []) closed();
  };
  const quit = redis.quit.bind(redis);
  const disconnect = redis.disconnect.bind(redis);
  redis.quit = (...args: Parameters<Redis['quit']>) => {
    closing();
    return quit(...args);
  };
  redis.disconnect = (reconnect = false) => {
    if (!reconnect) closing();
    disconnect(reconnect);
  };
  redis.on('end', () => {
    if (closedByUs) return;
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
export function redisCommands(
  target: RedisTarget,
  options: { commandTimeout: number; logger: Logger; what: string; outage: string },
): RedisCommands {
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
        if (!failing)
          options.logger.warn({ reason: (error as Error).message }, `${options.what}: Redis is not answering; ${options.outage}`);
        failing = true;
        throw error;
      }
    },
    close: () =>
      redis.quit().then(
        () => undefined,
        () => redis.disconnect(),
      ),
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
