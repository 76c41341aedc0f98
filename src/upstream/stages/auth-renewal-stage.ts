import { raceSignal } from '../deadline-signals.ts';
import { UpstreamAuthError } from '../errors.ts';
import type { UpstreamGuards } from '../guards.ts';
import { stoppedBy, type UpstreamCall } from './call.ts';
import type { Stage } from './pipeline.ts';

/**
 * Gives each attempt its bearer token, and after a 401 logs in again and tries once more, only
 * where the token is ours to renew (a caller's own token is passed back refused).
 */
export function authRenewalStage(guards: UpstreamGuards): Stage {
  return async (call, next) => {
    const auth = call.options.auth;
    // A token at hand needs no race against the signal: no listener added and removed per call.
    call.token = auth?.current?.() ?? (await tokenWithin(call, guards, auth?.get()));
    try {
      return await next();
    } catch (error) {
      if (!(error instanceof UpstreamAuthError) || !auth?.renew || call.token === undefined) throw error;
      call.token = await tokenWithin(call, guards, auth.renew(call.token));
      return next();
    }
  };
}

/** A token, waited for no longer than the call's operation lasts (a login may be slow or queued). */
function tokenWithin(call: UpstreamCall, guards: UpstreamGuards, pending: Promise<string> | undefined): Promise<string | undefined> {
  if (!pending) return Promise.resolve(undefined);
  return raceSignal(pending, call.signal, () => stoppedBy(call.signal, call, guards, false));
}
