import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Redis } from 'ioredis';
import { askRedis, haveRedisServer, SentinelSet, until } from '../test/redis.ts';
import { mustSkip } from '../test/skip.ts';
import { connectRedis } from './redis-options.ts';

/** The shared Redis of these machines and CI (never stopped by a test). */
const TARGET = { url: 'redis://127.0.0.1:6379' };

const opened: Redis[] = [];
afterEach(() => {
  for (const redis of opened.splice(0)) redis.disconnect();
});

function connection(): Redis {
  const redis = connectRedis(TARGET);
  redis.on('error', () => {});
  opened.push(redis);
  return redis;
}

const settled = (redis: Redis, status: string, withinMs: number) =>
  new Promise<string>((resolve) => {
    const started = Date.now();
    const look = () => (redis.status === status || Date.now() - started > withinMs ? resolve(redis.status) : setTimeout(look, 20));
    look();
  });

describe('connectRedis', () => {
  it('connects again a connection ioredis ended because a reconnect was asked while it was connecting (what a failover announcement does)', async () => {
    const redis = connection();
    // ioredis: a connect that fails ends the client for good; a Sentinel's +switch-master arriving
    // while a connection is being made is such a failure ("Connection is closed").
    expect(redis.status).toBe('connecting');
    redis.disconnect(true);
    expect(await settled(redis, 'ready', 5_000)).toBe('ready');
    expect(await redis.ping()).toBe('PONG');
  });

  it('leaves ended a connection the gateway closed itself, with quit or disconnect', async () => {
    const quitting = connection();
    await settled(quitting, 'ready', 5_000);
    await quitting.quit();
    const disconnected = connection();
    disconnected.disconnect();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect([quitting.status, disconnected.status]).toEqual(['end', 'end']);
  });
});

const noRedisServer = mustSkip(haveRedisServer, 'Sentinel connections: redis-server is not installed (CI has it)');

describe.skipIf(noRedisServer)('connectRedis with Sentinels', () => {
  let set: SentinelSet;
  beforeAll(async () => {
    set = await SentinelSet.start();
  }, 60_000);
  afterAll(async () => set?.stop());

  const sentinelTarget = () => ({ sentinels: set.sentinels, name: set.name, password: undefined, sentinelPassword: undefined });
  /** Clients subscribed at each Sentinel (ioredis' failover detector holds one per Sentinel per connection). */
  const subscribers = (ports: number[]) =>
    Promise.all(ports.map((port) => askRedis(port, async (r) => ((await r.call('CLIENT', 'LIST')) as string).split('\n').filter((line) => / sub=[1-9]/.test(line)).length)));

  it('lets go of the Sentinels when the gateway closes the connection (ioredis keeps its failover detector subscribed after a quit)', async () => {
    const ports = set.sentinels.map((s) => s.port);
    const before = await subscribers(ports);
    const redis = connectRedis(sentinelTarget());
    redis.on('error', () => {});
    await until('the failover detector to subscribe at every Sentinel', async () => (await subscribers(ports)).every((n, i) => n === before[i]! + 1));
    await redis.quit();
    await until('the Sentinels to have no subscriber of it left', async () => (await subscribers(ports)).every((n, i) => n === before[i]), 5_000);
  });

  it('writes nothing to stderr when a Sentinel stops answering: its failover detector retries it quietly', async () => {
    const printed = vi.spyOn(console, 'error');
    const redis = connectRedis(sentinelTarget(), { sentinelReconnectStrategy: () => 50 });
    redis.on('error', () => {});
    try {
      await until('the failover detector to subscribe', async () => (await subscribers([set.sentinels[2]!.port]))[0]! > 0);
      await set.stopSentinel(2);
      // Several retries of the stopped Sentinel, each refused.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(printed.mock.calls.filter(([first]) => String(first).includes('[ioredis]'))).toEqual([]);
      expect(await redis.ping()).toBe('PONG');
    } finally {
      printed.mockRestore();
      redis.disconnect();
    }
  });
});
