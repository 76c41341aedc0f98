/**
 * The gateway's Redis (REDIS_*), part of the events group: one address or the Sentinels of a
 * primary, never both, and the replicas an accepted bank event must reach before it counts as safe.
 */

import { int, list, setting, text, unsetIfEmpty, type GroupSettings } from '@banking-gateway/settings';
import { z } from 'zod';
import { repeats, type RawEnvironment } from './raw-environment.ts';

/** One Sentinel's address. */
interface SentinelAddress {
  host: string;
  port: number;
}

/**
 * Where the gateway's Redis is, made once from the configuration and handed to every user
 * (platform/redis-options.ts connects to it): one address (`REDIS_URL`: a single Redis, or a managed endpoint
 * that fails over behind its own address; credentials and `rediss://` in it are honoured), or the
 * Sentinels that know the current primary of the group `name`.
 */
export type RedisTarget =
  | { url: string }
  | {
      sentinels: SentinelAddress[];
      /** The primary's group name, as the Sentinels know it. */
      name: string;
      /** Sentinel's own AUTH (`requirepass` in sentinel.conf). A secret: never logged. */
      sentinelPassword?: string | undefined;
      /** The primary's and replicas' AUTH. A secret: never logged. */
      password?: string | undefined;
    };

/**
 * When an accepted bank event counts as safe (REDIS_MIN_REPLICAS_ACK, REDIS_REPLICA_ACK_TIMEOUT_MS):
 * on the primary and on this many replicas, waited for at most this long.
 */
export interface EventDurability {
  minReplicasAck: number;
  replicaAckTimeoutMs: number;
}

/** `host:port`, comma-separated: the Sentinels (REDIS_SENTINELS). */
const sentinelList = list(
  z.string().transform((entry, ctx): SentinelAddress => {
    const match = /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9][A-Za-z0-9.-]*):(\d{1,5})$/.exec(entry);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65_535) {
      ctx.addIssue({ code: 'custom', message: `"${entry}" is not host:port (a host name or IP address, then a port 1 to 65535)` });
      return z.NEVER;
    }
    return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
  }),
  (item) => item,
  'host:port entries, comma-separated',
);

/** The Redis settings of the events group, in the order the docs list them. */
export const redisSettings = {
  redisUrl: setting(
    'REDIS_URL',
    z
      .preprocess(unsetIfEmpty, z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional())
      .meta({ rule: 'redis:// or rediss:// URL' }),
    'one Redis (or a managed endpoint) for the shared event log, fan-out and de-duplication across instances, cache invalidation, the operations per client, persisted queries, card freezes and the audit stream; credentials (`redis://user:password@host`) and TLS (`rediss://`) in it are used',
  ),
  sentinels: setting(
    'REDIS_SENTINELS',
    sentinelList,
    'the Sentinels that know the current Redis primary, instead of `REDIS_URL`: every Redis user follows a failover to the new primary',
    'unset',
  ),
  sentinelName: setting(
    'REDIS_SENTINEL_NAME',
    text(),
    "the primary's group name as the Sentinels know it (`sentinel monitor <name> ...`); required with `REDIS_SENTINELS`",
  ),
  sentinelPassword: setting(
    'REDIS_SENTINEL_PASSWORD',
    text(),
    "the Sentinels' own password (`requirepass` in sentinel.conf), with `REDIS_SENTINELS`; never logged",
  ),
  password: setting(
    'REDIS_PASSWORD',
    text(),
    "the primary's and replicas' password with `REDIS_SENTINELS` (with `REDIS_URL` it goes in the URL); never logged",
  ),
  minReplicasAck: setting(
    'REDIS_MIN_REPLICAS_ACK',
    z
      .preprocess(
        unsetIfEmpty,
        z.coerce
          .number({ error: 'must be a number' })
          .int({ error: 'must be an integer' })
          .min(0, { error: 'must be at least 0' })
          .max(16, { error: 'must be at most 16' })
          .optional(),
      )
      .meta({ rule: 'integer, 0 to 16' }),
    'a bank event is answered 202 only once this many replicas hold it (Redis `WAIT`); otherwise 503 with Retry-After, and the bank redelivers',
    '1 with `REDIS_SENTINELS`, 0 with `REDIS_URL`',
  ),
  replicaAckTimeoutMs: setting(
    'REDIS_REPLICA_ACK_TIMEOUT_MS',
    int(10, 5_000, 500),
    'how long an event waits for those replicas before it is answered 503',
  ),
};

/** Where Redis is, if anywhere, and when an event counts as safe there: a Sentinel deployment has replicas, so one by default. */
export function redisOf(settings: GroupSettings<typeof redisSettings>): { redis: RedisTarget | undefined; durability: EventDurability } {
  const { redisUrl, sentinels, sentinelName, sentinelPassword, password, minReplicasAck, replicaAckTimeoutMs } = settings;
  const redis: RedisTarget | undefined =
    sentinels.length > 0 ? { sentinels, name: sentinelName ?? '', sentinelPassword, password } : redisUrl ? { url: redisUrl } : undefined;
  return { redis, durability: { minReplicasAck: minReplicasAck ?? (sentinels.length > 0 ? 1 : 0), replicaAckTimeoutMs } };
}

/**
 * One way to reach Redis: an address, or Sentinels. Both set would leave the operator guessing which
 * one the gateway follows in a failover, so the start stops; Sentinel settings without Sentinels
 * would be ignored, so they stop it too.
 */
export function redisProblems({ set, variable, entries }: RawEnvironment): string[] {
  const [URL_, SENTINELS] = [variable('events.redisUrl'), variable('events.sentinels')];
  if (!set('events.sentinels')) {
    return ['events.sentinelName', 'events.sentinelPassword', 'events.password']
      .filter(set)
      .map((path) => `${variable(path)} is used only with ${SENTINELS} (with ${URL_}, credentials go in the URL)`);
  }
  const sentinels = entries('events.sentinels').map((entry) => entry.toLowerCase());
  return [
    ...(set('events.redisUrl')
      ? [
          `${URL_} and ${SENTINELS} are both set: give one (${SENTINELS} for Redis with Sentinel, ${URL_} for one Redis or a managed endpoint)`,
        ]
      : []),
    ...(set('events.sentinelName')
      ? []
      : [`${variable('events.sentinelName')} is required with ${SENTINELS} (the name in \`sentinel monitor <name> ...\`)`]),
    ...repeats(sentinels, (entry) => entry).map((entry) => `${SENTINELS} names the Sentinel "${entry}" twice`),
  ];
}
