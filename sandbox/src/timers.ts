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
 * How much of the thread the last stretch before a deadline may spend turning the event loop
 * (see Deadlines): `share` of the time that passes, saved up to `bankMs` while the sandbox idles.
 * At one call at a time that covers every deadline; under load the budget runs out and deadlines
 * fall back to the whole-millisecond timer, so turning never takes more than its share of a core.
 */
export class TurnBudget {
  readonly #share: number;
  readonly #bankMs: number;
  #available: number;
  #at: number;

  constructor(share: number, bankMs: number, now: number) {
    this.#share = share;
    this.#bankMs = bankMs;
    this.#available = bankMs;
    this.#at = now;
  }

  /** Whether a turn may be taken at `now` (the budget first refills for the time since the last look). */
  allows(now: number): boolean {
    this.#available = Math.min(this.#bankMs, this.#available + (now - this.#at) * this.#share);
    this.#at = now;
    return this.#available > 0;
  }

  /** A turn that took `ms` of the thread. */
  spend(ms: number): void {
    this.#available -= ms;
  }

  get available(): number {
    return this.#available;
  }
}

const TURN_SHARE = 0.05;
const TURN_BANK_MS = 2;

/**
 * Waits until points in time (`performance.now()`), released in the order they fall due (ties in
 * the order they were asked for). Answers leave in deadline order: a timer per call let Node group
 * them by their rounded duration, so calls arriving in one order were answered in another, and
 * fifty timers cost fifty callbacks where one does. Never early.
 *
 * Precise to a fraction of a millisecond while the budget lasts: Node's timers count whole
 * milliseconds, so a timer aimed at a deadline wakes up to a millisecond early (then has to wait
 * another whole one) or late, and the sandbox answered a millisecond after its latency on average.
 * The timer is aimed a millisecond early instead, and the rest is waited by turning the event loop
 * (setImmediate: each turn still reads arriving calls) until the deadline; the turns come out of a
 * TurnBudget, and without budget the timer aims at the deadline itself as before.
 */
export class Deadlines {
  readonly #waiting: Deadline[] = [];
  readonly #budget: TurnBudget;
  #timer: NodeJS.Timeout | undefined;
  #turn: NodeJS.Immediate | undefined;
  #turnFrom = 0;
  #armedFor = Number.POSITIVE_INFINITY;

  constructor(budget: TurnBudget = new TurnBudget(TURN_SHARE, TURN_BANK_MS, performance.now())) {
    this.#budget = budget;
  }

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
    this.#disarm();
    if (!next) return;
    this.#armedFor = next.at;
    const now = performance.now();
    const left = next.at - now;
    const turns = this.#budget.allows(now);
    if (turns && left <= 1) {
      this.#turnFrom = now;
      this.#turn = setImmediate(this.#release);
    } else this.#timer = setTimeout(this.#release, Math.max(1, Math.ceil(left) - (turns ? 1 : 0)));
  }

  #disarm(): void {
    clearTimeout(this.#timer);
    clearImmediate(this.#turn);
    this.#timer = undefined;
    this.#turn = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
  }

  readonly #release = (): void => {
    const now = performance.now();
    if (this.#turn !== undefined) this.#budget.spend(now - this.#turnFrom);
    this.#disarm();
    let due = 0;
    while (due < this.#waiting.length && this.#waiting[due]!.at <= now) due += 1;
    for (const deadline of this.#waiting.splice(0, due)) deadline.reached();
    this.#arm();
  };
}
