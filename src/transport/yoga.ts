import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Tracer } from '@opentelemetry/api';
import { useCORS } from '@whatwg-node/server';
import type { GraphQLSchema } from 'graphql';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { CSRF_HEADER } from '../authentication/csrf.ts';
import type { CallerAuth } from '../authentication/index.ts';
import { fairShareKey } from '../authentication/identity.ts';
import { useResponseCompression } from './compression.ts';
import { useConditionalGet } from './conditional-get.ts';
import type { GatewayContext } from '../context.ts';
import type { EventBus } from '../events/bus.ts';
import { createMaskError, useCodedEmptyRefusals, yogaLogging } from './errors.ts';
import { incrementalDelivery, type EventStream } from './incremental-delivery.ts';
import { mergePlugins } from './merged-plugins.ts';
import type { Logger } from '../platform/logger.ts';
import { liveOperation } from '../live/engine.ts';
import { whenExecuted } from '../observability/operation-outcome.ts';
import { useTracing } from '../observability/tracing.ts';
import type { UpstreamRuntime } from '../upstream/index.ts';
import type { OperationBounds } from '../upstream/operation.ts';

export const GRAPHQL_PATH = '/graphql';

const NO_GATEWAY_WEBHOOKS: GatewayContext['gatewayWebhooks'] = { owns: () => false, deliveryUrl: null };

const DEFAULT_QUERY = `# Welcome to the banking gateway. Press the run button to try:
query Overview {
  accounts(first: 5) {
    nodes {
      id
      upstreamId
      label
      status
      accountNumber
      country
      supportedFeatures {
        currency
        transferMethod
      }
    }
  }
  balances {
    currency
    available {
      amount
      currency
    }
  }
}
`;

export interface YogaOptions {
  schema: GraphQLSchema;
  upstream: UpstreamRuntime;
  logger: Logger;
  events: EventBus;
  cardFreezes: GatewayContext['cardFreezes'];
  auth: CallerAuth;
  webhookCodes?: GatewayContext['webhookCodes'];
  /** The gateway's own webhook subscriptions; none when absent. */
  gatewayWebhooks?: GatewayContext['gatewayWebhooks'];
  graphiql?: boolean;
  /**
   * Answers outside GraphQL (routes/: /healthz, /readyz, /metrics, /webhooks...): registered first,
   * and what one answers goes out as it made it.
   */
  routes?: Plugin[];
  /** Limits, metrics and the like, in the order they should run (after authentication). */
  plugins?: Plugin[];
  /** Plugins that watch every executed operation: before authentication's and the limits', so they see those stop one. */
  watchers?: Plugin[];
  /** Told of each error that is the caller's own mistake, by code (metrics). */
  clientError?: (code: string) => void;
  /** With it (OTEL_EXPORTER_OTLP_ENDPOINT set), each operation is a trace (observability/tracing.ts). */
  tracer?: Tracer | undefined;
}

/**
 * The x-request-id a caller sent, when it is a plausible id: kept beside the gateway's own (the
 * request's log lines, the audit trail), never in its place, so no caller can give its requests
 * another's id.
 */
function clientRequestIdOf(request: Request): string | null {
  const given = request.headers.get('x-request-id');
  return given && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : null;
}

/**
 * The address a request came from: node:http's request (`req`, which server.ts hands Yoga, and
 * ws.ts passes for a graphql-ws operation); undefined in-process (yoga.fetch).
 */
function remoteAddressOf(req: unknown): string | undefined {
  return (req as { socket?: { remoteAddress?: string } } | undefined)?.socket?.remoteAddress;
}

/**
 * What the gateway keeps of one request, in one place rather than a map each: its id, made as it
 * arrives (useRequestId) or when first asked (a socket's operation), and what bounds its upstream
 * calls once its operation starts (useOperationBounds), which its context reads with no lookup.
 */
interface RequestState {
  readonly id: string;
  operation?: OperationBounds | undefined;
  /** A subscription or a live query: answered as a stream of events (incremental-delivery.ts). */
  eventStream?: EventStream;
}

const requests = new WeakMap<Request, RequestState>();

function stateOf(request: Request): RequestState {
  let state = requests.get(request);
  if (state === undefined) requests.set(request, (state = { id: randomUUID() }));
  return state;
}

