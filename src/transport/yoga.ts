import type { Tracer } from '@opentelemetry/api';
import type { GraphQLSchema } from 'graphql';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { CSRF_HEADER } from '../authentication/csrf.ts';
import { BANK_COST_HEADER } from '../limits/bank-call-pricing.ts';
import type { CallerAuth } from '../authentication/index.ts';
import { fairShareKey } from '../authentication/identity.ts';
import type { GatewayContext } from '../context.ts';
import type { EventBus } from '../events/bus.ts';
import type { Logger } from '../platform/logger.ts';
import type { UpstreamRuntime } from '../upstream/index.ts';
import { documentCaches } from '../limits/document-cache.ts';
import { createMaskError, yogaLogging } from './errors.ts';
import { stateOf } from './request-state.ts';

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
  /** The parsed documents kept, by the length of their text (DOCUMENT_CACHE_MAX_KB; 0: none). */
  documentCacheKb: number;
  /** The request path: every plugin, in order (request-path.ts). */
  plugins: Plugin[];
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
 * The GraphQL app, apart from any listener: tests call `yoga.fetch` in-process. GraphiQL is served
 * from the installed package (all assets inlined), so it works with no internet.
 */
export function createGatewayYoga(options: YogaOptions): YogaServerInstance<Record<string, unknown>, GatewayContext> {
  // The inlined page is megabytes (docs/frontend.md): load it on the first visit (API-only deployments never pay for it)
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
    parserAndValidationCache: options.documentCacheKb === 0 ? false : documentCaches(options.documentCacheKb),
    // Ours, after the routes (below): Yoga's own would answer every OPTIONS, a route's included, with a 204.
    cors: false,
    graphiql:
      options.graphiql === false
        ? false
        : // GraphiQL sends subscriptions as GETs (text/event-stream): they need the CSRF header too.
          { title: 'Banking gateway', defaultQuery: DEFAULT_QUERY, additionalHeaders: { [CSRF_HEADER]: '1', [BANK_COST_HEADER]: 'true' } },
    renderGraphiQL: (graphiqlOptions) =>
      (page ??= import('@graphql-yoga/render-graphiql').then(({ renderGraphiQL }) => renderGraphiQL(graphiqlOptions))),
    maskedErrors: { maskError: createMaskError(options.logger, options.clientError) },
    logging: yogaLogging(options.logger),
    plugins: options.plugins,
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
