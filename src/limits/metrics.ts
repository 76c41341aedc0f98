import { Counter, Gauge, type Registry } from 'prom-client';
import { LabelledHistogram } from '../platform/labelled-metrics.ts';
import type { ClientRateLimitObserver } from './client-rate-limit.ts';

/**
 * Why the limits per client refused an operation: its window spent, or its subscriptions open at the
 * most, the caller's or the connection's. A call over its client's cap of calls in flight is not
 * refused: it waits (gateway_upstream_client_share_waits_total).
 */
type ClientLimitReason = 'operations_per_window' | 'subscriptions_per_caller' | 'subscriptions_per_connection';

/** The limits per client: operations refused over their window, and whether Redis counts the window. */
export interface ClientLimitMetrics extends Required<ClientRateLimitObserver> {
  refused(reason: ClientLimitReason): void;
}

export function clientLimitMetrics(registry: Registry): ClientLimitMetrics {
  const refused = new Counter({
    name: 'gateway_client_limit_refusals_total',
    help: 'Operations the limits per client refused, by reason: operations_per_window (RATE_LIMITED, the client spent its window); subscriptions_per_caller, subscriptions_per_connection (SUBSCRIPTION_LIMIT, at SUBSCRIPTION_MAX_PER_CALLER or SUBSCRIPTION_MAX_PER_CONNECTION).',
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

/** The price of operations in bank calls (bank-call-pricing.ts): estimate and actual, refusals, and estimates that fell short. */
export interface BankCallMetrics {
  priced(estimated: number, actual: number): void;
  refused(reason: 'ceiling' | 'budget'): void;
}

const BANK_CALL_BUCKETS = [0, 1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000];

export function bankCallMetrics(registry: Registry): BankCallMetrics {
  // Observed on every operation: the gateway's own histogram (platform/labelled-metrics.ts), not prom-client's.
  const calls = new LabelledHistogram({
    name: 'gateway_operation_bank_calls',
    help: 'Bank calls per operation: estimated (the upper bound computed before it ran) and actual (the calls that reached the bank, a retried call once).',
    labelNames: ['kind'],
    buckets: BANK_CALL_BUCKETS,
    registry,
  });
  const estimated = calls.series('estimated');
  const actual = calls.series('actual');
  const short = new Counter({
    name: 'gateway_operation_bank_calls_over_estimate_total',
    help: 'Operations that made more bank calls than their estimate: a bug in the estimate (src/limits/bank-call-prices.ts), which should never happen.',
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'gateway_bank_call_refusals_total',
    help: "Operations refused for their price in bank calls, by reason: ceiling (OPERATION_TOO_EXPENSIVE, above OPERATION_MAX_BANK_CALLS), budget (RATE_LIMITED, over the client's CLIENT_BANK_CALL_BUDGET).",
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  // Both reasons from the start: a panel and an alert on them read 0, not nothing, before the first refusal.
  for (const reason of ['ceiling', 'budget'] as const) refusals.inc({ reason }, 0);
  return {
    priced: (estimate, made) => {
      estimated.observe(estimate);
      actual.observe(made);
      if (made > estimate) short.inc();
    },
    refused: (reason) => refusals.inc({ reason }),
  };
}

/** MAX_OPERATIONS_IN_FLIGHT (operations-in-flight.ts): the operations running, read at each scrape, and those refused. */
export interface InFlightMetrics {
  /** Where the gauge reads the count from, once the plugin that keeps it is made. */
  count(current: () => number): void;
  refused(): void;
}

export function inFlightMetrics(registry: Registry): InFlightMetrics {
  let current = () => 0;
  new Gauge({
    name: 'gateway_operations_in_flight',
    help: 'Queries and mutations running on this instance (subscriptions and live queries apart), against MAX_OPERATIONS_IN_FLIGHT.',
    registers: [registry],
    collect() {
      this.set(current());
    },
  });
  const refusals = new Counter({
    name: 'gateway_operations_refused_busy_total',
    help: 'Operations refused with SERVER_BUSY (503): MAX_OPERATIONS_IN_FLIGHT were running already.',
    registers: [registry],
  });
  return {
    count: (read) => {
      current = read;
    },
    refused: () => refusals.inc(),
  };
}
