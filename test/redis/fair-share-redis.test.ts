import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/authentication/api-keys.ts';
import type { CallerAuthConfig } from '../../src/settings/index.ts';
import { postGraphql } from '../helpers/http.ts';
import { startKit, type Kit } from '../helpers/kit.ts';
import { registerSecret } from '../helpers/leak-scan.ts';
import { capturingLogger, metric } from '../helpers/observe.ts';
import { until } from '../helpers/wait.ts';
import { freePort, haveRedisServer, OwnRedis, REDIS_URL, redisAnswers } from '../helpers/redis.ts';
import { mustSkip } from '../helpers/skip.ts';

/**
 * Operations per client counted in Redis: one window across every instance sharing the key prefix,
 * and a Redis failing under it (a redis-server of the test's own, stopped by its PID): operations
 * are then counted by each instance alone, said once in the log and on /metrics, and shared again
 * once Redis is back. Needs Redis and redis-server (CI has both); skipped, saying why, without.
 */

const KEY = 'gwk_test-redis-flood-key-0123456789abcdef';
const OTHER = 'gwk_test-redis-quiet-key-0123456789abcdef';
registerSecret('a caller API key', KEY);
registerSecret('a caller API key', OTHER);
const SERVICE: CallerAuthConfig = {
  mode: 'service',
  apiKeys: [
    { name: 'flood', sha256: sha256Hex(KEY), roles: ['viewer'], cardholderId: null },
    { name: 'quiet', sha256: sha256Hex(OTHER), roles: ['viewer'], cardholderId: null },
  ],
  jwt: undefined,
  allowedOrigins: [],
};
const BALANCES = '{ balances { currency } }';
const LIMIT = { operations: 5, windowSeconds: 60 };
const status = async (kit: Kit, key = KEY) =>
  (await postGraphql(`${kit.baseUrl}/graphql`, { query: BALANCES }, { 'x-api-key': key })).status;

const haveRedis = await redisAnswers(REDIS_URL);
const skipShared = mustSkip(
  haveRedis || Boolean(process.env.CI),
  `operations per client across instances: no Redis at ${REDIS_URL} (CI has it)`,
);
const skipFaults = mustSkip(haveRedisServer, 'operations per client with Redis failing: redis-server is not installed (CI has it)');

/** A gateway counting in `redisUrl` under `prefix` (its events under a prefix of their own too). */
function gateway(redisUrl: string, prefix: string, logger?: ReturnType<typeof capturingLogger>['logger']): Promise<Kit> {
  return startKit({
    listen: true,
    auth: SERVICE,
    redis: { url: redisUrl },
    redisKeyPrefix: `${prefix}-events`,
    clientRateLimit: LIMIT,
    clientRateLimitKeyPrefix: prefix,
    ...(logger ? { logger } : {}),
  });
}

describe.skipIf(skipShared)('operations per client across instances (Redis)', () => {
  let a: Kit;
  let b: Kit;
  beforeAll(async () => {
    const prefix = `test-client-operations-${randomUUID()}`;
    [a, b] = await Promise.all([gateway(REDIS_URL, prefix), gateway(REDIS_URL, prefix)]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it("counts a client's operations on either instance against one window", async () => {
    const served = [await status(a), await status(b), await status(a), await status(b), await status(a)];
    expect(served).toEqual([200, 200, 200, 200, 200]);
    // The sixth, on the instance that served only two of them, is over the window.
    expect(await status(b)).toBe(429);
    expect(await status(a)).toBe(429);
    expect([await status(a, OTHER), await status(b, OTHER)]).toEqual([200, 200]);
    expect([await metric(a, 'gateway_client_rate_limit_shared'), await metric(b, 'gateway_client_rate_limit_shared')]).toEqual([1, 1]);
  });
});

describe.skipIf(skipFaults)('operations per client with Redis failing', () => {
  let redis: OwnRedis;
  let kit: Kit | undefined;
  beforeAll(async () => {
    redis = new OwnRedis(await freePort());
  });
  afterEach(async () => {
    await kit?.close();
    kit = undefined;
    await redis.stop();
  });

  it('counts on this instance alone while Redis is away, says so once, and shares the count again once it is back', async () => {
    const log = capturingLogger();
    await redis.start();
    kit = await gateway(redis.url, `test-client-operations-${randomUUID()}`, log.logger);
    const served = kit;
    expect(await status(served)).toBe(200);
    // Shared once its connection is ready, which on a busy machine may come after the first operation
    // (counted locally meanwhile, without a warning).
    await until('the count shared in Redis', async () => (await metric(served, 'gateway_client_rate_limit_shared')) === 1);

    await redis.stop();
    // Neither crashed nor unlimited: the window goes on in memory, from nothing, and still holds.
    const during = [];
    for (let i = 0; i < LIMIT.operations + 2; i++) during.push(await status(served));
    expect(during).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(await status(served, OTHER)).toBe(200);
    expect(await metric(served, 'gateway_client_rate_limit_shared')).toBe(0);
    expect(log.messages(/operations per client are counted by this instance alone/)).toHaveLength(1);

    await redis.start();
    // ioredis reconnects on its own schedule (at most 2 s apart); one operation a second tries Redis again.
    for (let i = 0; i < 100 && (await metric(served, 'gateway_client_rate_limit_shared')) !== 1; i++) {
      await postGraphql(`${served.baseUrl}/graphql`, { query: BALANCES }, { 'x-api-key': OTHER });
      await sleep(100);
    }
    expect(await metric(served, 'gateway_client_rate_limit_shared')).toBe(1);
    expect(log.messages(/operations per client are counted across instances again/)).toHaveLength(1);
    // The new Redis knows nothing of the flooder's window: it is counted there afresh.
    expect(await status(served)).toBe(200);
    expect(log.messages(/operations per client are counted by this instance alone/)).toHaveLength(1);
  });
});
