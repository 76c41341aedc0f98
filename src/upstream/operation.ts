import { timedOut } from './deadline-signals.ts';
import { OperationAbandonedError } from './errors.ts';
import { WireSignal } from './wire-signal.ts';

/**
 * What bounds every upstream call of one GraphQL operation: made once when the operation starts
 * (yoga.ts) and read by the stages of each call, so a call adds no timer and no listener of its own
 * for them (a listener added and removed per call showed in the cards screen's profile).
 */
export interface OperationBounds {
  /** Epoch ms by which its calls must be done; none for a subscription, which lives on. */
  readonly deadline: number | undefined;
  /**
   * Fires when the operation ends early: its deadline passed (a TimeoutError) or its client left
   * (an OperationAbandonedError). Calls waiting leave the queue unsent, waits and retries stop,
   * reads on the wire are cut.
   */
  readonly signal: AbortSignal;
  /** Fires at the deadline only: what bounds a write on the wire, which a client leaving never cuts. */
  readonly deadlineSignal: AbortSignal | undefined;
  /** `signal`, as the operation's reads on the wire listen to it (wire-signal.ts): one listener on `signal` for all of them. */
  readonly readsOnWire: WireSignal;
  /**
   * The writes the operation put on the wire, in order (the send stage adds each): what the bank
   * answered to a write is known here even when its client left and the rest of the operation was
   * stopped, so the audit trail records the bank's outcome.
   */
  readonly writes: SentWrite[];
  /** Its bank calls that reached the wire, each counted once however many attempts it took (the send stage counts). */
  bankCalls: number;
}

/** A write sent to the bank: the x-request-id it went with, and the HTTP status it answered, undefined until (or unless) it did. */
export interface SentWrite {
  requestId: string;
  status: number | undefined;
}

export interface Operation extends OperationBounds {
  /**
   * Fires when the client leaves, with the client signal's reason, and never at the deadline: what
   * the executor stops on (yoga.ts). A signal of Node's own: the executor reads its signal at every
   * field, and Yoga's request signal under node:http is @whatwg-node's Proxy, whose every property
   * read goes through a trap (docs/architecture.md, "Measured costs").
   */
  readonly clientLeft: AbortSignal;
  /** The operation is done: its deadline's timer goes, and its client leaving from now on abandons nothing. */
  end(): void;
}

export interface OperationOptions {
  deadline: number | undefined;
  /** Fires when the client leaves: the HTTP request's signal (its connection closed), or a socket operation's (ws.ts). */
  client: AbortSignal | undefined;
  /** The gateway's request id, which the abandonment names. */
  correlationId?: string | undefined;
  /** Told once when the client leaves before the operation is done. */
  onAbandoned?: (() => void) | undefined;
}

/**
 * Our own controllers rather than AbortSignal.any: one listener on the client's signal both counts
 * the abandonment and gives the reason the stages tell it from the deadline by. Yoga's request
 * signal under node:http is @whatwg-node's stand-in for an AbortSignal, which AbortSignal.any reaches
 * only through a proxy of its internals, and @whatwg-node itself keeps away from Node's
 * AbortSignal.any as leaky (@whatwg-node/server/esm/abortSignalAny.js).
 */
export function startOperation({ deadline, client, correlationId, onAbandoned }: OperationOptions): Operation {
  const ended = new AbortController();
  const atDeadline = deadline === undefined ? undefined : new AbortController();
  const timer =
    atDeadline &&
    setTimeout(() => {
      const reason = timedOut();
      atDeadline.abort(reason);
      ended.abort(reason);
    }, deadline! - Date.now()).unref();
  const left = new AbortController();
  let done = false;
  const leave = () => {
    left.abort(client?.reason);
    if (done) return;
    onAbandoned?.();
    // After the deadline the calls have stopped already, with the deadline's error: that one stands.
    ended.abort(new OperationAbandonedError(correlationId));
  };
  if (client?.aborted) leave();
  else client?.addEventListener('abort', leave, { once: true });
  return {
    deadline,
    signal: ended.signal,
    deadlineSignal: atDeadline?.signal,
    readsOnWire: new WireSignal(ended.signal),
    clientLeft: left.signal,
    writes: [],
    bankCalls: 0,
    end: () => {
      done = true;
      clearTimeout(timer);
      client?.removeEventListener('abort', leave);
    },
  };
}

/** The client's leaving, if that is what stopped the operation (rather than its deadline). */
export function abandonment(signal: AbortSignal | undefined): OperationAbandonedError | undefined {
  const reason: unknown = signal?.aborted ? signal.reason : undefined;
  return reason instanceof OperationAbandonedError ? reason : undefined;
}
