import type { IncomingMessage, ServerResponse } from 'node:http';
import { getOperationAST, type DocumentNode, type ExecutionResult, type GraphQLError } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { EventBusObserver } from '../events/bus.ts';
import type { BreakerState, HostLimitReading, UpstreamObserver } from '../upstream/observer.ts';
import type { RecordCacheStats } from '../upstream/record-cache.ts';
import { bearerToken } from '../auth/credentials.ts';
import { sameSecret } from '../security/secrets.ts';
import type { WebhookOutcome } from '../events/intake.ts';
import type { ClientRateLimitObserver } from '../security/client-rate-limit.ts';
import { accessMetrics, type AccessMetrics } from './access-metrics.ts';

/**
 * The gateway's Prometheus metrics, one registry per gateway (tests run several in one process).
 * Label values are bounded: operation names come from callers, so only the first
 * MAX_OPERATION_NAMES distinct names get their own series and the rest count as `other`.
 */
export const MAX_OPERATION_NAMES = 200;

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const BREAKER_VALUES: Record<BreakerState, number> = { closed: 0, 'half-open': 1, open: 2 };

export type { WebhookOutcome };

export interface GatewayMetrics extends AccessMetrics {
  registry: Registry;
  /** Upstream calls and breaker states, as the upstream client reports them. */
  upstream: UpstreamObserver;
  /** One bank event delivery, by what the intake made of it (`status`: the HTTP answer). */
  webhook(outcome: WebhookOutcome, status: number): void;
  /** The event bus: where accepted events went, Redis's state, the buffer kept while it is away. */
  events: EventBusObserver;
  /** The limits per client: operations refused over their window, and whether Redis counts the window. */
  clientLimits: ClientLimitMetrics;
  /** Operations by name, type and outcome, refusals and HTTP answers. */
  plugin: Plugin;
  /** GET /metrics. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export interface MetricsOptions {
  /** Open subscriptions right now (the event bus counts them). */
  openSubscriptions: () => number;
  /** With it, /metrics needs `Authorization: Bearer <token>`. */
  token?: string | undefined;
  /** Node's process metrics (CPU, memory, event loop lag, GC); off in tests, which run many gateways. */
  processMetrics?: boolean;
  /** The record cache's counts now; undefined when it is off (UPSTREAM_CACHE=false). */
  recordCache?: () => RecordCacheReading | undefined;
}

/** What the record cache reports (src/upstream/record-cache.ts), with the invalidations other instances missed. */
export interface RecordCacheReading extends RecordCacheStats {
  trusted: boolean;
  lostInvalidations: number;
}

