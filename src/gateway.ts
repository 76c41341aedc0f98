import type { GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Tracer } from '@opentelemetry/api';
import { auditMetrics } from './audit/metrics.ts';
import { useAuditTrail } from './audit/plugin.ts';
import { createAuditTrail, type AuditTrail } from './audit/trail.ts';
import { createCardFreezes } from './authorization/card-freezes.ts';
import { createCallerAuth, type CallerAuth } from './authentication/index.ts';
import type { CallerIdentity } from './authentication/identity.ts';
import { ALL_PERMISSIONS } from './authorization/permissions.ts';
import {
  DEFAULT_AUTH,
  DEFAULT_CACHE,
  DEFAULT_CLIENT_RATE_LIMIT,
  DEFAULT_EVENT_LOG,
  DEFAULT_FEDERATION,
  DEFAULT_LIMITS,
  DEFAULT_LIVE_QUERIES,
  DEFAULT_RESILIENCE,
  DEFAULT_WEBHOOKS,
  type AuditConfig,
  type ClientRateLimitConfig,
  type EventDurability,
  type EventLogConfig,
  type FederationConfig,
  type LiveQueryConfig,
  type CallerAuthConfig,
  type QueryLimitsConfig,
  type ResilienceConfig,
  type RedisTarget,
  type UpstreamConfig,
  type WebhookConfig,
} from './settings/index.ts';
import { createMemoryEventBus, type EventBus } from './events/bus.ts';
import { createCacheInvalidation } from './events/cache-invalidation.ts';
import { createLiveQueryEngine, type LiveQueryEngine } from './live/engine.ts';
import { withRecordCollectors } from './live/identifiers.ts';
import { liveQueryMetrics } from './live/observer.ts';
import { createRedisEventBus } from './events/redis-bus.ts';
import { createWebhookReconciler, type WebhookReconciler } from './events/webhook-reconciler.ts';
import { describeError } from './transport/errors.ts';
import type { GatewayContext } from './context.ts';
import { createWebhookIntake } from './events/intake.ts';
import type { Logger } from './platform/logger.ts';
import { buildSchema } from './schema/index.ts';
import { forgetRequestReads } from './schema/loaders.ts';
import type { ReadinessTiming } from './routes/health.ts';
import { createMetrics, type GatewayMetrics } from './observability/metrics.ts';
import { clientRateLimit } from './limits/client-limits.ts';
import { gatewayRoutes } from './routes/index.ts';
import { persistedDocuments } from './limits/documents.ts';
import { createPersistedQueryStore } from './limits/persisted-queries.ts';
import { routerTraffic } from './limits/router.ts';
import { createGatewayServer, type GatewayServer } from './transport/server.ts';
import { createUpstreamRuntime, type UpstreamRuntime } from './upstream/index.ts';
import { redisUncertainWrites } from './upstream/uncertain-writes.ts';
import type { RetryPolicy } from './upstream/retry-policy.ts';
import type { UpstreamCallRecord } from './upstream/observer.ts';
import { createGatewayYoga } from './transport/yoga.ts';
import { requestPath } from './transport/request-path.ts';
import { requestIdOf } from './transport/request-state.ts';

export interface Gateway {
  /** Where each mutation field that ran, and each refusal before execution, is recorded; closed by the server's stop (or by an owner that never listened). */
  auditTrail: AuditTrail;
  yoga: ReturnType<typeof createGatewayYoga>;
  upstream: UpstreamRuntime;
  events: EventBus;
  /** Keeps the gateway's own webhook subscriptions filed; started by the owner once the public URL is known. */
  webhookReconciler: WebhookReconciler;
  server: GatewayServer;
  auth: CallerAuth;
  metrics: GatewayMetrics;
  /** The operations per client: its Redis connection, closed by the server's stop (or by an owner that never listened). */
  clientRateLimit: { close(): Promise<void> };
  /** Live queries: what is open, for tests and the metrics. */
  live: LiveQueryEngine;
}

