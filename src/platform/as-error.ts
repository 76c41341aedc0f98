/**
 * A reason to reject a promise with, as an Error: what was thrown or rejected (a catch, an
 * iterator's `throw`, an AbortSignal's reason) passed on as it is when it is an Error, as every such
 * reason in the gateway is; anything else wrapped in one, as its cause.
 */
export function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error('rejected with a value that is not an Error', { cause: reason });
}