export function createMetrics(options: MetricsOptions): GatewayMetrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  const operations = new Histogram({
    name: 'gateway_operation_duration_seconds',
    help: 'GraphQL operations executed, by operation name, type and outcome (ok, partial, error).',
    labelNames: ['operation', 'type', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const refused = new Counter({
    name: 'gateway_operations_refused_total',
    help: 'Operations refused before execution because the document failed validation (including the query limits).',
    registers: [registry],
  });
  const abandoned = new Counter({
    name: 'gateway_operations_abandoned_total',
    help: 'Queries and mutations whose client left before they were done (the connection or socket closed): their calls to the bank were stopped, a write already sent excepted.',
    registers: [registry],
  });
  const responses = new Counter({
    name: 'gateway_http_responses_total',
    help: 'Answers of the GraphQL endpoint by HTTP status (401: unauthenticated, 413: too large, 400: refused).',
    labelNames: ['status'] as const,
    registers: [registry],
  });
  const subscriptionsStarted = new Counter({
    name: 'gateway_subscriptions_started_total',
    help: 'Subscriptions started, by operation name.',
    labelNames: ['operation'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'gateway_subscriptions_open',
    help: 'Subscriptions open on this instance (graphql-ws and SSE).',
    registers: [registry],
    collect() {
      this.set(options.openSubscriptions());
    },
  });
  if (options.recordCache) recordCacheMetrics(registry, options.recordCache);
  const upstreamCalls = new Histogram({
    name: 'gateway_upstream_call_duration_seconds',
    help: 'Calls to the bank by endpoint, breaker family and status (a number, or network, timeout, circuit-open, deadline, rate-limited).',
    labelNames: ['endpoint', 'family', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const breakers = new Gauge({
    name: 'gateway_upstream_breaker_state',
    help: 'Circuit breaker of each upstream family: 0 closed, 1 half-open, 2 open.',
    labelNames: ['family'] as const,
    registers: [registry],
  });
  const hostLimits = hostLimitMetrics(registry);
  const clientLimits = clientLimitMetrics(registry);
  const webhooks = new Counter({
    name: 'gateway_webhook_events_total',
    help: 'Bank event deliveries by outcome (accepted, duplicate, rejected) and HTTP status answered.',
    labelNames: ['outcome', 'status'] as const,
    registers: [registry],
  });
  const names = boundedNames(MAX_OPERATION_NAMES);
  const events = eventBusMetrics(registry);
  const access = accessMetrics(registry);

  const plugin: Plugin = {
    onValidate: () => ({ result }) => {
      if (result.length > 0) refused.inc();
    },
    onExecute: ({ args }) => {
      const started = performance.now();
      const { name, type } = describeOperation(args.document, args.operationName);
      return {
        onExecuteDone: whenExecuted((result) => {
          operations.observe({ operation: names(name), type, outcome: outcomeOf(result) }, (performance.now() - started) / 1000);
        }),
      };
    },
    onSubscribe: ({ args }) => {
      subscriptionsStarted.inc({ operation: names(describeOperation(args.document, args.operationName).name) });
    },
    onResponse: ({ response }) => {
      responses.inc({ status: String(response.status) });
    },
  };

  return {
    ...access,
    registry,
    plugin,
    upstream: {
      call: ({ endpoint, family, status, durationMs }) =>
        upstreamCalls.observe({ endpoint, family, status: String(status) }, durationMs / 1000),
      breaker: (family, state) => breakers.set({ family }, BREAKER_VALUES[state]),
      ...hostLimits,
      operationAbandoned: () => abandoned.inc(),
    },
    clientLimits,
    webhook: (outcome, status) => webhooks.inc({ outcome, status: String(status) }),
    events,
    handle: async (req, res) => {
      if (options.token && !sameSecret(bearerToken(req.headers.authorization) ?? '', options.token)) {
        res.writeHead(401, { 'www-authenticate': 'Bearer realm="metrics"', 'content-type': 'text/plain' });
        res.end('metrics need Authorization: Bearer <METRICS_TOKEN>\n');
        return;
      }
      const body = await registry.metrics();
      res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
      res.end(body);
    },
  };
}

/**
 * The record cache, read at each scrape. Its counts only grow, so the counters advance by what was
 * added since the last scrape.
 */
function recordCacheMetrics(registry: Registry, read: () => RecordCacheReading | undefined): void {
  /** A counter whose series follow counts of the cache, each advanced by what it gained since the last scrape. */
  const counter = (name: string, help: string, series: readonly { labels?: Record<string, string>; pick: (r: RecordCacheReading) => number }[]) => {
    const seen = series.map(() => 0);
    new Counter({
      name,
      help,
      labelNames: [...new Set(series.flatMap((s) => Object.keys(s.labels ?? {})))],
      registers: [registry],
      collect() {
        const r = read();
        if (!r) return;
        series.forEach(({ labels = {}, pick }, i) => {
          const now = pick(r);
          if (now > seen[i]!) this.inc(labels, now - seen[i]!);
          seen[i] = now;
        });
      },
    });
  };
  counter(
    'gateway_record_cache_reads_total',
    'Bank reads the record cache could keep, by result: hit (answered from it), miss (sent to the bank), joined (shared a call already on its way).',
    [
      { labels: { result: 'hit' }, pick: (r) => r.hits },
      { labels: { result: 'miss' }, pick: (r) => r.misses },
      { labels: { result: 'joined' }, pick: (r) => r.joined },
    ],
  );
  counter('gateway_record_cache_invalidations_total', 'Invalidations of the record cache: bank events, writes of this instance and of the others.', [
    { pick: (r) => r.invalidations },
  ]);
  counter(
    'gateway_record_cache_invalidations_lost_total',
    "Writes of this instance whose invalidation could not be published to the other instances (Redis away); they may show the records changed until their TTL.",
    [{ pick: (r) => r.lostInvalidations }],
  );
  new Gauge({
    name: 'gateway_record_cache_entries',
    help: 'Answers the record cache holds now.',
    registers: [registry],
    collect() {
      this.set(read()?.entries ?? 0);
    },
  });
  new Gauge({
    name: 'gateway_record_cache_trusted',
    help: "Whether the record cache answers reads (1), or is bypassed (0) because other instances' writes cannot reach it (Redis away).",
    registers: [registry],
    collect() {
      const r = read();
      if (r) this.set(r.trusted ? 1 : 0);
    },
  });
}

/** QUEUE_BUCKETS: most waits are nothing; a wait worth seeing is a round trip or more. */
const QUEUE_BUCKETS = [0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** Each bank host's concurrency limit: the limit in force, calls in flight and waiting, and the wait. */
function hostLimitMetrics(registry: Registry): Pick<UpstreamObserver, 'hostLimit' | 'queueWait' | 'heldByClientShare'> {
  const readers = new Map<string, () => HostLimitReading>();
  const gauge = (name: string, help: string, pick: (reading: HostLimitReading) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['host'] as const,
      registers: [registry],
      collect() {
        for (const [host, read] of readers) this.set({ host }, pick(read()));
      },
    });
  gauge('gateway_upstream_concurrency_limit', 'Calls the gateway lets be in flight to each bank host now (the adaptive limit).', (r) => r.limit);
  gauge('gateway_upstream_calls_in_flight', 'Calls in flight to each bank host now.', (r) => r.inFlight);
  gauge('gateway_upstream_calls_queued', 'Calls waiting for a slot under each bank host\'s limit now.', (r) => r.queued);
  gauge(
    'gateway_upstream_calls_held_by_client_share',
    "Of the calls waiting, those held back by their client's own cap (CLIENT_MAX_UPSTREAM_IN_FLIGHT), not by the host's limit.",
    (r) => r.heldByClientShare,
  );
  const waits = new Histogram({
    name: 'gateway_upstream_queue_wait_seconds',
    help: "How long each attempt waited for a slot under its bank host's limit (0 when one was free).",
    labelNames: ['host'] as const,
    buckets: QUEUE_BUCKETS,
    registers: [registry],
  });
  const capWaits = new Counter({
    name: 'gateway_upstream_client_share_waits_total',
    help: "Calls that had to wait for their own client's calls to end, at its cap (CLIENT_MAX_UPSTREAM_IN_FLIGHT), rather than for the host's limit.",
    labelNames: ['host'] as const,
    registers: [registry],
  });
  return {
    hostLimit: (host, read) => readers.set(host, read),
    queueWait: (host, ms) => waits.observe({ host }, ms / 1000),
    heldByClientShare: (host) => capWaits.inc({ host }),
  };
}

/**
 * Why the limits per client refused an operation. Only the window refuses: a call over its
 * client's cap of calls in flight waits instead (gateway_upstream_client_share_waits_total).
 */
export type ClientLimitReason = 'operations_per_window';

export interface ClientLimitMetrics extends Required<ClientRateLimitObserver> {
  refused(reason: ClientLimitReason): void;
}

function clientLimitMetrics(registry: Registry): ClientLimitMetrics {
  const refused = new Counter({
    name: 'gateway_client_limit_refusals_total',
    help: 'Operations the limits per client refused, by reason: operations_per_window (RATE_LIMITED, the client spent its window).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  // Made when a limiter counting in Redis first reports: without one, the gauge is absent rather than a misleading 0.
  let shared: Gauge | undefined;
  const sharedGauge = () =>
    (shared ??= new Gauge({
      name: 'gateway_client_rate_limit_shared',
      help: 'Whether Redis counts the operations per client across instances (1) or this instance counts alone while Redis is away (0); absent without REDIS_URL or the limit.',
      registers: [registry],
    }));
  return { refused: (reason) => refused.inc({ reason }), shared: (up) => sharedGauge().set(up ? 1 : 0) };
}

/** The event bus's figures: accepted events by route, Redis up or down, the outage buffer. */
function eventBusMetrics(registry: Registry): EventBusObserver {
  const accepted = new Counter({
    name: 'gateway_events_accepted_total',
    help: "Bank events accepted, by route: shared (written to Redis or the memory log) or local (Redis away: this instance's subscribers only, buffered for the others).",
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const buffered = new Gauge({
    name: 'gateway_events_buffered',
    help: 'Events accepted while Redis was away, waiting to be published to the other instances.',
    registers: [registry],
  });
  const flushed = new Counter({
    name: 'gateway_events_buffer_flushed_total',
    help: 'Buffered events published to the other instances once Redis answered again.',
    registers: [registry],
  });
  const dropped = new Counter({
    name: 'gateway_events_buffer_dropped_total',
    help: 'Buffered events dropped because the buffer was full (EVENT_LOG_MAX_EVENTS): the other instances never got them.',
    registers: [registry],
  });
  const redisUp = new Gauge({ name: 'gateway_redis_up', help: 'Whether Redis answers (1) or not (0); absent without REDIS_URL.', registers: [registry] });
  return {
    accepted: (route) => accepted.inc({ route }),
    buffered: (size) => buffered.set(size),
    flushed: (count) => flushed.inc(count),
    dropped: (count) => dropped.inc(count),
    redis: (up) => redisUp.set(up ? 1 : 0),
  };
}

/** An operation's name and type, for metrics and the operation log. */
export function describeOperation(document: DocumentNode, operationName: string | null | undefined): { name: string; type: string } {
  const operation = getOperationAST(document, operationName);
  return { name: operation?.name?.value ?? 'anonymous', type: operation?.operation ?? 'unknown' };
}

export type Outcome = 'ok' | 'partial' | 'error';

/** How an executed operation ended: no errors, errors beside data, or errors alone. */
export function outcomeOf(result: { errors?: readonly unknown[] | undefined; data?: unknown }): Outcome {
  return !result.errors?.length ? 'ok' : result.data ? 'partial' : 'error';
}

/** An executed operation's result as a whole: its errors, and whether it had data. */
export interface FinalResult {
  errors?: readonly { message: string; path?: readonly (string | number)[] | undefined; extensions?: Record<string, unknown> }[];
  data?: unknown;
}

/**
 * Envelop's onExecuteDone hook that calls `done` once per operation with its whole result: at once
 * for a single result, and at the end of the parts for @defer / @stream, with every part's errors
 * (the initial payload's data counts as the operation's data).
 */
export function whenExecuted(done: (result: FinalResult) => void) {
  return ({ result }: { result: ExecutionResult | AsyncIterable<ExecutionResult> }) => {
    if (!isAsyncIterable(result)) {
      if ('errors' in result || 'data' in result) done(result as FinalResult);
      return undefined;
    }
    const errors: GraphQLError[] = [];
    let data: unknown;
    return {
      onNext: ({ result: part }: { result: ExecutionResult & { incremental?: readonly { errors?: readonly GraphQLError[] }[] } }) => {
        data ??= part.data ?? undefined;
        errors.push(...(part.errors ?? []), ...(part.incremental ?? []).flatMap((entry) => entry.errors ?? []));
      },
      onEnd: () => done({ data, ...(errors.length > 0 ? { errors } : {}) }),
    };
  };
}

/** Caller-chosen names as label values, without letting a caller grow the series without end. */
function boundedNames(max: number): (name: string) => string {
  const seen = new Set<string>();
  return (name) => {
    const label = name.slice(0, 64);
    if (seen.has(label)) return label;
    if (seen.size >= max) return 'other';
    seen.add(label);
    return label;
  };
}
