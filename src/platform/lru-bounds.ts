/**
 * An lru-cache bound on its number of entries that reserves nothing up front.
 *
 * Why not lru-cache's `max`: it allocates the key, value and link arrays (and with a `ttl`, two
 * more) for `max` entries when the cache is made, so a cache sized for 100,000 webhook occurrences
 * held megabytes while empty (docs/architecture.md, "Measured costs"). V8 lets the heap grow to a
 * multiple of what is live, so memory held empty costs several times itself in resident memory.
 * Counting each entry as 1 against lru-cache's `maxSize` bounds the cache alike, least recently
 * used out first, and its arrays grow with what it holds.
 */
export function entryBound(maxEntries: number): { maxSize: number; sizeCalculation: () => number } {
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
  return { maxSize: maxEntries, sizeCalculation: countOne };
}

const countOne = (): number => 1;
