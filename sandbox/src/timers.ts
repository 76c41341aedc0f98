/**
 * Waits `ms` unless the signal aborts first; resolves true when the full time passed.
 * Aborting clears the timer, so a stalled or delayed call never holds the process open
 * once the sandbox closes or its client goes away.
 */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

interface Deadline {
  at: number;
  reached(): void;
}

/**
 * Waits until points in time (`performance.now()`), released in the order they fall due (ties in
 * the order they were asked for) from one timer. Answers leave in deadline order: a timer per call
 * let Node group them by their rounded duration, so calls arriving in one order were answered in
 * another, and fifty timers cost fifty callbacks where one does. Never early: a timer may fire a
 * fraction of a millisecond before its time, and then the rest is waited again.
 */
export class Deadlines {
  readonly #waiting: Deadline[] = [];
  #timer: NodeJS.Timeout | undefined;
  #armedFor = Number.POSITIVE_INFINITY;

  /** Resolves true at `at`, or false as soon as the signal aborts. */
  wait(at: number, signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    if (at <= performance.now()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const onAbort = (): void => {
        const index = this.#waiting.indexOf(deadline);
        if (index >= 0) this.#waiting.splice(index, 1);
        resolve(false);
        this.#arm();
      };
      const deadline: Deadline = {
        at,
        reached: () => {
          signal.removeEventListener('abort', onAbort);
          resolve(true);
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.splice(this.#insertionIndex(at), 0, deadline);
      this.#arm();
    });
  }

  /** After every deadline at or before `at`: a tie goes behind the ones asked for earlier. */
  #insertionIndex(at: number): number {
    let low = 0;
    let high = this.#waiting.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#waiting[middle]!.at <= at) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  #arm(): void {
    const next = this.#waiting[0];
    if (next?.at === this.#armedFor) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedFor = next?.at ?? Number.POSITIVE_INFINITY;
    if (next) this.#timer = setTimeout(this.#release, Math.max(1, Math.ceil(next.at - performance.now())));
  }

  readonly #release = (): void => {
    this.#timer = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
    const now = performance.now();
    let due = 0;
    while (due < this.#waiting.length && this.#waiting[due]!.at <= now) due += 1;
    for (const deadline of this.#waiting.splice(0, due)) deadline.reached();
    this.#arm();
  };
}

