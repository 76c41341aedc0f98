import { LRUCache } from 'lru-cache';
import { describe, expect, it } from 'vitest';
import { heapRetainedBy } from '../../test/helpers/gc.ts';
import { entryBound } from './lru-bounds.ts';

describe('entryBound', () => {
  it('holds at most its number of entries, the least recently used out first', () => {
    const cache = new LRUCache<string, number>({ ...entryBound(3) });
    cache.set('a', 1).set('b', 2).set('c', 3);
    cache.get('a');
    cache.set('d', 4);
    expect([...cache.keys()].sort()).toEqual(['a', 'c', 'd']);
    cache.set('e', 5).set('f', 6);
    expect(cache.size).toBe(3);
    // The order of use was c, a, d: e puts c out, f puts a out.
    expect([...cache.keys()].sort()).toEqual(['d', 'e', 'f']);
  });

  it('keeps its bound with a ttl, entries expiring as before', () => {
    let now = 5_000;
    const cache = new LRUCache<string, true>({
      ...entryBound(2),
      ttl: 1_000,
      ttlAutopurge: false,
      ttlResolution: 0,
      perf: { now: () => now },
    });
    cache.set('a', true).set('b', true).set('c', true);
    expect([...cache.keys()].sort()).toEqual(['b', 'c']);
    now = 6_001;
    expect(cache.has('b')).toBe(false);
    cache.set('d', true);
    expect(cache.get('d')).toBe(true);
  });

  it('reserves nothing for the entries it does not hold (max reserves them all when the cache is made)', () => {
    const made: LRUCache<string, true>[] = [];
    const heapGrowth = (make: () => LRUCache<string, true>) =>
      heapRetainedBy(() => {
        for (let i = 0; i < 10; i++) made.push(make());
      });
    const reserved = heapGrowth(() => new LRUCache({ max: 100_000, ttl: 60_000 }));
    const bounded = heapGrowth(() => new LRUCache({ ...entryBound(100_000), ttl: 60_000 }));
    // Ten caches of 100,000 reserved by max: about 40 MB on the heap (arrays of 8-byte slots).
    expect(reserved).toBeGreaterThan(20 * 1024 * 1024);
    expect(bounded).toBeLessThan(1024 * 1024);
    expect(made).toHaveLength(20);
  });

  it('refuses a bound that is not a positive integer, naming it', () => {
    expect(() => entryBound(0)).toThrow(/maxEntries must be a positive integer, got 0/);
    expect(() => entryBound(1.5)).toThrow(/maxEntries/);
  });
});
