import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bankEvent, deliverEvent } from './deliver.ts';
import { startKit, type Kit } from './kit.ts';
import { capturingLogger, metric } from './observe.ts';
import { freePort, haveRedisServer, OwnRedis } from './redis.ts';
import { mustSkip } from './skip.ts';
import { subscribeWs, type Subscription } from './subscribe.ts';

/**
 * Redis failing under the gateway: down at start, lost mid-run, back again. A Redis of the test's
 * own, on a free port, started and stopped by its PID (never the shared one at 6379). Skipped, with
 * the reason in the title, where redis-server is not installed; CI has it.
 */
const skip = mustSkip(haveRedisServer, 'Redis faults: redis-server is not installed (CI has it)');

async function readyz(kit: Kit) {
  const response = await fetch(`${kit.baseUrl}/readyz`);
  return { status: response.status, body: (await response.json()) as { status: string; detail: string; checks: Record<string, { ok: boolean; detail: string; buffered?: number }> } };
}

const FEED = 'subscription { bankEvents { id } }';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Delivers an event and times the gateway's answer. */
async function timedDelivery(kit: Kit, id: string) {
  const started = performance.now();
  const answer = await deliverEvent(kit.baseUrl, bankEvent(id, 'account.active', { status: 'ACTIVE' }));
  return { ...answer, ms: performance.now() - started };
}

