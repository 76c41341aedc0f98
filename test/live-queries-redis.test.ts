import { randomUUID } from 'node:crypto';
import { createClient } from 'graphql-ws';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../src/gateway.ts';
import { createLogger } from '../src/logger.ts';
import { startKit, type Kit } from './kit.ts';
import { REDIS_URL, redisAnswers, until } from './redis.ts';
import { mustSkip } from './skip.ts';

/**
 * Live queries on two instances sharing Redis: a deposit whose event one instance accepts re-runs
 * the live dashboards of both, each instance reading the balance from the bank once for all of its
 * own. Needs Redis (REDIS_URL, default 127.0.0.1:6379): CI has it; elsewhere this is skipped and says why.
 */

const haveRedis = await redisAnswers(REDIS_URL);
const skip = mustSkip(haveRedis || Boolean(process.env.CI), `live queries across instances: no Redis at ${REDIS_URL}; start redis-server or set REDIS_URL (CI has it)`);

const DASHBOARD = 'query Dashboard @live { balances { currency available { amount } } }';
const PER_INSTANCE = 5;

type Result = { data?: { balances: { currency: string; available: { amount: string } }[] } };
const usd = (result: Result | undefined) => Number(result?.data?.balances.find((balance) => balance.currency === 'USD')?.available.amount);

describe.skipIf(skip)('live queries across instances (Redis)', () => {
  const redisKeyPrefix = `test-live-${randomUUID()}`;
  let first: Kit;
  let second: Gateway;
  let secondUrl: string;
  const disposals: (() => unknown)[] = [];

  beforeAll(async () => {
    first = await startKit({
      listen: true,
      reconcileWebhooks: true,
      webhooks: { agentCode: 'AG-LIVE-R', subagentCode: 'SUB-LIVE-R', companyCode: 'CO-LIVE-R' },
      redis: { url: REDIS_URL },
      redisKeyPrefix,
    });
    // A second instance on the same bank and the same Redis; the bank delivers its webhooks to the first.
    second = createGateway({ upstream: first.upstreamConfig, logger: createLogger('silent'), redis: { url: REDIS_URL }, redisKeyPrefix });
    await second.events.ready;
    secondUrl = `ws://127.0.0.1:${(await second.server.listen(0, '127.0.0.1')).port}/graphql`;
  });
  afterAll(async () => {
    for (const dispose of disposals) await dispose();
    await second?.server.stop(1_000);
    await first?.close();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`*${redisKeyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  function dashboards(url: string): Result[][] {
    const client = createClient({ url });
    disposals.push(() => client.dispose());
    return Array.from({ length: PER_INSTANCE }, () => {
      const results: Result[] = [];
      client.subscribe({ query: DASHBOARD }, { next: (result) => void results.push(result as Result), error: () => {}, complete: () => {} });
      return results;
    });
  }

  it('pushes every dashboard on both instances the new balance after one deposit, one balance read per instance', async () => {
    const screens = [...dashboards(first.baseUrl!.replace(/^http/, 'ws') + '/graphql'), ...dashboards(secondUrl)];
    await until('every first result', () => screens.every((results) => results.length === 1));
    const before = usd(screens[0]![0]);
    await first.resetCounts();
    await first.control('POST', 'deposits', { currency: 'USD', amount: 725, payer_name: 'Initech' });
    await until('every new balance', () => screens.every((results) => results.length === 2));
    expect(screens.map((results) => usd(results[1]))).toEqual(Array.from({ length: 2 * PER_INSTANCE }, () => before + 725));
    expect(first.calls('/svc/api/v1/account/balance')).toHaveLength(2);
    expect([first.gateway.live.stats().open, second.live.stats().open]).toEqual([PER_INSTANCE, PER_INSTANCE]);
  });
});
