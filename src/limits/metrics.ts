import { Counter, Gauge, type Registry } from 'prom-client';
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