export interface GatewayOptions {
  upstream: UpstreamConfig;
  logger: Logger;
  retry?: RetryPolicy;
  webhooks?: Partial<WebhookConfig>;
  /**
   * Set: events fan out and are deduplicated across instances through Redis, and every other Redis
   * user (cache invalidation, limits, persisted queries, card freezes, the audit stream) shares it.
   */
  redis?: RedisTarget | undefined;
  /** When an event may be acknowledged with Redis (default: on the primary only). */
  eventDurability?: EventDurability | undefined;
  /** Names the Redis keys of the event log (default `bank-events`): instances sharing events share it; tests isolate themselves with it. */
  redisKeyPrefix?: string | undefined;
  /** Retention of the event log that subscriptions resume from. */
  eventLog?: Partial<EventLogConfig>;
  /** How fresh /readyz's evidence about the bank must be (tests shorten it). */
  readiness?: ReadinessTiming;
  /** Who may call; default: mode none (embedded sandbox, tests). */
  auth?: CallerAuthConfig;
  limits?: Partial<QueryLimitsConfig>;
  /** The audit trail of mutation attempts: off unless given (npm start gives AUDIT_LOG's, default stdout). */
  audit?: AuditConfig & { stdout?: { write(line: string): unknown } };
  /** Names the audit trail's Redis Stream (default `audit`): instances that share a trail share it; tests isolate themselves with it. */
  auditRedisKey?: string | undefined;
  /** Names the Redis keys of who froze each card (default `card-freezes`): instances that share freezes share it; tests isolate themselves with it. */
  cardFreezesKeyPrefix?: string | undefined;
  /** Names the Redis keys of writes whose answer was lost (default `uncertain-writes`): instances that share them share it; tests isolate themselves with it. */
  uncertainWritesKeyPrefix?: string | undefined;
  /** Operations per client per window (off by default); counted in Redis with `redis`. */
  clientRateLimit?: Partial<ClientRateLimitConfig>;
  /** Names the Redis keys of those counts (default `client-operations`): instances that share counts share it; tests isolate themselves with it. */
  clientRateLimitKeyPrefix?: string | undefined;
  resilience?: Partial<ResilienceConfig>;
  /** With it, /metrics needs `Authorization: Bearer <token>`. */
  metricsToken?: string | undefined;
  /** Node's process metrics on /metrics (the server turns them on; tests run many gateways and leave them off). */
  processMetrics?: boolean;
  /** Tracing on (observability/tracing-sdk.ts): operations, loader batches and upstream attempts are spans. */
  tracer?: Tracer | undefined;
  /** Yoga or envelop plugins of one's own, any hooks, run after the gateway's (transport/request-path.ts). */
  plugins?: Plugin[];
  /** Live queries (`@live`): their push interval and limits (LIVE_QUERY_*). */
  liveQueries?: Partial<LiveQueryConfig>;
  /** As a Federation 2 subgraph behind a router (FEDERATION_*): off by default. */
  federation?: Partial<FederationConfig>;
}

/**
 * What makes two subscribers' results of one event the same: the bank view their linked reads take
 * (their own token, or the gateway's login), the permissions that decide which fields they get,
 * and the cardholder they are bound to.
 */
function subscriptionScope(caller: CallerIdentity): string {
  const { permissions, cardholderId } = caller.access;
  return [
    caller.upstreamToken ?? 'gateway login',
    ALL_PERMISSIONS.map((p) => (permissions.has(p) ? 1 : 0)).join(''),
    cardholderId ?? '',
  ].join('|');
}

