import { randomUUID } from 'node:crypto';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { parse, print, type DocumentNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CACHE } from '../../src/settings/index.ts';
import { createGateway, type Gateway } from '../../src/gateway.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { bankEvent, deliverEvent } from '../helpers/deliver.ts';
import { CardUpdateDocument } from '../generated/graphql.ts';
import { startKit, type Kit } from '../helpers/kit.ts';
import { freePort, haveRedisServer, OwnRedis } from '../helpers/redis.ts';
import { mustSkip } from '../helpers/skip.ts';
import { postGraphql } from '../helpers/http.ts';
import { until } from '../helpers/wait.ts';

/**
 * The record cache on several instances: a write through one drops what it changed on every other
 * (Redis pub/sub), and an instance that cannot hear the others bypasses its cache. A Redis of the
 * test's own, on a free port, stopped by its PID; skipped, saying why, without redis-server (CI has it).
 */
const skip = mustSkip(haveRedisServer, 'record cache across instances: redis-server is not installed (CI has it)');

const AVA_CARD = 'crd_demo_ava_v';
const CARD_LIST = '/svc/api/v1/card';
const CARD = parse(`{ card(id: "${AVA_CARD}") { status } }`);
const cache = { ...DEFAULT_CACHE, enabled: true };

async function run(gateway: Gateway, document: DocumentNode, variables?: Record<string, unknown>) {
  const answer = await postGraphql<{ data?: Record<string, unknown>; errors?: unknown[] }>(
    'http://gateway.test/graphql',
    { query: print(document), variables },
    {},
    { fetch: gateway.yoga.fetch },
  );
  return answer.body;
}

describe.skipIf(skip)('record cache across instances (Redis)', () => {
  let redis: OwnRedis;
  let first: Kit;
  let second: Gateway;
  beforeAll(async () => {
    redis = new OwnRedis(await freePort());
    await redis.start();
    const redisKeyPrefix = `test-cache-${randomUUID()}`;
    first = await startKit({ cache: true, listen: true, redis: { url: redis.url }, redisKeyPrefix });
    // A second instance on the same bank and the same Redis.
    second = createGateway({
      upstream: { ...first.upstreamConfig, cache },
      logger: createLogger('silent'),
      redis: { url: redis.url },
      redisKeyPrefix,
    });
    await second.events.ready;
    await until(
      'both instances to listen for invalidations',
      () => first.gateway.upstream.cache!.trusted && second.upstream.cache!.trusted,
    );
  });
  afterAll(async () => {
    await second?.server.stop(1_000);
    await first?.close();
    await redis?.stop();
  });

  it('drops on one instance what a write through the other changed', async () => {
    expect((await run(first.gateway, CARD)).data).toEqual({ card: { status: 'ACTIVE' } });
    await first.resetCounts();
    expect((await run(first.gateway, CARD)).data).toEqual({ card: { status: 'ACTIVE' } });
    expect(first.calls(CARD_LIST)).toHaveLength(0);

    const invalidations = first.gateway.upstream.cache!.stats.invalidations;
    const updated = await run(second, CardUpdateDocument, {
      input: { cardId: encodeGlobalID('Card', AVA_CARD), status: 'INACTIVE', updatedBy: 'Jane Doe' },
    });
    expect(updated.errors).toBeUndefined();
    await until("the other instance's invalidation", () => first.gateway.upstream.cache!.stats.invalidations > invalidations);
    await first.resetCounts();
    expect((await run(first.gateway, CARD)).data).toEqual({ card: { status: 'INACTIVE' } });
    expect(first.calls(CARD_LIST)).toHaveLength(1);
  });

  it('drops what an event changed on every instance, once on each: the one that took it and the other', async () => {
    const caches = [first.gateway.upstream.cache!, second.upstream.cache!];
    // Each instance's own subscription: the event reaches it only after its invalidation there.
    const arrivals = await Promise.all([first.gateway.events.subscribe(), second.events.subscribe()]);
    const before = caches.map((cache) => cache.stats.invalidations);
    expect((await deliverEvent(first.baseUrl, bankEvent(`ga_${Date.now()}`, 'ga.new'))).status).toBe(202);
    expect(caches[0]!.stats.invalidations).toBe(before[0]! + 1);
    for (const arrival of arrivals) expect((await arrival.next()).done).toBe(false);
    expect(caches.map((cache) => cache.stats.invalidations)).toEqual(before.map((count) => count + 1));
    for (const arrival of arrivals) await arrival.return?.();
  });

  it('reads from the bank while Redis is away, and trusts its cache again once it listens', async () => {
    await run(first.gateway, CARD);
    await redis.stop();
    await until('the cache to stop trusting itself', () => !first.gateway.upstream.cache!.trusted);
    await first.resetCounts();
    await run(first.gateway, CARD);
    await run(first.gateway, CARD);
    expect(first.calls(CARD_LIST)).toHaveLength(2);

    await redis.start();
    await until('the cache to trust itself again', () => first.gateway.upstream.cache!.trusted, { timeoutMs: 10_000 });
    await first.resetCounts();
    await run(first.gateway, CARD);
    await run(first.gateway, CARD);
    expect(first.calls(CARD_LIST)).toHaveLength(1);
  });
});
