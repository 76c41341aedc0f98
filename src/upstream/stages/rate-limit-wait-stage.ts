import { pause } from '../deadline-signals.ts';
import type { SharedCallState } from '../shared-call-state.ts';
import { observe } from './call.ts';
import type { UpstreamCall } from './call.ts';
import type { Stage } from './pipeline.ts';

/**
 * A 429's Retry-After holds the call's whole family (the read stage records it): every attempt
 * waits it out, or fails fast with a typed RATE_LIMITED when the hold outlasts its deadline (or,
 * without one, the retry policy's waiting time).
 */
export function rateLimitWaitStage(
  { rateLimitHolds, observer, stoppedCalls }: Pick<SharedCallState, 'rateLimitHolds' | 'observer' | 'stoppedCalls'>,
  waitWithoutDeadlineMs: number,
): Stage {
  const waitOut = async <T>(until: number, call: UpstreamCall, next: (call: UpstreamCall) => Promise<T>): Promise<T> => {
    if (until > (call.options.deadline ?? Date.now() + waitWithoutDeadlineMs)) {
      observe(observer, call, 'rate-limited', 0);
      throw rateLimitHolds.rateLimitedError(until, call.details);
    }
    if (!(await pause(until - Date.now(), call.signal))) throw stoppedCalls.errorFor(call.signal, call, false);
    return next(call);
  };
  // Not an async function: with no hold on the family (nearly always), the call goes straight on.
  return (call, next) => {
    const until = rateLimitHolds.heldUntil(call.family);
    return until === undefined ? next(call) : waitOut(until, call, next);
  };
}
