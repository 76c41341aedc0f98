/**
 * A small time-bounded cache shared across requests, for upstream data that changes rarely
 * (e.g. beneficiary rule sets). Concurrent misses for one key share a single load; failures are not
 * cached.
 */
export class TtlCache<V> {
  readonly #entries = new Map<string, { value: Promise<V>; expiresAt: number }>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: { ttlMs: number; maxEntries?: number; now?: () => number }) {
    this.#ttlMs = options.ttlMs;
    this.#maxEntries = options.maxEntries ?? 500;
    this.#now = options.now ?? Date.now;
  }

  get(key: string, load: () => Promise<V>): Promise<V> {
    const now = this.#now();
    const hit = this.#entries.get(key);
    if (hit && hit.expiresAt > now) return hit.value;
    const value = load();
    this.#entries.set(key, { value, expiresAt: now + this.#ttlMs });
    value.catch(() => {
      if (this.#entries.get(key)?.value === value) this.#entries.delete(key);
    });
    this.#evict();
    return value;
  }

  #evict(): void {
    // Map keeps insertion order: the first entries are the oldest.
    for (const key of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries) break;
      this.#entries.delete(key);
    }
  }
}
