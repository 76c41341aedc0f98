import type { UpstreamConfig, WebhookConfig } from './config.ts';
import { createMemoryEventBus, createRedisEventBus, type EventBus } from './events/bus.ts';
import { createWebhookIntake } from './events/intake.ts';
import type { Logger } from './logger.ts';
import { buildSchema } from './schema/index.ts';
import { createGatewayServer, type GatewayServer } from './server.ts';
import { createUpstreamRuntime, type UpstreamRuntime } from './upstream/index.ts';
import type { RetryPolicy } from './upstream/retry.ts';
import { createGatewayYoga } from './yoga.ts';

export interface Gateway {
  yoga: ReturnType<typeof createGatewayYoga>;
  upstream: UpstreamRuntime;
  events: EventBus;
  server: GatewayServer;
}

export interface GatewayOptions {
  upstream: UpstreamConfig;
  logger: Logger;
  retry?: RetryPolicy;
  webhooks?: Partial<WebhookConfig>;
  /** Set: events fan out and are deduplicated across instances through Redis. */
  redisUrl?: string | undefined;
}

const DEFAULT_WEBHOOKS: WebhookConfig = {
  apiKey: undefined,
  signingSecret: undefined,
  publicUrl: undefined,
  maxBytes: 256 * 1024,
  agentCode: undefined,
  subagentCode: undefined,
  companyCode: undefined,
};

/** Wires schema, upstream runtime, event bus, Yoga and the HTTP server; listening is left to the caller. */
export function createGateway(options: GatewayOptions): Gateway {
  const { logger } = options;
  const webhooks = { ...DEFAULT_WEBHOOKS, ...options.webhooks };
  const upstream = createUpstreamRuntime(options.upstream, logger, options.retry);
  const events = options.redisUrl ? createRedisEventBus(options.redisUrl, logger) : createMemoryEventBus();
  const yoga = createGatewayYoga({ schema: buildSchema(), upstream, logger, events, webhookCodes: webhooks });
  const server = createGatewayServer({
    yoga,
    upstream,
    upstreamBaseUrl: options.upstream.baseUrl,
    logger,
    webhookIntake: createWebhookIntake({ config: webhooks, bus: events, logger }),
    onStop: () => events.close(),
  });
  return { yoga, upstream, events, server };
}
