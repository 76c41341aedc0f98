import { Counter, Gauge, type Registry } from 'prom-client';
import type { EventBusObserver } from './bus.ts';
import type { WebhookOutcome } from './intake.ts';

/** The event bus's figures: accepted events by route, Redis up or down, the outage buffer. */
export function eventBusMetrics(registry: Registry): EventBusObserver {
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
