import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Redis } from 'ioredis';
import { FakeSentinel } from '../helpers/fake-sentinel.ts';
import { askRedis, haveRedisServer, SentinelSet } from '../helpers/redis.ts';
import { until } from '../helpers/wait.ts';
import { mustSkip } from '../helpers/skip.ts';
import { connectRedis } from '../../src/platform/redis-options.ts';

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

describe('connectRedis following failovers the Sentinels announce', () => {
  let sentinel: FakeSentinel;
  beforeAll(async () => {
    sentinel = await FakeSentinel.start({ host: '127.0.0.1', port: 6379 });
  });
  afterAll(async () => sentinel?.stop());
  const target = () => ({ sentinels: [{ host: '127.0.0.1', port: sentinel.port }], name: 'fake-group' });

  /** A connection through the fake Sentinel, and how many times it has closed. */
  async function followed(options = {}) {
    const redis = connectRedis(target(), options);
    redis.on('error', () => {});
    opened.push(redis);
    let closes = 0;
    redis.on('close', () => (closes += 1));
    return { redis, closes: () => closes };
  }

  it('stays on the primary a Sentinel announces when it is on it already, and moves on an announcement of another', async () => {
    const { redis, closes } = await followed();
    expect(await settled(redis, 'ready', 5_000)).toBe('ready');
    await until('the Sentinel to have a listener', () => sentinel.subscribers > 0);
    // A later Sentinel announcing the failover the connection has followed already, and another group's:
    // both are read within milliseconds on loopback (a busy machine can only make this pass late, never fail).
    sentinel.announce('fake-group', { host: '127.0.0.1', port: 6379 });
    sentinel.announce('another-group', { host: '127.0.0.1', port: 1 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(closes()).toBe(0);
    // Then one naming another primary.
    sentinel.announce('fake-group', { host: '127.0.0.1', port: 1 });
    await until('the connection to move', () => closes() === 1, { timeoutMs: 5_000 });
    expect(await settled(redis, 'ready', 5_000)).toBe('ready');
    expect(closes()).toBe(1);
    expect(await redis.ping()).toBe('PONG');
  });

  it('asks the Sentinels at once, on an announcement, for a connection waiting out its retry delay', async () => {
    sentinel.primary = { host: '127.0.0.1', port: 1 };
    try {
      const { redis } = await followed({ retryStrategy: () => 60_000 });
      expect(await settled(redis, 'reconnecting', 5_000)).toBe('reconnecting');
      sentinel.primary = { host: '127.0.0.1', port: 6379 };
      sentinel.announce('fake-group', sentinel.primary);
      // Well before its next try, a minute away.
      expect(await settled(redis, 'ready', 5_000)).toBe('ready');
    } finally {
      sentinel.primary = { host: '127.0.0.1', port: 6379 };
    }
  });

  it('listens to the Sentinels once for all its connections, and lets go of them with the last one', async () => {
    const first = await followed();
    const second = await followed();
    await until('both connections to be ready', () => first.redis.status === 'ready' && second.redis.status === 'ready');
    expect(sentinel.subscribers).toBe(1);
    await first.redis.quit();
    expect(sentinel.subscribers).toBe(1);
    await second.redis.quit();
    await until('the Sentinel to have no listener left', () => sentinel.subscribers === 0, { timeoutMs: 5_000 });
  });
});

describe.skipIf(noRedisServer)('connectRedis with Sentinels', () => {
  let set: SentinelSet;
  beforeAll(async () => {
    set = await SentinelSet.start();
  }, 60_000);
  afterAll(async () => set?.stop());

  const sentinelTarget = () => ({ sentinels: set.sentinels, name: set.name, password: undefined, sentinelPassword: undefined });
  /** Clients subscribed at each Sentinel. */
  const subscribers = (ports: number[]) =>
    Promise.all(
      ports.map((port) =>
        askRedis(
          port,
          async (r) => ((await r.call('CLIENT', 'LIST')) as string).split('\n').filter((line) => / sub=[1-9]/.test(line)).length,
        ),
      ),
    );

  it('writes nothing to stderr when a Sentinel stops answering: its listener retries it quietly', async () => {
    const printed = vi.spyOn(console, 'error');
    const redis = connectRedis(sentinelTarget());
    redis.on('error', () => {});
    try {
      await until('the failover listener to subscribe', async () => (await subscribers([set.sentinels[2]!.port]))[0]! > 0, {
        intervalMs: 100,
      });
      await set.stopSentinel(2);
      // Several retries of the stopped Sentinel, each refused.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(printed.mock.calls.filter(([first]) => String(first).includes('[ioredis]'))).toEqual([]);
      expect(await redis.ping()).toBe('PONG');
    } finally {
      printed.mockRestore();
      redis.disconnect();
    }
  });
});
