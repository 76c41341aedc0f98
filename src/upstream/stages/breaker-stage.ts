import type { Verdict } from '../circuit-breaker.ts';
import { UpstreamNetworkError, UpstreamServerError, UpstreamUnavailableError } from '../errors.ts';
import type { SharedCallState } from '../shared-call-state.ts';
import type { Logger } from '../../platform/logger.ts';
import { logFields, observe, ownedBy, type UpstreamCall } from './call.ts';
import { passOn, type Stage } from './pipeline.ts';

/**
 * The family's circuit breaker admits the call or fails it fast, and learns from its outcome.
 *
 * The breaker counts the call once, by its outcome after retries: a failure a retry absorbed says
 * nothing of an outage, and counting attempts would let 30% transient 503s trip a 50% breaker by
 * chance (about 1 time in 20 at the first 20 calls), turning a recoverable bank into an outage. A
 * call that never reached the bank (queued past its deadline) says nothing either. That rule is why
 * the breaker is the project's own (circuit-breaker.ts) rather than a library's.
 */
export function breakerStage({ breakers, observer }: Pick<SharedCallState, 'breakers' | 'observer'>, logger: Logger): Stage {
  return (call, next) => {
    const permit = breakers.get(call.family).acquire();
    if (!permit) {
      observe(observer, call, 'circuit-open', 0);
      return Promise.reject(breakers.openError(call.family, call.details));
    }
    // The half-open probe is a single attempt: its answer alone says whether the bank is back.
    if (permit.probe) call.maxAttempts = 1;
    return passOn(next, call).then(
      (result) => {
        permit.settle('success');
        return result;
      },
      (error: unknown) => {
        permit.settle(verdictOf(call, error));
        if (isOutage(call, error)) logger.warn({ ...logFields(call), family: call.family, error: error.message }, 'upstream call failed');
        throw error;
      },
    );
  };
}

/** A failure of the bank's to answer (as opposed to a refusal), logged once per call after its retries. */
function isOutage(call: UpstreamCall, error: unknown): error is Error {
  if (!ownedBy(call, error)) return false;
  return error instanceof UpstreamUnavailableError || error instanceof UpstreamNetworkError || error instanceof UpstreamServerError;
}

/**
 * What the call says about the bank's health. Failures of a token this call waited for are the
 * login's, counted in the auth family by that call itself.
 */
function verdictOf(call: UpstreamCall, error: unknown): Verdict {
  if (!ownedBy(call, error)) return 'none';
  if (error instanceof UpstreamUnavailableError) return error.inFlight ? 'failure' : 'none';
  if (error instanceof UpstreamNetworkError || error instanceof UpstreamServerError) return 'failure';
  return 'success';
}
