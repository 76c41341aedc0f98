import { Counter, Gauge, type Registry } from 'prom-client';
import { LabelledHistogram } from '../platform/labelled-metrics.ts';
import { LATENCY_BUCKETS } from '../platform/metrics-registry.ts';
import type { BreakerState, HostLimitReading, UpstreamObserver } from './observer.ts';

/** The metrics of the calls to the bank: the calls, breakers, each host's concurrency limit, abandoned operations, contract drift. */

const BREAKER_VALUES: Record<BreakerState, number> = { closed: 0, 'half-open': 1, open: 2 };

export function upstreamMetrics(registry: Registry): UpstreamObserver {
  const abandoned = new Counter({
    name: 'gateway_operations_abandoned_total',
    help: 'Queries and mutations whose client left before they were done (the connection or socket closed): their calls to the bank were stopped, a write already sent excepted.',
    registers: [registry],
  });
  // Observed on every call to the bank: not prom-client's Histogram, whose observe costs far more (labelled-metrics.ts).
  const calls = new LabelledHistogram({
    name: 'gateway_upstream_call_duration_seconds',
    help: 'Calls to the bank by endpoint, breaker family and status (a number, or network, timeout, circuit-open, deadline, rate-limited).',
    labelNames: ['endpoint', 'family', 'status'],
    buckets: LATENCY_BUCKETS,
    registry,
  });
  const breakers = new Gauge({
    name: 'gateway_upstream_breaker_state',
    help: 'Circuit breaker of each upstream family: 0 closed, 1 half-open, 2 open.',
    labelNames: ['family'] as const,
    registers: [registry],
  });
  return {
    call: ({ endpoint, family, status, durationMs }) => calls.series(endpoint, family, String(status)).observe(durationMs / 1000),
    breaker: (family, state) => breakers.set({ family }, BREAKER_VALUES[state]),
    ...hostLimitMetrics(registry),
    ...contractMetrics(registry),
    operationAbandoned: () => abandoned.inc(),
  };
}

/** The whole-payload checks of the bank's answers (contract-checks.ts) and the drift they find. */
function contractMetrics(registry: Registry): Pick<UpstreamObserver, 'contractCheck' | 'contractViolation'> {
  const checks = new Counter({
    name: 'gateway_upstream_contract_checks_total',
    help: "The bank's answers checked whole against their endpoint's model (UPSTREAM_CONTRACT_CHECK: the first of each endpoint, then a sample, or all), by endpoint.",
    labelNames: ['endpoint'] as const,
    registers: [registry],
  });
  const violations = new Counter({
    name: 'gateway_upstream_contract_violations_total',
    help: "Fields of the bank's answers that broke their documented rule in a whole check, by endpoint and field path (array indexes collapsed: data[].status). Only operations that read such a field fail, unless UPSTREAM_CONTRACT_CHECK=all.",
    labelNames: ['endpoint', 'path'] as const,
    registers: [registry],
  });
  return {
    contractCheck: (endpoint) => checks.inc({ endpoint }),
    contractViolation: (endpoint, path) => violations.inc({ endpoint, path }),
  };
}

/** QUEUE_BUCKETS: most waits are nothing; a wait worth seeing is a round trip or more. */
export const QUEUE_BUCKETS = [0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

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
  gauge(
    'gateway_upstream_concurrency_limit',
    'Calls the gateway lets be in flight to each bank host now (the adaptive limit).',
    (r) => r.limit,
  );
  gauge('gateway_upstream_calls_in_flight', 'Calls in flight to each bank host now.', (r) => r.inFlight);
  gauge('gateway_upstream_calls_queued', "Calls waiting for a slot under each bank host's limit now.", (r) => r.queued);
  gauge(
    'gateway_upstream_calls_held_by_client_share',
    "Of the calls waiting, those held back by their client's own cap (CLIENT_MAX_UPSTREAM_IN_FLIGHT), not by the host's limit.",
    (r) => r.heldByClientShare,
  );
  // Observed on every attempt, as the calls above (labelled-metrics.ts).
  const waits = new LabelledHistogram({
    name: 'gateway_upstream_queue_wait_seconds',
    help: "How long each attempt waited for a slot under its bank host's limit (0 when one was free).",
    labelNames: ['host'],
    buckets: QUEUE_BUCKETS,
    registry,
  });
  const capWaits = new Counter({
    name: 'gateway_upstream_client_share_waits_total',
    help: "Calls that had to wait for their own client's calls to end, at its cap (CLIENT_MAX_UPSTREAM_IN_FLIGHT), rather than for the host's limit.",
    labelNames: ['host'] as const,
    registers: [registry],
  });
  return {
    hostLimit: (host, read) => readers.set(host, read),
    queueWait: (host, ms) => waits.series(host).observe(ms / 1000),
    heldByClientShare: (host) => capWaits.inc({ host }),
  };
}
