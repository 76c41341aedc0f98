import { pause } from '../deadline-signals.ts';
import type { UpstreamGuards } from '../guards.ts';
import { observe, stoppedBy } from './call.ts';
import type { Stage } from './pipeline.ts';

/**
 * A 429's Retry-After holds the call's whole family (the read stage records it): every attempt
 * waits it out, or fails fast with a typed RATE_LIMITED when the hold outlasts its deadline (or,
 * without one, the retry policy's waiting time).
 */
export function rateLimitWaitStage(guards: UpstreamGuards, waitWithoutDeadlineMs: number): Stage {
  return async (call, next) => {
    const until = guards.heldUntil(call.family);
    if (until !== undefined) {
      if (until > (call.options.deadline ?? Date.now() + waitWithoutDeadlineMs)) {
        observe(guards, call, 'rate-limited', 0);
        throw guards.rateLimited(until, call.details);
      }
      if (!(await pause(until - Date.now(), call.signal))) throw stoppedBy(call.signal, call, guards, false);
    }
    return next();
  };
}
