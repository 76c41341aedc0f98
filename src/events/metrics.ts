import { Counter, Gauge, type Registry } from 'prom-client';
import type { EventBusObserver } from './bus.ts';
import type { WebhookOutcome } from './intake.ts';

/** The event bus's figures: events logged, events not acknowledged and why, Redis up or down. */
export function eventBusMetrics(registry: Registry): EventBusObserver {
  const accepted = new Counter({
    name: 'gateway_events_accepted_total',
    help: 'New bank events written to the event log (and on the replicas asked for) before their 202.',
    registers: [registry],
  });
  const unlogged = new Counter({
    name: 'gateway_events_unlogged_total',
    help: 'Bank events answered 503 (the bank delivers them again), by reason: log_unavailable (Redis did not take it) or replicas_short (too few replicas confirmed it in time).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const redisUp = new Gauge({
    name: 'gateway_redis_up',
    help: 'Whether Redis answers (1) or not (0); absent without Redis.',
    registers: [registry],
  });
  return {
    accepted: () => accepted.inc(),
    unlogged: (reason) => unlogged.inc({ reason }),
    redis: (up) => redisUp.set(up ? 1 : 0),
  };
}

/** One bank event delivery to the intake, by what it made of it (`status`: the HTTP answer). */
export function webhookMetrics(registry: Registry): (outcome: WebhookOutcome, status: number) => void {
  const webhooks = new Counter({
    name: 'gateway_webhook_events_total',
    help: 'Bank event deliveries by outcome (accepted, duplicate, rejected) and HTTP status answered.',
    labelNames: ['outcome', 'status'] as const,
    registers: [registry],
  });
  return (outcome, status) => webhooks.inc({ outcome, status: String(status) });
}
