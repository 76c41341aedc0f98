import { Redis } from 'ioredis';
import { BASE_OPTIONS } from '../events/redis-link.ts';
import type { AuditRecord } from './record.ts';
import type { Delivery, Sink, Tally } from './sink.ts';

/**
 * Records appended to a Redis Stream that every instance shares, capped near `maxLen` entries so it
 * cannot fill Redis: one place to read the whole gateway's attempts, the recent ones. It is a copy:
 * the primary destination (stdout or a file) has every record, so Redis failing costs no mutation
 * its answer. The connection is the gateway's usual one (the event bus's BASE_OPTIONS): a command
 * never waits for a connection (no offline queue), ioredis reconnects by itself, backing off to 2 s;
 * and a command never takes longer than COMMAND_TIMEOUT_MS.
 */

const COMMAND_TIMEOUT_MS = 250;

export interface RedisSinkOptions {
  url: string;
  key: string;
  maxLen: number;
  delivery: Delivery;
  tally: Tally;
}

export function redisSink({ url, key, maxLen, delivery, tally }: RedisSinkOptions): Sink {
  const redis = new Redis(url, { ...BASE_OPTIONS, commandTimeout: COMMAND_TIMEOUT_MS });
  // Until the first connection succeeds or fails, a record that misses Redis is counted but no
  // outage is announced: the gateway is only starting.
  let starting = true;
  let closed = false;
  let lastError = 'not connected yet';
  redis.on('error', (error: Error) => {
    lastError = error.message;
    starting = false;
  });
  redis.on('ready', () => {
    starting = false;
  });

  const missed = (record: AuditRecord, reason: string) => {
    // Neither the first connection still being made nor one closed on purpose is an outage.
    if (starting || closed) tally.failed();
    else delivery.missed(record, reason);
  };

  return {
    write: (json, record) => {
      if (redis.status !== 'ready') return missed(record, lastError);
      redis.xadd(key, 'MAXLEN', '~', maxLen, '*', 'record', json).then(
        () => delivery.reached(),
        (error: Error) => missed(record, error.message),
      );
    },
    close: async () => {
      closed = true;
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
