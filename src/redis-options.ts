import type { RedisOptions } from 'ioredis';

/** ioredis's reconnect delays: quick at first, then every 2 s while Redis stays away. */
const retryStrategy = (attempt: number) => Math.min(100 * attempt, 2_000);

/**
 * How every Redis connection of the gateway behaves (the event bus, cache invalidation, the audit
 * trail, client limits, persisted queries): a command never waits for a connection (no offline
 * queue) and fails at once when the connection drops, so each user falls back in its own way;
 * ioredis reconnects by itself. Each user adds its own `commandTimeout`.
 */
export const REDIS_BASE_OPTIONS: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  retryStrategy,
  // Connection problems are reported by each user, once per change.
  showFriendlyErrorStack: false,
};
