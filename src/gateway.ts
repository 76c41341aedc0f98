import type { Plugin } from 'graphql-yoga';
import { createCallerAuth, type CallerAuth } from './auth/index.ts';
import {
  DEFAULT_LIMITS,
  DEFAULT_RESILIENCE,
  type CallerAuthConfig,
  type QueryLimitsConfig,
  type ResilienceConfig,
  type UpstreamConfig,
  type WebhookConfig,
} from './config.ts';
import { createMemoryEventBus, createRedisEventBus, type EventBus } from './events/bus.ts';
import { createWebhookIntake } from './events/intake.ts';
import type { Logger } from './logger.ts';
import { buildSchema } from './schema/index.ts';
import { createMetrics, type GatewayMetrics } from './observability/metrics.ts';
import { useOperationLog } from './observability/operation-log.ts';
import { queryLimitPlugins } from './security/limits.ts';
import { createGatewayServer, type GatewayServer } from './server.ts';
import { createUpstreamRuntime, type UpstreamRuntime } from './upstream/index.ts';
import type { RetryPolicy } from './upstream/retry.ts';
import { createGatewayYoga } from './yoga.ts';

export interface Gateway {
  yoga: ReturnType<typeof createGatewayYoga>;
  upstream: UpstreamRuntime;
  events: EventBus;
  server: GatewayServer;
  auth: CallerAuth;
  metrics: GatewayMetrics;
}

export interface GatewayOptions {
  upstream: UpstreamConfig;
  logger: Logger;
  retry?: RetryPolicy;
  webhooks?: Partial<WebhookConfig>;
  /** Set: events fan out and are deduplicated across instances through Redis. */
  redisUrl?: string | undefined;
  /** Who may call; default: mode none (embedded sandbox, tests). */
  auth?: CallerAuthConfig;
  limits?: Partial<QueryLimitsConfig>;
  resilience?: Partial<ResilienceConfig>;
  /** With it, /metrics needs `Authorization: Bearer <token>`. */
  metricsToken?: string | undefined;
  /** Node's process metrics on /metrics (the server turns them on; tests run many gateways and leave them off). */
  processMetrics?: boolean;
}

const DEFAULT_AUTH: CallerAuthConfig = { mode: 'none', apiKeys: [], jwt: undefined, allowedOrigins: [] };

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
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const resilience = { ...DEFAULT_RESILIENCE, ...options.resilience };
  const metrics = createMetrics({
    openSubscriptions: () => events.activeSubscriptions(),
    token: options.metricsToken,
    processMetrics: options.processMetrics,
  });
  const upstream = createUpstreamRuntime(options.upstream, logger, options.retry, resilience, metrics.upstream);
  const events = options.redisUrl ? createRedisEventBus(options.redisUrl, logger) : createMemoryEventBus();
  const auth = createCallerAuth(options.auth ?? DEFAULT_AUTH, { upstream, logger });
  const yoga = createGatewayYoga({
    schema: buildSchema(),
    upstream,
    logger,
    events,
    auth,
    webhookCodes: webhooks,
    graphiql: limits.graphiql,
    plugins: [metrics.plugin, useOperationLog() as Plugin, ...queryLimitPlugins(limits, logger)],
  });
  const server = createGatewayServer({
    yoga,
    auth,
    resilience,
    maxBodyBytes: limits.maxBodyBytes,
    upstream,
    upstreamBaseUrl: options.upstream.baseUrl,
    logger,
    webhookIntake: createWebhookIntake({ config: webhooks, bus: events, logger, onOutcome: metrics.webhook }),
    metrics,
    endSubscriptions: () => events.endSubscriptions(),
    onStop: () => events.close(),
  });
  return { yoga, upstream, events, server, auth, metrics };
}
