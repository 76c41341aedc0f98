import { OWN_CALLS } from '../client-shares.ts';
import type { HostLimit, Slot } from '../host-limit.ts';
import { UpstreamNetworkError } from '../errors.ts';
import type { SharedCallState } from '../shared-call-state.ts';
import type { UpstreamCall } from './call.ts';
import { passOn, type Stage } from './pipeline.ts';
import type { Answer } from './send.ts';

/** The client and operation a call's slot is queued for; calls outside an operation are each their own. */
function ownerOf(call: UpstreamCall) {
  return { client: call.options.client ?? OWN_CALLS, operation: call.options.correlationId ?? call.details.requestId };
}

/**
 * At most the host's limit of calls in flight; the rest wait their turn in its fair queue
 * (host-limit.ts). Each attempt's answer teaches the limit: its latency, or a 429/503/timeout that
 * lowers it. A call whose operation ends in the queue (its deadline passes, its client leaves)
 * leaves it, never sent (so it says nothing of the bank's health); a read cut on the wire frees its
 * slot as it is cut.
 */
export function concurrencyLimitStage(limit: HostLimit, { stoppedCalls }: Pick<SharedCallState, 'stoppedCalls'>): Stage<Answer> {
  // The failure of a call whose operation ended while it waited: no closure per call for it.
  const leftInQueue = (call: UpstreamCall, queuedAt: number): Error =>
    stoppedCalls.errorFor(call.signal, call, false, performance.now() - queuedAt);
  // The slot's outcome is handled in handlers, not in an async function (see passOn).
  const sendIn = <T extends Answer>(slot: Slot, call: UpstreamCall, next: (call: UpstreamCall) => Promise<T>): Promise<T> =>
    passOn(next, call).then(
      (answer) => {
        // A read its operation cut (its client left): the slot is free, but others may be leaving too.
        slot.release(
          answer.statusCode === 429 || answer.statusCode === 503 ? 'overload' : 'answer',
          call.details.endpoint,
          call.signal?.aborted === true,
        );
        return answer;
      },
      (error: unknown) => {
        slot.release(
          error instanceof UpstreamNetworkError && error.timedOut ? 'overload' : 'none',
          call.details.endpoint,
          call.signal?.aborted === true,
        );
        throw error;
      },
    );
  // The call once its slot is granted: a call outside an operation has a deadline timer of its own,
  // and another call's may fire first and free this slot a moment before this one's: by the clock,
  // not the signal, a call past its deadline stays unsent. The signal too: the client may have left
  // while the grant was on its way.
  const sendGranted = <T extends Answer>(
    slot: Slot,
    call: UpstreamCall,
    next: (call: UpstreamCall) => Promise<T>,
    queuedAt: number,
  ): Promise<T> => {
    const deadline = call.options.deadline;
    if ((deadline !== undefined && Date.now() >= deadline) || call.signal?.aborted) {
      slot.release('none', call.details.endpoint, true);
      return Promise.reject(leftInQueue(call, queuedAt));
    }
    return sendIn(slot, call, next);
  };
  return (call, next) => {
    const queuedAt = performance.now();
    const taken = limit.acquire(ownerOf(call), call.signal);
    // A slot free at once (most calls of a quiet host): no promise of the queue's, nor a handler on it.
    if (!(taken instanceof Promise)) return sendGranted(taken, call, next, queuedAt);
    return taken.then(
      (slot) => sendGranted(slot, call, next, queuedAt),
      (error: unknown) => {
        if (call.signal?.aborted && error === call.signal.reason) throw leftInQueue(call, queuedAt);
        throw error;
      },
    );
  };
}
