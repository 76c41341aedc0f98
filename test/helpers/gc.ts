import { collectGarbage } from '../../bench/collect-garbage.ts';

export { collectGarbage };

/**
 * Heap bytes that `make` left reachable (the caller holds what it made), with a full collection
 * before and after. Without them a collection during `make` (another test's garbage in the same
 * worker, a busy machine) can turn the difference of two `heapUsed` readings negative: CI once read
 * −34 MB for caches that hold 40 MB.
 */
export function heapRetainedBy(make: () => void): number {
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  make();
  collectGarbage();
  return process.memoryUsage().heapUsed - before;
}