/** The code a thrown error is answered with (transport/errors.ts), for the audit record of a field that threw. */
function errorCodeOf(error: unknown): string | undefined {
  const code = describeError(error)?.extensions.code ?? (error as { extensions?: { code?: unknown } } | undefined)?.extensions?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The graph as served, built once per process for each form (plain, or a Federation subgraph): it
 * depends on nothing of a gateway's settings, and nothing changes it once built, so the gateways a
 * process starts (tests start hundreds) share it.
 */
const served = new Map<boolean, GraphQLSchema>();
function servedSchema(federation: boolean): GraphQLSchema {
  let schema = served.get(federation);
  if (!schema) served.set(federation, (schema = withRecordCollectors(buildSchema({ federation }))));
  return schema;
}

/** Wires schema, upstream runtime, event bus, Yoga and the HTTP server; listening is left to the caller. */
export function createGateway(options: GatewayOptions): Gateway {
  const { logger } = options;
  const webhooks = { ...DEFAULT_WEBHOOKS, ...options.webhooks };
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const resilience = { ...DEFAULT_RESILIENCE, ...options.resilience };
  const metrics = createMetrics({
    openSubscriptions: () => events.activeSubscriptions(),
    processMetrics: options.processMetrics,
    recordCache: () => {
      const cache = upstream.cache;
      return cache && { ...cache.stats, trusted: cache.trusted, lostInvalidations: cacheInvalidation.lost };
    },
  });
  // Writes whose answer was lost, shared by every instance with Redis, so a retry on another instance is told apart too.
  const uncertainWrites = options.redis
    ? redisUncertainWrites(options.redis, options.uncertainWritesKeyPrefix ?? 'uncertain-writes', logger)
    : undefined;
  const live = createLiveQueryEngine({
    config: { ...DEFAULT_LIVE_QUERIES, ...options.liveQueries },
    ratesTtlMs: options.upstream.cache?.ratesTtlMs ?? DEFAULT_CACHE.ratesTtlMs,
    observer: liveQueryMetrics(metrics.registry),
    forgetReads: forgetRequestReads,
    scopeOf: (context) => subscriptionScope(context.caller),
  });
  // The bank reads live queries' re-runs cause are counted where every call is.
  const observer = {
    ...metrics.upstream,
    call: (record: UpstreamCallRecord) => {
      metrics.upstream.call(record);
      live.bankCall(record.endpoint);
    },
  };
  const upstream = createUpstreamRuntime(options.upstream, logger, options.retry, resilience, observer, options.tracer, uncertainWrites);
  const eventLog = { ...DEFAULT_EVENT_LOG, ...options.eventLog };
  const cacheInvalidation = createCacheInvalidation({
    cache: upstream.cache,
    redis: options.redis,
    keyPrefix: options.redisKeyPrefix,
    logger,
    changes: live,
  });
  // Each event drops what it changed once per instance: the intake's for those it takes, the bus's for other instances'.
  const onRemoteEvent = cacheInvalidation.event;
  const events = options.redis
    ? createRedisEventBus({
        redis: options.redis,
        durability: options.eventDurability,
        logger,
        limits: eventLog,
        observer: metrics.events,
        keyPrefix: options.redisKeyPrefix,
        onRemoteEvent,
      })
    : createMemoryEventBus({ limits: eventLog, observer: metrics.events });
  const perClient = clientRateLimit({
    limit: { ...DEFAULT_CLIENT_RATE_LIMIT, ...options.clientRateLimit },
    redis: options.redis,
    keyPrefix: options.clientRateLimitKeyPrefix,
    logger,
    observer: { ...metrics.clientLimits, refused: () => metrics.clientLimits.refused('operations_per_window') },
  });
  const audited = auditMetrics(metrics.registry);
  const auditTrail = createAuditTrail({
    destination: options.audit?.destination ?? { kind: 'off' },
    redis: options.redis,
    redisKey: options.auditRedisKey,
    redisMaxLen: options.audit?.redisMaxLen,
    stdout: options.audit?.stdout,
    logger,
    observer: audited,
  });
  const persistedQueries = createPersistedQueryStore({ logger, redis: options.redis, maxKb: limits.apqMaxKb });
  const cardFreezes = createCardFreezes({ logger, redis: options.redis, keyPrefix: options.cardFreezesKeyPrefix });
  const federation = { ...DEFAULT_FEDERATION, ...options.federation };
  // The supergraph's router, told from the clients it forwards: only with the subgraph on.
  const fromRouter = federation.subgraph ? routerTraffic(federation.routerToken) : undefined;
  const persisted = persistedDocuments(limits, logger, persistedQueries, fromRouter);
  // A new bank token is proven with a bank call: made-up tokens spend the anonymous share of their address.
  const auth = createCallerAuth(options.auth ?? DEFAULT_AUTH, {
    upstream,
    logger,
    limitProof: perClient.take,
    observer: metrics.callers,
    onSocketRefused: (reason, address) =>
      auditTrail.denied({ reason, transport: 'graphql-ws', caller: null, address: address ?? null, requestId: null }),
  });
  const webhookReconciler = createWebhookReconciler({
    upstream,
    programCode: options.upstream.productId,
    webhooks,
    logger,
    explain: (error) => describeError(error)?.message ?? 'unexpected error',
  });
  const yoga = createGatewayYoga({
    // Each record type's fields say which record they read (Type:bankId) when a live query runs them.
    schema: servedSchema(federation.subgraph),
    upstream,
    logger,
    events,
    cardFreezes,
    auth,
    webhookCodes: webhooks,
    gatewayWebhooks: webhookReconciler,
    graphiql: limits.graphiql,
    documentCacheKb: limits.documentCacheKb,
    tracer: options.tracer,
    clientError: metrics.clientError,
    plugins: requestPath({
      tracer: options.tracer,
      added: options.plugins ?? [],
      routes: gatewayRoutes({
        readiness: {
          upstream,
          upstreamBaseUrl: options.upstream.baseUrl,
          timing: options.readiness,
          checks: {
            // Only with Redis: the memory bus has nothing outside the process to fail.
            ...(options.redis ? { redis: () => events.health() ?? { ok: true, detail: 'no Redis' } } : {}),
            webhooks: () => webhookReconciler.coverage(),
          },
          stopping: () => server.stopping,
        },
        metrics: { registry: metrics.registry, token: options.metricsToken },
        webhookIntake: createWebhookIntake({
          config: webhooks,
          bus: events,
          logger,
          onOutcome: metrics.webhook,
          onAccepted: cacheInvalidation.event,
        }),
        originAllowed: auth.originAllowed,
      }),
      auth,
      upstream,
      audit: useAuditTrail(auditTrail, {
        mutations: { codeOf: errorCodeOf, onAttempt: audited.mutation },
        denied: { requestIdOf, knownCaller: auth.knownCaller },
      }),
      metrics,
      limits,
      persisted,
      fromRouter,
      perClient,
      bankCalls: metrics.bankCalls,
      inFlight: metrics.inFlight,
      live,
      // The caller's own bank token, or the gateway's login that every tokenless caller shares.
      // An event's result depends on whose bank view it is read with and what the caller may see of it.
      subscriptionScope: (context) => subscriptionScope((context as GatewayContext).caller),
      subscriptionRefused: (reason) =>
        metrics.clientLimits.refused(reason === 'per_caller' ? 'subscriptions_per_caller' : 'subscriptions_per_connection'),
    }),
  });
  const server = createGatewayServer({
    yoga,
    auth,
    maxBodyBytes: limits.maxBodyBytes,
    clientRequestTimeoutMs: limits.clientRequestTimeoutMs,
    socketDocuments: persisted.forSocket,
    upstream,
    logger,
    endSubscriptions: () => events.endSubscriptions(),
    onStop: async () => {
      webhookReconciler.stop();
      await events.close();
      await cacheInvalidation.close();
      await perClient.close();
      await auditTrail.close();
      await persistedQueries.close();
      await cardFreezes.close();
      await uncertainWrites?.close();
    },
  });
  return { yoga, upstream, events, webhookReconciler, server, auth, metrics, clientRateLimit: perClient, auditTrail, live };
}
