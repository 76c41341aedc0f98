import type { Logger } from '../../platform/logger.ts';
import { sendsIdempotencyKey } from '../endpoint.ts';
import {
  UpstreamNetworkError,
  UpstreamRejectedError,
  UpstreamServerError,
  UpstreamUnavailableError,
  WriteMayHaveGoneThroughError,
  WriteOutcomeUnknownError,
} from '../errors.ts';
import { requestFingerprint, whereToLook, type UncertainWrites } from '../uncertain-writes.ts';
import type { UpstreamCall } from './call.ts';
import type { Stage } from './pipeline.ts';

/**
 * Money moves once. A write whose outcome nobody knows (its answer lost after it was sent, the
 * deadline struck while it was on the wire, a 5xx) is answered as exactly that, with the key it went
 * with: sent again with that key, the bank applies it once (Document 1, section 4: x-request-id is
 * the idempotency key). Such a write is remembered (uncertain-writes.ts), so a repeat of the same
 * request under another key that the bank refuses says the earlier one may have gone through,
 * instead of looking like a plain rejection a person would answer by paying again. Stripe's
 * libraries make the same promise with a key per write; the gateway keeps it for every client.
 */
export function writeOutcomeStage(uncertain: UncertainWrites, logger: Logger): Stage {
  // The shared store not answering must not fail a write: the warning is lost, not the payment's answer.
  const quietly = async <T>(what: string, run: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await run();
    } catch (error) {
      logger.warn({ reason: (error as Error).message }, `uncertain writes: could not ${what}`);
      return undefined;
    }
  };
  // Not an async function: a read (nearly every call) goes straight on.
  return (call, next) => (call.kind === 'write' ? written(call, next) : next(call));
  async function written<T>(call: UpstreamCall, next: (call: UpstreamCall) => Promise<T>): Promise<T> {
    const fingerprint = requestFingerprint(call);
    try {
      const answer = await next(call);
      // It went through now: whatever became of an earlier attempt, this request's outcome is known.
      if (await quietly('read', () => uncertain.find(fingerprint))) await quietly('forget', () => uncertain.forget(fingerprint));
      return answer;
    } catch (error) {
      if (outcomeUnknown(error)) {
        await quietly('remember', () =>
          uncertain.remember(fingerprint, { idempotencyKey: call.details.requestId, at: new Date().toISOString() }),
        );
        throw new WriteOutcomeUnknownError(call.details, whereToLook(call), { cause: error, bankKeepsKey: sendsIdempotencyKey(call.ep) });
      }
      if (!(error instanceof UpstreamRejectedError)) throw error;
      const earlier = await quietly('read', () => uncertain.find(fingerprint));
      // No earlier uncertain attempt, or the same key at a bank that keeps keys: the bank answered that attempt's own result.
      if (!earlier || (earlier.idempotencyKey === call.details.requestId && sendsIdempotencyKey(call.ep))) throw error;
      throw new WriteMayHaveGoneThroughError(error, earlier, whereToLook(call));
    }
  }
}

/** Connection failures that happen before a request is written: the bank never saw it. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Whether a write's failure leaves its outcome unknown: the bank may have applied it. Not so for a
 * refusal (4xx), a 429 (refused before anything was done), a connection never made, a breaker or a
 * queue that never let it go, or a client that left before it was sent.
 */
function outcomeUnknown(error: unknown): boolean {
  if (error instanceof UpstreamServerError) return true;
  if (error instanceof UpstreamNetworkError) return !NOT_SENT.has(error.reason);
  return error instanceof UpstreamUnavailableError && error.inFlight;
}
