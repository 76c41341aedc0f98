import { deadlineSignal } from '../deadline.ts';
import type { UpstreamGuards } from '../guards.ts';
import { observe } from './call.ts';
import type { Stage } from './pipeline.ts';

/**
 * The operation's deadline bounds the whole call: the stage gives the call the signal every later
 * wait and the send itself abort on, and refuses a call whose deadline has already gone without
 * counting it against the bank. The deadline's timer goes when the call ends.
 */
export function deadlineStage(guards: UpstreamGuards): Stage {
  return async (call, next) => {
    const deadline = deadlineSignal(call.options.deadline);
    call.signal = deadline.signal;
    if (call.signal?.aborted) {
      observe(guards, call, 'deadline', 0);
      throw guards.deadlineExceeded(call.details, false);
    }
    try {
      return await next();
    } finally {
      deadline.release();
    }
  };
}
