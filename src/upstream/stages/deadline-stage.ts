import { deadlineSignal } from '../deadline-signals.ts';
import type { SharedCallState } from '../shared-call-state.ts';
import type { Stage } from './pipeline.ts';

/**
 * The operation bounds the whole call: the stage gives the call the signals every later wait and
 * the send itself abort on, and refuses a call whose operation has already ended (its deadline gone,
 * or its client left) without counting it against the bank. An operation's calls share the signals
 * it made once (operation.ts); a call outside one (the readiness probe) gets a timer of its own,
 * which goes when the call ends.
 */
export function deadlineStage({ stoppedCalls }: Pick<SharedCallState, 'stoppedCalls'>): Stage {
  // Not an async function: a call of an operation (nearly all) goes straight on, with no promise of this stage's own.
  return (call, next) => {
    const { operation } = call.options;
    const own = operation ? undefined : deadlineSignal(call.options.deadline);
    call.signal = operation ? operation.signal : own!.signal;
    call.deadlineSignal = operation ? operation.deadlineSignal : own!.signal;
    if (call.signal?.aborted) {
      own?.release();
      return Promise.reject(stoppedCalls.errorFor(call.signal, call, false, 0));
    }
    if (!own) return next(call);
    return withOwnDeadline(own, () => next(call));
  };
}

async function withOwnDeadline<T>(own: { release(): void }, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } finally {
    own.release();
  }
}