describe.skipIf(skip)('Redis faults', () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  const opened: (Kit | Subscription)[] = [];
  let redis: OwnRedis;

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    redis = new OwnRedis(await freePort());
  });
  afterEach(async () => {
    for (const item of opened.splice(0).reverse()) await item.close();
    await redis.stop();
  });
  afterAll(() => {
    process.off('unhandledRejection', onUnhandled);
  });

  it('starts without Redis: serves its own subscribers, says so once, and shares events once Redis comes', async () => {
    const log = capturingLogger();
    const started = performance.now();
    const kit = await startKit({ listen: true, redisUrl: redis.url, logger: log.logger });
    opened.push(kit);
    expect(performance.now() - started).toBeLessThan(5_000);

    const notReady = await readyz(kit);
    expect(notReady.status).toBe(503);
    expect(notReady.body.checks.redis!.ok).toBe(false);
    expect(notReady.body.detail).toMatch(/^redis: Redis is unreachable since .* \(connect ECONNREFUSED <redis>\)/);
    // /readyz may be reachable from outside: where Redis lives stays in the log.
    expect(JSON.stringify(notReady.body)).not.toContain(`:${redis.port}`);

    const subscriber = await subscribeWs(kit, FEED);
    opened.push(subscriber);
    const delivery = await timedDelivery(kit, 'acct_f1_account.active');
    expect(delivery).toMatchObject({ status: 202, body: { status: 'accepted' } });
    expect(delivery.ms).toBeLessThan(1_000);
    await subscriber.next(1);

    // ioredis retries every few hundred ms: still one warning.
    await pause(1_500);
    expect(log.messages(/Redis is unreachable/)).toHaveLength(1);
    expect(log.lines.filter((l) => l.level >= 40 && /redis/i.test(JSON.stringify(l)))).toHaveLength(1);

    await redis.start();
    await expect.poll(async () => (await readyz(kit)).status, { timeout: 10_000 }).toBe(200);
    expect(log.messages(/Redis connected/)).toHaveLength(1);
    // The event accepted while Redis was away is now in the shared log.
    await expect.poll(() => metric(kit, 'gateway_events_buffer_flushed_total')).toBe(1);
    expect(await metric(kit, 'gateway_events_buffered')).toBe(0);
    expect(subscriber.received).toHaveLength(1);
    expect(unhandled).toEqual([]);
  });

  it('loses Redis mid-run: answers at once, serves local subscribers, keeps subscriptions open, and forwards the buffered events when Redis returns', async () => {
    await redis.start();
    const log = capturingLogger();
    const first = await startKit({ listen: true, redisUrl: redis.url, logger: log.logger });
    const second = await startKit({ listen: true, redisUrl: redis.url });
    opened.push(first, second);
    const onFirst = await subscribeWs(first, FEED);
    const onSecond = await subscribeWs(second, FEED);
    opened.push(onFirst, onSecond);

    expect((await timedDelivery(first, 'acct_m1_account.active')).status).toBe(202);
    await onFirst.next(1);
    await onSecond.next(1);

    await redis.stop();
    await expect.poll(async () => (await readyz(first)).status).toBe(503);
    const down = await readyz(second);
    expect(down).toMatchObject({ status: 503, body: { status: 'not ready', checks: { redis: { ok: false } } } });

    const during = [await timedDelivery(first, 'acct_m2_account.active'), await timedDelivery(first, 'acct_m3_account.active')];
    for (const delivery of during) {
      expect(delivery.status).toBe(202);
      expect(delivery.ms).toBeLessThan(1_000);
    }
    // This instance's subscribers have them at once; the other instance's wait for Redis.
    await onFirst.next(3);
    await pause(300);
    expect(onSecond.received).toHaveLength(1);
    expect(first.gateway.events.activeSubscriptions()).toBe(1);
    expect(second.gateway.events.activeSubscriptions()).toBe(1);
    expect((await readyz(first)).body.checks.redis!.buffered).toBe(2);

    await redis.start();
    await onSecond.next(3, 15_000);
    expect(onSecond.received.map((r) => r.data.bankEvents.id)).toEqual(['acct_m1_account.active', 'acct_m2_account.active', 'acct_m3_account.active']);
    await expect.poll(async () => (await readyz(first)).status, { timeout: 10_000 }).toBe(200);

    // Events flow across instances again, both ways, with nothing twice.
    expect((await timedDelivery(second, 'acct_m4_account.active')).status).toBe(202);
    await onFirst.next(4);
    await pause(300);
    expect(onFirst.received.map((r) => r.data.bankEvents.id)).toEqual(['acct_m1_account.active', 'acct_m2_account.active', 'acct_m3_account.active', 'acct_m4_account.active']);
    expect(onSecond.received).toHaveLength(4);
    expect(await metric(first, 'gateway_events_buffer_flushed_total')).toBe(2);
    expect(log.messages(/never reached the other instances/)).toEqual([]);

    // One line when Redis went away, one when it came back.
    expect(log.messages(/Redis is unreachable/)).toHaveLength(1);
    expect(log.messages(/Redis is back/)).toHaveLength(1);
    expect(unhandled).toEqual([]);
  });

  it('answers within a second while Redis hangs (connections open, no answers), and shares the events once it answers again', async () => {
    await redis.start();
    const first = await startKit({ listen: true, redisUrl: redis.url });
    const second = await startKit({ listen: true, redisUrl: redis.url });
    opened.push(first, second);
    const onFirst = await subscribeWs(first, FEED);
    const onSecond = await subscribeWs(second, FEED);
    opened.push(onFirst, onSecond);

    redis.pause(true);
    const deliveries = [await timedDelivery(first, 'acct_h1_account.active'), await timedDelivery(first, 'acct_h2_account.active')];
    for (const delivery of deliveries) {
      expect(delivery.status).toBe(202);
      expect(delivery.ms).toBeLessThan(1_000);
    }
    await onFirst.next(2);
    expect((await readyz(first)).status).toBe(503);

    redis.pause(false);
    await onSecond.next(2, 15_000);
    expect(onSecond.received.map((r) => r.data.bankEvents.id)).toEqual(['acct_h1_account.active', 'acct_h2_account.active']);
    await expect.poll(async () => (await readyz(first)).status, { timeout: 15_000 }).toBe(200);
    await pause(300);
    expect(onFirst.received).toHaveLength(2);
    expect(unhandled).toEqual([]);
  });

  it('says in its log which events the other instances will never get when it stops while Redis is away', async () => {
    await redis.start();
    const log = capturingLogger();
    const kit = await startKit({ listen: true, redisUrl: redis.url, logger: log.logger });
    await redis.stop();
    await expect.poll(async () => (await readyz(kit)).status).toBe(503);
    expect((await timedDelivery(kit, 'acct_s1_account.active')).status).toBe(202);
    await kit.close();
    expect(log.messages(/never reached the other instances/)).toEqual([expect.objectContaining({ level: 50, lost: 1, eventIds: ['acct_s1_account.active'] })]);
    expect(unhandled).toEqual([]);
  });
});
