/**
 * Counts over the last `windowMs`, kept in a ring of fixed buckets: memory stays constant however
 * many calls go through, at the price of a window that moves in steps of windowMs / buckets.
 * Time comes from `now` so tests can step it.
 */
export class RollingCounts<Key extends string> {
  readonly #bucketMs: number;
  readonly #buckets: { slot: number; counts: Map<Key, number> }[];
  readonly #now: () => number;

  constructor(windowMs: number, now: () => number = Date.now, buckets = 10) {
    if (!(windowMs > 0)) throw new RangeError(`windowMs must be positive, got ${windowMs}`);
    this.#bucketMs = windowMs / buckets;
    this.#buckets = Array.from({ length: buckets }, () => ({ slot: -Infinity, counts: new Map() }));
    this.#now = now;
  }

  add(key: Key, amount = 1): void {
    const slot = this.#slot();
    const bucket = this.#buckets[slot % this.#buckets.length]!;
    if (bucket.slot !== slot) {
      bucket.slot = slot;
      bucket.counts.clear();
    }
    bucket.counts.set(key, (bucket.counts.get(key) ?? 0) + amount);
  }

  /** The sum of `key` over the buckets still inside the window. */
  total(key: Key): number {
    const oldest = this.#slot() - this.#buckets.length;
    let sum = 0;
    for (const bucket of this.#buckets) if (bucket.slot > oldest) sum += bucket.counts.get(key) ?? 0;
    return sum;
  }

  clear(): void {
    for (const bucket of this.#buckets) {
      bucket.slot = -Infinity;
      bucket.counts.clear();
    }
  }

  #slot(): number {
    return Math.floor(this.#now() / this.#bucketMs);
  }
}
