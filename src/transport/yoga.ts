import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Tracer } from '@opentelemetry/api';
import { useCORS } from '@whatwg-node/server';
import type { GraphQLSchema } from 'graphql';
import { createYoga, useExecutionCancellation, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { CSRF_HEADER } from '../auth/csrf.ts';
import type { CallerAuth } from '../auth/index.ts';
import { fairShareKey } from '../auth/identity.ts';
import { useResponseCompression } from './compression.ts';
import { useConditionalGet } from './conditional-get.ts';
import type { GatewayContext } from '../context.ts';
import type { EventBus } from '../events/bus.ts';
import { createMaskError, useCodedEmptyRefusals, yogaLogging } from '../errors.ts';
import { incrementalDelivery } from './incremental-delivery.ts';
import type { Logger } from '../logger.ts';
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

const requestIds = new WeakMap<Request, string>();

/** What bounds each request's upstream calls, once its operation starts (useOperationBounds). */
const operations = new WeakMap<Request, OperationBounds>();

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
 */
function useOperationBounds(upstream: UpstreamRuntime): Plugin {
  return {
    onExecute({ args }) {
      const request = requestOf(args);
      if (!request) return;
      const operation = upstream.startOperation('execution', request.signal, requestIds.get(request));
      operations.set(request, operation);
      return { onExecuteDone: whenExecuted(() => operation.end()) };
    },
    onSubscribe({ args }) {
      const request = requestOf(args);
      if (request) operations.set(request, upstream.startOperation('subscription', request.signal, requestIds.get(request)));
    },
  };
}

/** The requests a route answered (YogaOptions.routes). */
const routed = new WeakSet<Request>();

/** A route whose answers the plugins after it leave alone (graphqlOnly). */
function answeredAlone(route: Plugin): Plugin {
  const { onRequest } = route;
  if (!onRequest) return route;
  return {
    ...route,
    onRequest: (payload) =>
      onRequest({
        ...payload,
        endResponse: (response) => {
          routed.add(payload.request);
          payload.endResponse(withReasonPhrase(response));
        },
      }),
  };
}

/**
 * A route's answer with node:http's reason phrase (`403 Forbidden`) where the route made its Response
 * without one: Yoga's own answers carry it, and node:http wrote it when it answered these paths.
 */
function withReasonPhrase(response: Response): Response {
  if (response.statusText) return response;
  return new Response(response.body, { status: response.status, statusText: STATUS_CODES[response.status] ?? '', headers: response.headers });
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
  let id = requestIds.get(request);
  if (id === undefined) requestIds.set(request, (id = randomUUID()));
  return id;
}

/** Every answer says which request it was, by the gateway's own id, so a caller can quote it to an operator. */
const useRequestId = (): Plugin => ({
  onRequest: ({ request }) => {
    requestIdOf(request);
  },
  onResponse: ({ request, response }) => {
    const id = requestIds.get(request);
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
    // The body limit is ours (security/body-size.ts, MAX_BODY_BYTES): checked on Content-Length before
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
    plugins: [
      ...(options.tracer ? [useTracing(options.tracer, (request) => requestIds.get(request))] : []),
      ...(options.routes ?? []).map(answeredAlone),
      ...[
        ...(auth.cors === false ? [] : [useCORS(auth.cors) as Plugin]),
        useRequestId(),
        useCodedEmptyRefusals(),
        useOperationBounds(options.upstream),
        // The executor stops resolving when the client has left (Yoga's plugin hands it the request's
        // signal): an abandoned screen ends as one aborted execution, not an error per field left.
        useExecutionCancellation(),
        ...incrementalDelivery(),
        ...(options.watchers ?? []),
        ...auth.plugins,
        ...(options.plugins ?? []),
        useConditionalGet(),
        useResponseCompression(),
      ].map(graphqlOnly),
    ],
    context: async ({ request, req }) => {
      const address = remoteAddressOf(req);
      const caller = await auth.identify(request, address);
      const requestId = requestIdOf(request);
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
            // Set when the operation starts executing or subscribing (useOperationBounds).
            operation: () => operations.get(request),
          }),
          requestId,
        ),
        logger: options.logger.child(clientRequestId === null ? { requestId } : { requestId, clientRequestId }),
        events: options.events,
        cardFreezes: options.cardFreezes,
        webhookCodes: options.webhookCodes ?? {},
        gatewayWebhooks: options.gatewayWebhooks ?? NO_GATEWAY_WEBHOOKS,
        tracer: options.tracer,
        operationSignal: () => operations.get(request)?.signal,
        operation: () => operations.get(request),
      };
    },
  });
}
