import { raceSignal } from '../deadline-signals.ts';
import { UpstreamAuthError } from '../errors.ts';
import type { SharedCallState } from '../shared-call-state.ts';
import type { StoppedCalls, TokenSource, UpstreamCall } from './call.ts';
import { passOn, type Stage } from './pipeline.ts';

/**
 * Gives each attempt its bearer token, and after a 401 logs in again and tries once more, only
 * where the token is ours to renew (a caller's own token is passed back refused).
 */
export function authRenewalStage({ stoppedCalls }: Pick<SharedCallState, 'stoppedCalls'>): Stage {
  // A 401 is looked at in a handler, not in an async function (see passOn).
  const withRenewal = <T>(call: UpstreamCall, next: (call: UpstreamCall) => Promise<T>, auth: TokenSource | undefined): Promise<T> =>
    passOn(next, call).catch((error: unknown) => {
      if (!(error instanceof UpstreamAuthError) || !auth?.renew || call.token === undefined) throw error;
      return tokenWithin(call, stoppedCalls, auth.renew(call.token)).then((token) => {
        call.token = token;
        return next(call);
      });
    });
  return (call, next) => {
    const auth = call.options.auth;
    // A token at hand needs no race against the signal: no listener added and removed per call.
    const current = auth?.current?.();
    if (current !== undefined) {
      call.token = current;
      return withRenewal(call, next, auth);
    }
    return tokenWithin(call, stoppedCalls, auth?.get()).then((token) => {
      call.token = token;
      return withRenewal(call, next, auth);
    });
  };
}

/** A token, waited for no longer than the call's operation lasts (a login may be slow or queued). */
function tokenWithin(call: UpstreamCall, stoppedCalls: StoppedCalls, pending: Promise<string> | undefined): Promise<string | undefined> {
  if (!pending) return Promise.resolve(undefined);
  return raceSignal(pending, call.signal, () => stoppedCalls.errorFor(call.signal, call, false));
}