const requestOf = (args: { contextValue: unknown }) => (args.contextValue as { request?: Request }).request;

/**
 * One signal per operation, made as it starts, that its upstream calls stop on (upstream/operation.ts).
 * A query or mutation: the operation deadline (OPERATION_DEADLINE_MS: every call, with its time
 * queued, its retries and waits, and any token it needs, is over by its start plus this) or its
 * client leaving, whichever comes first: the request's signal, which Yoga's node:http adapter aborts
 * when the response closes before it finished (a closed tab, a dropped connection, a load balancer's
 * timeout), and ws.ts when the socket closes. Made in onExecute, which queries and mutations pass
 * and subscriptions do not: a subscription's context lives for hours, so a deadline counted from its
 * start would fail every event after the first minutes; its signal is its life (onSubscribe), and
 * each event's reads are bounded by the per-call timeout and the retry budget.
 *
 * The executor is handed the client's leaving too, as Yoga's useExecutionCancellation hands it the
 * request's signal (that plugin's whole work, done here rather than in one more hook per operation):
 * an abandoned screen ends as one aborted execution, not an error per field left. Not the
 * operation's signal: a field past the deadline still answers with its own coded error. A query's or
 * mutation's is the operation's `clientLeft`, a signal of Node's own that the executor reads at
 * every field, rather than the request's @whatwg-node Proxy.
 */
