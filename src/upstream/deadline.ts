import { setTimeout as sleep } from 'node:timers/promises';
import { getOperationAST, parse } from 'graphql';

/**
 * The operation deadline (OPERATION_DEADLINE_MS): every upstream call of a query or mutation, with
 * its time queued for a connection, its retries and waits, and any token it needs, is over by then.
 *
 * Subscriptions get none. Their context (and so their upstream scope) is made once, when the
 * subscription starts, and lives for hours: a deadline counted from then would fail every event
 * after the first minutes. Each event's reads are bounded instead by the per-call timeout
 * (UPSTREAM_TIMEOUT_MS) and the retry policy's time budget, which no event can outlast.
 */
export function deadlineFor(
  params: { query?: string | undefined; operationName?: string | null | undefined } | undefined,
  deadlineMs: number,
  now = Date.now(),
): number | undefined {
  return isSubscription(params) ? undefined : now + deadlineMs;
}

/** Parses only documents that mention the keyword, so queries and mutations pay nothing. */
function isSubscription(params: { query?: string | undefined; operationName?: string | null | undefined } | undefined): boolean {
  if (!params?.query?.includes('subscription')) return false;
  try {
    return getOperationAST(parse(params.query), params.operationName ?? undefined)?.operation === 'subscription';
  } catch {
    // Not a valid document: Yoga refuses it before anything is called.
    return false;
  }
}

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
