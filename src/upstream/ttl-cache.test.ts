import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache.ts';

describe('TtlCache', () => {
  it('loads once per key within the TTL, shares concurrent misses, reloads after expiry', async () => {
    let now = 1_000;
    let loads = 0;
    const cache = new TtlCache<number>({ ttlMs: 1000, now: () => now });
    const load = async () => ++loads;
    expect(await Promise.all([cache.get('a', load), cache.get('a', load)])).toEqual([1, 1]);
    now = 1_999;
    expect(await cache.get('a', load)).toBe(1);
    // Past its TTL (lru-cache counts an entry stale once more than ttl has passed).
    now = 2_001;
    expect(await cache.get('a', load)).toBe(2);
    expect(await cache.get('b', load)).toBe(3);
  });

  it('does not keep a failed load', async () => {
    const cache = new TtlCache<string>({ ttlMs: 1000 });
    await expect(cache.get('k', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.get('k', async () => 'ok')).toBe('ok');
  });

  it('evicts the oldest entries beyond its size', async () => {
    let loads = 0;
    const cache = new TtlCache<number>({ ttlMs: 10_000, maxEntries: 2 });
    const load = async () => ++loads;
    await cache.get('a', load);
    await cache.get('b', load);
    await cache.get('c', load);
    expect(await cache.get('a', load)).toBe(4);
  });
});
