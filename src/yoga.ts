import type { GraphQLSchema } from 'graphql';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { GatewayContext } from './context.ts';
import type { EventBus } from './events/bus.ts';
import { createMaskError } from './errors.ts';
import type { Logger } from './logger.ts';
import type { UpstreamRuntime } from './upstream/index.ts';

export const GRAPHQL_PATH = '/graphql';

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
  webhookCodes?: GatewayContext['webhookCodes'];
  graphiql?: boolean;
}

/** `Authorization: Bearer <token>` → the token, to be forwarded upstream instead of our own. */
export function bearerToken(header: string | null | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * The GraphQL app, apart from any listener: tests call `yoga.fetch` in-process. GraphiQL is served
 * from the installed package (all assets inlined), so it works with no internet.
 */
export function createGatewayYoga(options: YogaOptions): YogaServerInstance<Record<string, unknown>, GatewayContext> {
  // The inlined page is ~9 MB: load it on the first visit (API-only deployments never pay for it)
  // and build it once, not per visit.
  let page: Promise<string> | undefined;
  return createYoga<Record<string, unknown>, GatewayContext>({
    schema: options.schema,
    graphqlEndpoint: GRAPHQL_PATH,
    landingPage: false,
    graphiql: options.graphiql === false ? false : { title: 'Banking gateway', defaultQuery: DEFAULT_QUERY },
    renderGraphiQL: (graphiqlOptions) =>
      (page ??= import('@graphql-yoga/render-graphiql').then(({ renderGraphiQL }) => renderGraphiQL(graphiqlOptions))),
    maskedErrors: { maskError: createMaskError(options.logger) },
    logging: options.logger,
    context: ({ request }) => ({
      upstream: options.upstream.forRequest(bearerToken(request.headers.get('authorization'))),
      logger: options.logger,
      events: options.events,
      webhookCodes: options.webhookCodes ?? {},
    }),
  });
}
