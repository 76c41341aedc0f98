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

  /** Runs `task` once a slot is free. An abort while queued leaves the queue with the signal's reason. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    if (this.#active >= this.#max) await this.#queue(signal);
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

  #queue(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        // It never got a slot, so there is none to pass on.
        this.#waiting.splice(this.#waiting.indexOf(granted), 1);
        reject(signal?.reason);
      };
      const granted = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      this.#waiting.push(granted);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
