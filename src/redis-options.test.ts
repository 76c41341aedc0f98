import { afterEach, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
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
