import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The gateway's Prometheus registry, one per gateway (tests run several in one process). Each
 * subsystem registers its own metrics on it from a file beside it (upstream/metrics.ts,
 * events/metrics.ts, ...); observability/metrics.ts gathers them, and GET /metrics reads it.
 * Node's process metrics (CPU, memory, event loop lag, GC) are left out of tests, which run many gateways.
 */
export function createMetricsRegistry(processMetrics: boolean | undefined): Registry {
  const registry = new Registry();
  if (processMetrics) collectDefaultMetrics({ register: registry });
  return registry;
}

/** The buckets of GraphQL operations' and bank calls' durations: the same, so the two compare. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
