import type { UpstreamConfig } from './config.ts';
import type { Logger } from './logger.ts';
import { buildSchema } from './schema/index.ts';
import { createGatewayServer, type GatewayServer } from './server.ts';
import { createUpstreamRuntime, type UpstreamRuntime } from './upstream/index.ts';
import type { RetryPolicy } from './upstream/retry.ts';
import { createGatewayYoga } from './yoga.ts';

export interface Gateway {
  yoga: ReturnType<typeof createGatewayYoga>;
  upstream: UpstreamRuntime;
  server: GatewayServer;
}

/** Wires schema, upstream runtime, Yoga and the HTTP server; listening is left to the caller. */
export function createGateway(options: { upstream: UpstreamConfig; logger: Logger; retry?: RetryPolicy }): Gateway {
  const upstream = createUpstreamRuntime(options.upstream, options.logger, options.retry);
  const yoga = createGatewayYoga({ schema: buildSchema(), upstream, logger: options.logger });
  const server = createGatewayServer({ yoga, upstream, upstreamBaseUrl: options.upstream.baseUrl, logger: options.logger });
  return { yoga, upstream, server };
}
