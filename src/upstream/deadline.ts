import { setTimeout as sleep } from 'node:timers/promises';

/** Aborts when the deadline passes; none without a deadline. */
export function deadlineSignal(deadline: number | undefined): AbortSignal | undefined {
  if (deadline === undefined) return undefined;
  const left = deadline - Date.now();
  return left <= 0 ? AbortSignal.abort() : AbortSignal.timeout(left);
}

/** Waits `ms`; false when the signal aborted first (the timer is cleared, nothing is left running). */
export async function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  try {
    await sleep(Math.max(0, ms), undefined, { signal });
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'AbortError') return false;
    throw error;
  }
}

/** The promise's outcome, or `onAbort()` thrown once the signal aborts (the promise runs on regardless). */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined, onAbort: () => Error): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(onAbort());
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(onAbort());
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}
