import { Counter, type Registry } from 'prom-client';
import type { AuditObserver } from './trail.ts';

/** The audit trail's writes and failures by destination, and the mutation attempts it records by outcome. */
export interface AuditMetrics extends AuditObserver {
  /** One mutation attempt, by how it ended (the audit record's outcome). */
  mutation(outcome: string): void;
}

export function auditMetrics(registry: Registry): AuditMetrics {
  const mutations = new Counter({
    name: 'gateway_mutation_attempts_total',
    help: 'Mutation fields that ran, by outcome, as the audit trail records them: success, typed_error, bank_rejection, forbidden, error, not_sent.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const written = new Counter({
    name: 'gateway_audit_records_written_total',
    help: 'Audit records handed to each destination (stdout, file, redis).',
    labelNames: ['destination'] as const,
    registers: [registry],
  });
  const failed = new Counter({
    name: 'gateway_audit_write_failures_total',
    help: 'Audit records that did not reach a destination (stdout, file, redis); the mutation was answered all the same.',
    labelNames: ['destination'] as const,
    registers: [registry],
  });
  return {
    mutation: (outcome) => mutations.inc({ outcome }),
    written: (destination) => written.inc({ destination }),
    failed: (destination) => failed.inc({ destination }),
  };
}
