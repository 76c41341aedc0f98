/**
 * A live query's re-runs, at most one per interval, and the last one asked for always made. The
 * store's own throttle (@n1ru4l/in-memory-live-query-store/esm/throttle.js) drops a run when its
 * timer fires a millisecond before `Date.now()` says the interval is over, which Node's timers do:
 * a dashboard then missed the deposit it was invalidated for and showed the old balance until the
 * next event. Here the timer's firing is the interval's end; nothing is checked against the clock
 * after it.
 *
 * The store numbers its runs and pushes only the result of the latest: a run that a later one
 * superseded while it waited out the interval is not made (`admit` answers false), and its result
 * is never read.
 */
export interface RerunThrottle {
  /** The first run was made now. */
  ran(): void;
  /** Waits until this re-run may be made: true to make it, false when a later one took its place or the live query ended. */
  admit(): Promise<boolean>;
  /** The live query ended: every wait ends at once, with false. */
  end(): void;
}

export function rerunThrottle(intervalMs: number, now: () => number = () => performance.now()): RerunThrottle {
  let lastRun = Number.NEGATIVE_INFINITY;
  let latest = 0;
  let ended = false;
  const waiting = new Map<NodeJS.Timeout, () => void>();
  const ran = () => {
    lastRun = now();
  };
  return {
    ran,
    admit: async () => {
      const ticket = ++latest;
      const wait = lastRun + intervalMs - now();
      if (wait > 0 && !ended) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            waiting.delete(timer);
            resolve();
          }, wait);
          waiting.set(timer, resolve);
        });
      }
      if (ended || ticket !== latest) return false;
      ran();
      return true;
    },
    end: () => {
      ended = true;
      for (const [timer, resolve] of waiting) {
        clearTimeout(timer);
        resolve();
      }
      waiting.clear();
    },
  };
}
