/** The bytes a process allocates on its JS heap, counted from a start to a stop: every server process of the benchmark keeps one counter. */

import { GCProfiler, getHeapStatistics } from 'node:v8';

/**
 * Bytes a process allocates on its JS heap between start and stop: what is in use at the stop less
 * what was at the start, plus what every collection in between freed (V8 keeps no running total of
 * allocations). One counter per process, for the gateway's child and the bare Yoga floor's alike.
 */
export class AllocationCounter {
  #running: { profiler: GCProfiler; usedAtStart: number } | undefined;

  start(): void {
    const profiler = new GCProfiler();
    profiler.start();
    this.#running = { profiler, usedAtStart: getHeapStatistics().used_heap_size };
  }

  /** Bytes allocated since `start`. */
  stop(): number {
    const { profiler, usedAtStart } = this.#running!;
    this.#running = undefined;
    const collections = profiler.stop()?.statistics ?? [];
    const freed = collections.reduce(
      (sum, gc) => sum + gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize,
      0,
    );
    return getHeapStatistics().used_heap_size - usedAtStart + freed;
  }
}
