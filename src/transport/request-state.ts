import { randomUUID } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import { liveOperation } from '../live/engine.ts';
import { whenExecuted } from '../observability/operation-outcome.ts';
import type { UpstreamRuntime } from '../upstream/index.ts';
import type { OperationBounds } from '../upstream/operation.ts';
import type { EventStream } from './incremental-delivery.ts';

/**
 * What the gateway keeps of one request, in one place rather than a map each: its id, made as it
 * arrives (useRequestId) or when first asked (a socket's operation), and what bounds its upstream
 * calls once its operation starts (useOperationBounds), which its context reads with no lookup.
 */
export interface RequestState {
  readonly id: string;
  operation?: OperationBounds | undefined;
  /** A subscription or a live query: answered as a stream of events (incremental-delivery.ts). */
  eventStream?: EventStream;
}

const requests = new WeakMap<Request, RequestState>();

/** The request's state, made on first use. */
export function stateOf(request: Request): RequestState {
  let state = requests.get(request);
  if (state === undefined) requests.set(request, (state = { id: randomUUID() }));
  return state;
}

/** The request's state if it has one, without making it. */
export const knownStateOf = (request: Request): RequestState | undefined => requests.get(request);

/** The gateway's own id of a request: made once, as it arrives (useRequestId) or when first asked (a socket's operation). */
export function requestIdOf(request: Request): string {
  return stateOf(request).id;
}

/** Every answer says which request it was, by the gateway's own id, so a caller can quote it to an operator. */
export const useRequestId = (): Plugin => ({
  onRequest: ({ request }) => {
    stateOf(request);
  },
  onResponse: ({ request, response }) => {
    const id = requests.get(request)?.id;
    if (id) response.headers.set('x-request-id', id);
  },
});

const requestOf = (args: { contextValue: unknown }) => (args.contextValue as { request?: Request }).request;

/**
 * One signal per operation, made as it starts, that its upstream calls stop on (upstream/operation.ts).
 * A query or mutation: the operation deadline (OPERATION_DEADLINE_MS) or its client leaving,
 * whichever comes first: the request's signal, which Yoga's node:http adapter aborts when the
 * response closes before it finished, and ws.ts when the socket closes. Made in onExecute, which
 * subscriptions do not pass: a subscription's context lives for hours, so its signal is its life
 * (onSubscribe), and each event's reads are bounded by the per-call timeout and the retry budget.
 *
 * The executor is handed the client's leaving too, as Yoga's useExecutionCancellation hands it the
 * request's signal (that plugin's whole work, done here rather than in one more hook per operation):
 * an abandoned screen ends as one aborted execution, not an error per field left. Not the
 * operation's signal: a field past the deadline still answers with its own coded error.
 */
export function useOperationBounds(upstream: UpstreamRuntime): Plugin {
  return {
    onExecute({ args }) {
      const request = requestOf(args);
      if (!request) return;
      const state = stateOf(request);
      // A live query lives as a subscription does: its re-runs come long after any deadline from its start.
      const kind = liveOperation(args.document, args.operationName, args.variableValues) ? 'subscription' : 'execution';
      if (kind === 'subscription') state.eventStream = 'live query';
      const operation = upstream.startOperation(kind, request.signal, state.id);
      (args as { signal?: AbortSignal }).signal = operation.clientLeft;
      state.operation = operation;
      return { onExecuteDone: whenExecuted(() => operation.end()) };
    },
    onSubscribe({ args }) {
      const request = requestOf(args);
      if (!request) return;
      (args as { signal?: AbortSignal }).signal = request.signal;
      const state = stateOf(request);
      state.eventStream = 'subscription';
      state.operation = upstream.startOperation('subscription', request.signal, state.id);
    },
  };
}