function useOperationBounds(upstream: UpstreamRuntime): Plugin {
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

/** The requests a route answered (YogaOptions.routes). */
const routed = new WeakSet<Request>();

/**
 * The routes (YogaOptions.routes) as one onRequest hook: each route's own, in order, until one
 * answers; what it answers the plugins after it leave alone (graphqlOnly). One hook rather than one
 * per route, because every request, GraphQL's included, asks each route in turn, and Yoga makes a
 * payload and a chain of promise helpers for each hook it calls (about 1.3 KB a hook per request,
 * counted with bench/allocations.ts): six routes were 8 KB of every operation.
 */
function useRoutes(routes: Plugin[]): Plugin {
  const answers = routes.map((route) => {
    const { onRequest, ...others } = route;
    if (!onRequest || Object.keys(others).length > 0) throw new Error('a route is an onRequest hook and nothing else');
    return onRequest;
  });
  return {
    onRequest: (payload) => {
      let answered = false;
      const asRoute = {
        ...payload,
        endResponse: (response: Response) => {
          answered = true;
          routed.add(payload.request);
          payload.endResponse(withReasonPhrase(response));
        },
      };
      const askFrom = (first: number): void | Promise<void> => {
        for (let index = first; index < answers.length && !answered; index++) {
          const asking: unknown = answers[index]!(asRoute);
          if (isPromiseLike(asking)) return Promise.resolve(asking).then(() => askFrom(index + 1));
        }
      };
      return askFrom(0);
    },
  };
}

const isPromiseLike = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';

/**
 * A route's answer with node:http's reason phrase (`403 Forbidden`) where the route made its Response
 * without one: Yoga's own answers carry it, and node:http wrote it when it answered these paths.
 */
function withReasonPhrase(response: Response): Response {
  if (response.statusText) return response;
  return new Response(response.body, {
    status: response.status,
    statusText: STATUS_CODES[response.status] ?? '',
    headers: response.headers,
  });
}

/**
 * A plugin whose response hook passes over the routes' answers: they go out as a route made them,
 * with no CORS headers, request id, ETag or compression, and are not counted among the GraphQL
 * endpoint's answers, as when node:http answered them before Yoga.
 */
function graphqlOnly(plugin: Plugin): Plugin {
  const { onResponse } = plugin;
  if (!onResponse) return plugin;
  return { ...plugin, onResponse: (payload) => (routed.has(payload.request) ? undefined : onResponse(payload)) };
}

/** The gateway's own id of a request: made once, as it arrives (useRequestId) or when first asked (a socket's operation). */
export function requestIdOf(request: Request): string {
  return stateOf(request).id;
}

/** Every answer says which request it was, by the gateway's own id, so a caller can quote it to an operator. */
const useRequestId = (): Plugin => ({
  onRequest: ({ request }) => {
    stateOf(request);
  },
  onResponse: ({ request, response }) => {
    const id = requests.get(request)?.id;
    if (id) response.headers.set('x-request-id', id);
  },
});

/**
 * The GraphQL app, apart from any listener: tests call `yoga.fetch` in-process. GraphiQL is served
 * from the installed package (all assets inlined), so it works with no internet.
 */
export function createGatewayYoga(options: YogaOptions): YogaServerInstance<Record<string, unknown>, GatewayContext> {
  // The inlined page is ~9 MB: load it on the first visit (API-only deployments never pay for it)
  // and build it once, not per visit.
  let page: Promise<string> | undefined;
  const { auth } = options;
  return createYoga<Record<string, unknown>, GatewayContext>({
    schema: options.schema,
    graphqlEndpoint: GRAPHQL_PATH,
    landingPage: false,
    batching: false,
    // The body limit is ours (limits/body-size.ts, MAX_BODY_BYTES): checked on Content-Length before
    // parsing, counted only for chunked bodies. Yoga's own would pipe every body through a stream as well.
    maxRequestBodySize: false,
    // Ours, after the routes (below): Yoga's own would answer every OPTIONS, a route's included, with a 204.
    cors: false,
    graphiql:
      options.graphiql === false
        ? false
        : // GraphiQL sends subscriptions as GETs (text/event-stream): they need the CSRF header too.
          { title: 'Banking gateway', defaultQuery: DEFAULT_QUERY, additionalHeaders: { [CSRF_HEADER]: '1' } },
    renderGraphiQL: (graphiqlOptions) =>
      (page ??= import('@graphql-yoga/render-graphiql').then(({ renderGraphiQL }) => renderGraphiQL(graphiqlOptions))),
    maskedErrors: { maskError: createMaskError(options.logger, options.clientError) },
    logging: yogaLogging(options.logger),
    // Tracing first: its span is the parent of all the others do. Then the routes, before anything
    // of GraphQL sees their requests. Compression last: every other plugin has set its headers by
    // then (the ETag names the JSON).
    // The gateway's own plugins run as one (merged-plugins.ts): a hook per phase, not one per plugin.
    plugins: [
      ...(options.tracer ? [useTracing(options.tracer, (request) => requests.get(request)?.id)] : []),
      mergePlugins([
        useRoutes(options.routes ?? []),
        ...[
          ...(auth.cors === false ? [] : [useCORS(auth.cors) as Plugin]),
          useRequestId(),
          useCodedEmptyRefusals(),
          useOperationBounds(options.upstream),
          ...incrementalDelivery({ eventStreamOf: (request) => requests.get(request)?.eventStream }),
          ...(options.watchers ?? []),
          ...auth.plugins,
          ...(options.plugins ?? []),
          useConditionalGet(),
          useResponseCompression(),
        ].map(graphqlOnly),
      ]),
    ],
    context: async ({ request, req }) => {
      const address = remoteAddressOf(req);
      const caller = await auth.identify(request, address);
      const state = stateOf(request);
      const requestId = state.id;
      // Set when the operation starts executing or subscribing (useOperationBounds).
      const operation = () => state.operation;
      const clientRequestId = clientRequestIdOf(request);
      const client = fairShareKey(caller, address);
      return {
        caller,
        client,
        requestId,
        clientRequestId,
        learnBankToken: auth.learnToken,
        upstream: auth.guardUpstream(
          caller,
          options.upstream.forRequest({
            callerToken: caller.upstreamToken,
            gatewayLogin: auth.config.mode !== 'passthrough',
            correlationId: requestId,
            client,
            view: caller.access.cardholderId === null ? undefined : `cardholder:${caller.access.cardholderId}`,
            operation,
          }),
          requestId,
        ),
        logger: options.logger.child(clientRequestId === null ? { requestId } : { requestId, clientRequestId }),
        events: options.events,
        cardFreezes: options.cardFreezes,
        webhookCodes: options.webhookCodes ?? {},
        gatewayWebhooks: options.gatewayWebhooks ?? NO_GATEWAY_WEBHOOKS,
        tracer: options.tracer,
        operationSignal: () => state.operation?.signal,
        operation,
      };
    },
  });
}
