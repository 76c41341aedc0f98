import { createThrottledLog, type Logger } from '../platform/logger.ts';
import type { AuthRefusal, RefusalKind } from './refusal.ts';

/** Told of each refused caller (metrics count them by kind). */
export interface RefusalObserver {
  refused(kind: RefusalKind): void;
}

/**
 * Logs refused callers without letting a caller fill the log: a caller's mistake (no credential, a
 * forged or expired one) is its own, logged at info with no stack trace, once per kind, transport and
 * reason, then again at most once a minute with how many were not logged in between. Every refusal
 * is counted. A credential that could not be checked (JWKS or bank down) is the operator's problem:
 * logged at warn with its cause, under the same bound.
 */
export function createRefusalLog(
  logger: Logger,
  observer?: RefusalObserver,
  now?: () => number,
): (refusal: AuthRefusal, transport: string) => void {
  const log = createThrottledLog(logger, undefined, now);
  return (refusal, transport) => {
    observer?.refused(refusal.kind);
    // The message names what was wrong, never the credential itself.
    const line = { transport, refusal: refusal.kind, reason: refusal.message };
    const key = `${refusal.kind}\n${transport}\n${refusal.message}`;
    if (refusal.kind === 'unavailable') log(key, 'warn', { ...line, cause: causeOf(refusal) }, 'caller could not be checked');
    else log(key, 'info', line, 'caller refused');
  };
}

function causeOf(refusal: AuthRefusal): string | undefined {
  const cause = refusal.cause;
  if (cause instanceof Error) return cause.message;
  if (cause === undefined) return undefined;
  // A cause that is no Error (the gateway gives none): text as it is, anything else as JSON.
  return typeof cause === 'string' ? cause : JSON.stringify(cause);
}
