import { kindsChangedBy, type CachePolicy } from '../cache-policy.ts';
import { OperationAbandonedError } from '../errors.ts';
import { abandonment } from '../operation.ts';
import type { RecordCache } from '../record-cache.ts';
import type { UpstreamCall } from './call.ts';
import type { Stage } from './pipeline.ts';

/**
 * The record cache (record-cache.ts), outermost: a read its endpoint keeps (`cache`) is answered
 * for the call's bank user from the cache, or shares a call already on its way; any other call drops
 * what its endpoint says it changes once it is over. The connection puts this stage in the pipeline only
 * when the cache is on: off, a call does no cache work at all.
 */
export function recordCacheStage(cache: RecordCache): Stage {
  return (call, next) => {
    const policy = call.ep.cache;
    if (policy === 'never') return next(call);
    if (policy === undefined) return changing(cache, call, () => next(call));
    const scope = call.options.cacheScope;
    // No bank user to keep it for (no token; the readiness probe, which bypasses the cache): the bank answers.
    if (scope === undefined) return next(call);
    return sharedRead(cache, cacheKey(scope, call), policy, () => next(call), call.options.operation?.signal);
  };
}

async function changing<T>(cache: RecordCache, call: UpstreamCall, next: () => Promise<T>): Promise<T> {
  try {
    return await next();
  } finally {
    // Also after a failure: a write whose answer was lost may have been applied all the same.
    cache.wrote(kindsChangedBy(call.ep));
  }
}

/**
 * A kept read, which may share a call another operation made. That call is cut if its own client
 * leaves; a read whose client is still there then reads again (joining another's call, or making
 * its own) rather than fail for someone else's departure.
 */
async function sharedRead<T>(
  cache: RecordCache,
  key: string,
  policy: CachePolicy,
  next: () => Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  try {
    return await cache.read(key, policy, next);
  } catch (error) {
    if (error instanceof OperationAbandonedError && error !== abandonment(signal)) return cache.read(key, policy, next);
    throw error;
  }
}

/** One bank user's exact request: the path with its query, and the headers that pick a record (x-account-id...). */
function cacheKey(scope: string, call: UpstreamCall): string {
  const headers = Object.entries(call.options.headers ?? {})
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  return `${scope}\n${call.path}\n${headers}`;
}
