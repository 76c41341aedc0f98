import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientRateLimiter, type ClientRateLimiter } from '../../src/limits/client-rate-limit.ts';
import { capturingLogger } from '../helpers/observe.ts';
import { askRedis, freePort, haveRedisServer, OwnRedis } from '../helpers/redis.ts';
import { until } from '../helpers/wait.ts';
import { mustSkip } from '../helpers/skip.ts';

/**
 * A reconnect does not split a client's window: the operations that come while the connection that
 * counted in Redis closes and reopens (what a Sentinel's switch of primaries does to every client)
 * wait for it and are counted in Redis, not in the instance's memory. A redis-server of the test's
 * own, its client connections killed from another; skipped, saying why, without redis-server.
 */

const skip = mustSkip(haveRedisServer, 'operations per client through a reconnect: redis-server is not installed (CI has it)');
const LIMIT = { points: 5, windowSeconds: 60 };

describe.skipIf(skip)('operations per client through a Redis reconnect', () => {
  let redis: OwnRedis;
  let limiter: ClientRateLimiter;
  const log = capturingLogger();
  const shared: boolean[] = [];
  beforeAll(async () => {
    redis = new OwnRedis(await freePort());
    await redis.start();
    limiter = createClientRateLimiter({
      ...LIMIT,
      redis: { url: redis.url },
      keyPrefix: `test-reconnect-${randomUUID()}`,
      logger: log.logger,
      observer: { shared: (up) => shared.push(up) },
    });
  });
  afterAll(async () => {
    await limiter?.close();
    await redis?.remove();
  });

  it("counts the operations that arrive during a reconnect in Redis: each client's limit holds, and no outage is reported", async () => {
    // Until its connection is up, a limiter counts in memory without a word: a probe client's operations wait for it.
    await until(
      'the limiter to count in Redis',
      async () => {
        await limiter.take(`probe-${randomUUID()}`);
        return shared.at(-1) === true;
      },
      { intervalMs: 100 },
    );
    // Where an operation meets the reconnect depends on timing (before the close is seen, during the
    // reconnect, after it): several rounds meet each of them, and every round must hold.
    const refusedSixth: boolean[] = [];
    for (let round = 0; round < 8; round++) {
      const client = `client-${randomUUID()}`;
      expect(await limiter.take(client)).toEqual({ allowed: true });
      // Every client connection but the killer's: the limiter's closes, and ioredis reopens it.
      await askRedis(redis.port, (admin) => admin.client('KILL', 'TYPE', 'normal', 'SKIPME', 'yes'));
      const during = await Promise.all([1, 2, 3, 4].map(() => limiter.take(client)));
      expect(during).toEqual([1, 2, 3, 4].map(() => ({ allowed: true })));
      // The sixth operation of a window of five: refused when all five were counted in Redis.
      refusedSixth.push(!(await limiter.take(client)).allowed);
    }
    expect(refusedSixth).toEqual(refusedSixth.map(() => true));
    expect(shared).not.toContain(false);
    expect(log.messages(/Redis is unreachable/)).toEqual([]);
  });
});
