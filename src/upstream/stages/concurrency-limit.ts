import type { UpstreamGuards } from '../guards.ts';
import type { ConcurrencyLimiter } from '../limiter.ts';
import { observe } from './call.ts';
import type { Stage } from './pipeline.ts';

/**
 * At most the limiter's calls in flight; the rest queue. A call whose deadline passes in the queue
 * leaves it, never sent (so it says nothing of the bank's health).
 */
export function concurrencyLimitStage(limiter: ConcurrencyLimiter, guards: UpstreamGuards): Stage {
  return async (call, next) => {
    const queuedAt = performance.now();
    try {
      return await limiter.run(next, call.signal);
    } catch (error) {
      // The limiter rejects with the signal's own reason only when the call never left the queue.
      if (call.signal?.aborted && error === call.signal.reason) {
        observe(guards, call, 'deadline', performance.now() - queuedAt);
        throw guards.deadlineExceeded(call.details, false);
      }
      throw error;
    }
  };
}
