import { Counter, type Registry } from 'prom-client';
import type { RefusalObserver } from './refusal-log.ts';

/** Callers refused at authentication, by why (missing, invalid, unavailable). */
export function callerRefusalMetrics(registry: Registry): RefusalObserver {
  const callers = new Counter({
    name: 'gateway_callers_refused_total',
    help: 'Callers refused at authentication, by reason: missing (no credential), invalid (wrong, forged or expired), unavailable (could not be checked).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  return { refused: (reason) => callers.inc({ reason }) };
}
