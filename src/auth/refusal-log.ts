import type { Logger } from '../logger.ts';
import type { AuthRefusal, RefusalKind } from './refusal.ts';

/** Told of each refused caller (metrics count them by kind). */
export interface RefusalObserver {
  refused(kind: RefusalKind): void;
}

/** How often one kind of refusal is logged again while it keeps coming: a flood of forged tokens is one line a minute. */
export const REFUSAL_LOG_INTERVAL_MS = 60_000;

/**
 * Logs refused callers without letting a caller fill the log: a caller's mistake (no credential, a
 * forged or expired one) is its own, logged at info with no stack trace, once per kind, transport and
 * reason, then again at most once a minute with how many were not logged in between. Every refusal
 * is counted. A credential that could not be checked (JWKS or bank down) is the operator's problem:
 * logged at warn with its cause, under the same bound.
 */
export function createRefusalLog(logger: Logger, observer?: RefusalObserver, now: () => number = Date.now): (refusal: AuthRefusal, transport: string) => void {
  const lastLogged = new Map<string, { at: number; unlogged: number }>();
  return (refusal, transport) => {
    observer?.refused(refusal.kind);
    const key = `${refusal.kind}\n${transport}\n${refusal.message}`;
    const last = lastLogged.get(key);
    if (last && now() - last.at < REFUSAL_LOG_INTERVAL_MS) {
      last.unlogged += 1;
      return;
    }
    if (lastLogged.size >= 1_000) lastLogged.clear();
    lastLogged.set(key, { at: now(), unlogged: 0 });
    // The message names what was wrong, never the credential itself.
    const line = { transport, refusal: refusal.kind, reason: refusal.message, ...(last ? { notLoggedSince: last.unlogged } : {}) };
    if (refusal.kind === 'unavailable') logger.warn({ ...line, cause: causeOf(refusal) }, 'caller could not be checked');
    else logger.info(line, 'caller refused');
  };
}

function causeOf(refusal: AuthRefusal): string | undefined {
  const cause = refusal.cause;
  return cause instanceof Error ? cause.message : cause === undefined ? undefined : String(cause);
}
