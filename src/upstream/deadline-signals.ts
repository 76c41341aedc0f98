import { setTimeout as sleep } from 'node:timers/promises';
import { asError } from '../platform/as-error.ts';

/** A signal that aborts when the deadline passes, and the release that clears its timer. */
export interface DeadlineSignal {
  signal: AbortSignal | undefined;
  release(): void;
}

/**
 * Aborts when the deadline passes (with a TimeoutError, as AbortSignal.timeout does); none without
 * a deadline. Not AbortSignal.timeout: its timer cannot be cleared, so it keeps the signal, and
 * what listens to it, alive until the deadline long after the call ended: under load they piled up,
 * and most of the gateway's overhead over a direct call went with them (docs/architecture.md,
 * "Measured costs").
 */
export function deadlineSignal(deadline: number | undefined): DeadlineSignal {
  if (deadline === undefined) return { signal: undefined, release: () => {} };
  const left = deadline - Date.now();
  if (left <= 0) return { signal: AbortSignal.abort(), release: () => {} };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(timedOut()), left);
  timer.unref();
  return { signal: controller.signal, release: () => clearTimeout(timer) };
}

/** A deadline's abort reason, as AbortSignal.timeout gives it. */
export function timedOut(): DOMException {
  return new DOMException('The operation timed out.', 'TimeoutError');
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
        reject(asError(error));
      },
    );
  });
}
