/**
 * Live updates out: the event log subscriptions resume from (`after`, EVENT_LOG_*), and the Redis
 * that shares it across instances (redis.ts).
 */

import { groupAs, int, setting } from '@banking-gateway/settings';
import type { z } from 'zod';
import { redisOf, redisSettings } from './redis.ts';

export const eventsGroup = groupAs(
  'Live updates out',
  'The event log subscriptions resume from (`after`), and Redis to share it across instances: one address (`REDIS_URL`) or Sentinels (`REDIS_SENTINELS`), never both. See [deployment.md](deployment.md#redis-with-sentinel).',
  {
    ...redisSettings,
    maxEvents: setting('EVENT_LOG_MAX_EVENTS', int(1, 1_000_000, 10_000), 'events kept for catch-up (`after`)'),
    maxAgeMs: setting('EVENT_LOG_MAX_AGE_MS', int(1_000, 30 * 86_400_000, 86_400_000), 'events older than this are dropped from the log'),
  },
  // The log's retention goes to the event bus on its own, with or without Redis.
  (settings) => ({ ...redisOf(settings), log: { maxEvents: settings.maxEvents, maxAgeMs: settings.maxAgeMs } }),
);

/**
 * The log of published bank events that subscriptions resume from (`after`): Redis Streams with
 * Redis, memory without. Events older than `maxAgeMs`, or past the newest `maxEvents`, are dropped.
 */
export type EventLogConfig = z.output<typeof eventsGroup>['log'];
