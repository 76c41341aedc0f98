import { describe, expect, it } from 'vitest';
import { RecordCache } from './record-cache.ts';

const TTLS = { records: 1_000, rates: 100, reference: 10_000 };
/** A read's key and policy, as the record cache stage hands them over. */
const read = (key: string, kinds: ('accounts' | 'cards')[] = ['accounts']) => [key, { kinds, ttl: 'records' as const }] as const;

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('RecordCache', () => {
  it('keeps an answer until its TTL, then reads again', async () => {
    // lru-cache reads a start time of 0 as "never set": the clock starts later.
    let now = 1;
    const cache = new RecordCache({ ttls: TTLS, maxEntries: 10, now: () => now });
    let loads = 0;
    const load = async () => ({ n: ++loads });
    expect(await cache.read(...read('a'), load)).toEqual({ n: 1 });
    now = 1_000;
    expect(await cache.read(...read('a'), load)).toEqual({ n: 1 });
    now = 1_002;
    expect(await cache.read(...read('a'), load)).toEqual({ n: 2 });
    expect(cache.stats).toMatchObject({ hits: 1, misses: 2 });
  });

  it('drops only the kinds invalidated', async () => {
    const cache = new RecordCache({ ttls: TTLS, maxEntries: 10 });
    let loads = 0;
    const load = async () => ++loads;
    await cache.read(...read('balances', ['accounts']), load);
    await cache.read(...read('card', ['cards']), load);
    cache.invalidate(['cards']);
    expect(await cache.read(...read('balances', ['accounts']), load)).toBe(1);
    expect(await cache.read(...read('card', ['cards']), load)).toBe(3);
  });

  it('does not keep a read that was on its way when its records changed', async () => {
    const cache = new RecordCache({ ttls: TTLS, maxEntries: 10 });
    const slow = deferred<string>();
    const before = cache.read(...read('a'), () => slow.promise);
    cache.invalidate(['cards']);
    slow.resolve('old state');
    expect(await before).toBe('old state');
    expect(await cache.read(...read('a'), async () => 'new state')).toBe('new state');
  });

  it('shares one load between concurrent reads, but not across an invalidation', async () => {
    const cache = new RecordCache({ ttls: TTLS, maxEntries: 10 });
    const first = deferred<string>();
    let loads = 0;
    const a = cache.read(...read('a'), () => (loads++, first.promise));
    const b = cache.read(...read('a'), async () => (loads++, 'unused'));
    cache.invalidate(['accounts']);
    const c = cache.read(...read('a'), async () => (loads++, 'after'));
    first.resolve('before');
    expect([await a, await b, await c]).toEqual(['before', 'before', 'after']);
    expect(loads).toBe(2);
  });

  it('keeps nothing of a class whose TTL is 0, and no failure', async () => {
    const cache = new RecordCache({ ttls: { ...TTLS, records: 0 }, maxEntries: 10 });
    let loads = 0;
    await cache.read(...read('a'), async () => ++loads);
    await cache.read(...read('a'), async () => ++loads);
    expect(loads).toBe(2);
    const kept = new RecordCache({ ttls: TTLS, maxEntries: 10 });
    await expect(kept.read(...read('b'), () => Promise.reject(new Error('bank down')))).rejects.toThrow('bank down');
    expect(await kept.read(...read('b'), async () => 'answer')).toBe('answer');
  });

  it('bypasses itself while untrusted and drops what it held when trusted again', async () => {
    const cache = new RecordCache({ ttls: TTLS, maxEntries: 10 });
    let loads = 0;
    const load = async () => ++loads;
    await cache.read(...read('a'), load);
    cache.setTrusted(false);
    expect(await cache.read(...read('a'), load)).toBe(2);
    cache.setTrusted(true);
    expect(await cache.read(...read('a'), load)).toBe(3);
  });

  it('hands every read the same answer, not a copy, open to the type mark Pothos adds', async () => {
    const cache = new RecordCache({ ttls: TTLS, maxEntries: 10 });
    const first = await cache.read(...read('a'), async () => ({ list: [{ amount: '1.00' }] }));
    const again = await cache.read(...read('a'), async () => ({ list: [] }));
    expect(again).toBe(first);
    expect(Object.isExtensible(again)).toBe(true);
  });

  it('passes its own writes to the listener, and other invalidations not', () => {
    const cache = new RecordCache({ ttls: TTLS, maxEntries: 10 });
    const told: unknown[] = [];
    cache.onWrite((kinds) => told.push(kinds));
    cache.wrote(['cards']);
    cache.wrote([]);
    cache.invalidate(['accounts']);
    expect(told).toEqual([['cards']]);
  });
});
