import { LRUCache } from 'lru-cache';
import { entryBound } from '../platform/lru-bounds.ts';

/**
 * A small time-bounded cache shared across requests, for upstream data that changes rarely
 * (beneficiary rule sets, the webhook catalogue, passthrough token verdicts): lru-cache's `fetch`,
 * which shares concurrent misses for one key and keeps no failed load, behind the one call the
 * code needs. Values are boxed because lru-cache keeps no `undefined`, a verdict this cache holds.
 */
export class TtlCache<V> {
  readonly #cache: LRUCache<string, { value: V }, () => Promise<V>>;

  constructor(options: { ttlMs: number; maxEntries?: number; now?: () => number }) {
    this.#cache = new LRUCache<string, { value: V }, () => Promise<V>>({
      ...entryBound(options.maxEntries ?? 500),
      ttl: options.ttlMs,
      // Expiry is checked on read with the clock as it is then, not a rounded one.
      ttlResolution: 0,
      fetchMethod: async (_key, _stale, { context }) => ({ value: await context() }),
      ...(options.now ? { perf: { now: options.now } } : {}),
    });
  }

  /** The value kept for `key`, without loading it: undefined when none is kept (or it is still loading). */
  peek(key: string): { value: V } | undefined {
    return this.#cache.get(key);
  }

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const entry = await this.#cache.fetch(key, { context: load });
    return (entry as { value: V }).value;
  }
}
