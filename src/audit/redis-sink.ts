import type { RedisTarget } from '../settings/index.ts';
import { connectRedis } from '../platform/redis-options.ts';
import type { AuditRecord } from './record.ts';
import type { Delivery, Sink, Tally } from './sink.ts';

/**
 * Records appended to a Redis Stream that every instance shares, capped near `maxLen` entries so it
 * cannot fill Redis: one place to read the whole gateway's attempts, the recent ones. It is a copy:
 * the primary destination (stdout or a file) has every record, so Redis failing costs no mutation
 * its answer. The connection is the gateway's usual one (redis-options.ts): a command
 * never waits for a connection (no offline queue), ioredis reconnects by itself, backing off to 2 s;
 * and a command never takes longer than COMMAND_TIMEOUT_MS.
 */

const COMMAND_TIMEOUT_MS = 250;

export interface RedisSinkOptions {
  target: RedisTarget;
  key: string;
  maxLen: number;
  delivery: Delivery;
  tally: Tally;
}

/** Records kept while the first connection is being made: a gateway's first seconds lose none. */
const MAX_WAITING = 1_000;

export function redisSink({ target, key, maxLen, delivery, tally }: RedisSinkOptions): Sink {
  const redis = connectRedis(target, { commandTimeout: COMMAND_TIMEOUT_MS });
  // Until the first connection succeeds or fails, records wait for it (no outage is announced: the
  // gateway is only starting); once it has failed, they are missed and said.
  let waiting: { json: string; record: AuditRecord }[] | undefined = [];
  let closed = false;
  let lastError = 'not connected yet';

  const missed = (record: AuditRecord, reason: string) => {
    // A connection closed on purpose is no outage: the primary destination has the record.
    if (closed) tally.failed();
    else delivery.missed(record, reason);
  };
  const send = (json: string, record: AuditRecord) => {
    redis.xadd(key, 'MAXLEN', '~', maxLen, '*', 'record', json).then(
      () => delivery.reached(),
      (error: Error) => missed(record, error.message),
    );
  };
  const release = (each: (entry: { json: string; record: AuditRecord }) => void) => {
    const held = waiting ?? [];
    waiting = undefined;
    for (const entry of held) each(entry);
  };
  redis.on('ready', () => release(({ json, record }) => send(json, record)));
  redis.on('error', (error: Error) => {
    lastError = error.message;
    release(({ record }) => missed(record, lastError));
  });

  return {
    write: (json, record) => {
      if (redis.status === 'ready') return send(json, record);
      if (waiting && waiting.length < MAX_WAITING) return void waiting.push({ json, record });
      missed(record, lastError);
    },
    close: async () => {
      closed = true;
      release(({ record }) => missed(record, 'the audit trail closed before Redis answered'));
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
