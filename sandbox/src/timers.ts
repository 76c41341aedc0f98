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

/**
 * Waits until `performance.now()` reaches `at` unless the signal aborts first; resolves true when
 * it did. Never early: a timer may fire a fraction of a millisecond before its time, so the rest
 * is waited again.
 */
export async function sleepUntil(at: number, signal: AbortSignal): Promise<boolean> {
  for (let left = at - performance.now(); left > 0; left = at - performance.now()) {
    if (!(await sleep(Math.ceil(left), signal))) return false;
  }
  return !signal.aborted;
}
