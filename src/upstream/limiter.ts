/**
 * A cap on upstream calls in flight: a burst of operations queues here (first come, first served)
 * instead of overrunning the bank's concurrency limit.
 */
export class ConcurrencyLimiter {
  readonly #max: number;
  #active = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`concurrency must be a positive integer, got ${max}`);
    this.#max = max;
  }

  get active(): number {
    return this.#active;
  }

  get queued(): number {
    return this.#waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active >= this.#max) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#active += 1;
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      // The slot passes straight to the next caller, so the count never dips below the cap in between.
      if (next) next();
      else this.#active -= 1;
    }
  }
}
