import { raceSignal } from '../deadline-signals.ts';
import { UpstreamAuthError } from '../errors.ts';
import type { SharedCallState } from '../shared-call-state.ts';
import type { StoppedCalls, UpstreamCall } from './call.ts';
import type { Stage } from './pipeline.ts';

/**
 * Gives each attempt its bearer token, and after a 401 logs in again and tries once more, only
 * where the token is ours to renew (a caller's own token is passed back refused).
 */
export function authRenewalStage({ stoppedCalls }: Pick<SharedCallState, 'stoppedCalls'>): Stage {
  return async (call, next) => {
    const auth = call.options.auth;
    // A token at hand needs no race against the signal: no listener added and removed per call.
    call.token = auth?.current?.() ?? (await tokenWithin(call, stoppedCalls, auth?.get()));
    try {
      return await next(call);
    } catch (error) {
      if (!(error instanceof UpstreamAuthError) || !auth?.renew || call.token === undefined) throw error;
      call.token = await tokenWithin(call, stoppedCalls, auth.renew(call.token));
      return next(call);
    }
  };
}

/** A token, waited for no longer than the call's operation lasts (a login may be slow or queued). */
function tokenWithin(call: UpstreamCall, stoppedCalls: StoppedCalls, pending: Promise<string> | undefined): Promise<string | undefined> {
  if (!pending) return Promise.resolve(undefined);
  return raceSignal(pending, call.signal, () => stoppedCalls.errorFor(call.signal, call, false));
}
