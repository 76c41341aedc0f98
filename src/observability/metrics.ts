import type { Plugin } from 'graphql-yoga';
import type { Registry } from 'prom-client';
import type { RefusalObserver } from '../authentication/refusal-log.ts';
import { callerRefusalMetrics } from '../authentication/refusal-metrics.ts';
import type { EventBusObserver } from '../events/bus.ts';
import type { WebhookOutcome } from '../events/intake.ts';
import { eventBusMetrics, webhookMetrics } from '../events/metrics.ts';
import { createMetricsRegistry } from '../platform/metrics-registry.ts';
import {
  bankCallMetrics,
  clientLimitMetrics,
  inFlightMetrics,
  type BankCallMetrics,
  type ClientLimitMetrics,
  type InFlightMetrics,
} from '../limits/metrics.ts';
import { upstreamMetrics } from '../upstream/metrics.ts';
import type { UpstreamObserver } from '../upstream/observer.ts';
import { recordCacheMetrics, type RecordCacheReading } from '../upstream/record-cache-metrics.ts';
import { operationMetrics } from './operation-metrics.ts';
import type { ExecutionWatcher } from './operation-outcome.ts';

/**
 * The gateway's Prometheus metrics, gathered on one registry per gateway: each subsystem's own,
 * defined beside it, handed to it as its observer. (The audit trail's are made where the gateway
 * is wired: audit/ sits above this layer.) GET /metrics reads the registry: routes/metrics.ts.
 */
export interface GatewayMetrics {
  registry: Registry;
  /** Upstream calls and breaker states, as the calls to the bank report them. */
  upstream: UpstreamObserver;
  /** One bank event delivery, by what the intake made of it (`status`: the HTTP answer). */
  webhook(outcome: WebhookOutcome, status: number): void;
  /** The event bus: where accepted events went, Redis's state, the buffer kept while it is away. */
  events: EventBusObserver;
  /** The limits per client: operations refused over their window, and whether Redis counts the window. */
  clientLimits: ClientLimitMetrics;
  bankCalls: BankCallMetrics;
  inFlight: InFlightMetrics;
  /** Callers refused at authentication, by why (missing, invalid, unavailable). */
  callers: RefusalObserver;
  /** A caller's own mistake answered with this code (a bad cursor, a forbidden field...). */
  clientError(code: string): void;
  /** Refusals, subscriptions started and HTTP answers. */
  plugin: Plugin;
  /** Operations executed, by name, type and outcome: a watcher of useExecutionWatchers. */
  executed: ExecutionWatcher;
}

export interface MetricsOptions {
  /** Open subscriptions right now (the event bus counts them). */
  openSubscriptions: () => number;
  /** Node's process metrics (CPU, memory, event loop lag, GC); off in tests, which run many gateways. */
  processMetrics?: boolean;
  /** The record cache's counts now; undefined when it is off (UPSTREAM_CACHE=false). */
  recordCache?: () => RecordCacheReading | undefined;
}

export function createMetrics(options: MetricsOptions): GatewayMetrics {
  const registry = createMetricsRegistry(options.processMetrics);
  const operations = operationMetrics(registry, options.openSubscriptions);
  if (options.recordCache) recordCacheMetrics(registry, options.recordCache);
  return {
    registry,
    plugin: operations.plugin,
    executed: operations.executed,
    clientError: operations.clientError,
    upstream: upstreamMetrics(registry),
    clientLimits: clientLimitMetrics(registry),
    bankCalls: bankCallMetrics(registry),
    inFlight: inFlightMetrics(registry),
    webhook: webhookMetrics(registry),
    events: eventBusMetrics(registry),
    callers: callerRefusalMetrics(registry),
  };
}
