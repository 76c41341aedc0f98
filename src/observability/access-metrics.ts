import { Counter, type Registry } from 'prom-client';
import type { RefusalObserver } from '../auth/refusal-log.ts';

/** Where an audit record went, or failed to go. */
export type AuditDestinationName = 'stdout' | 'file' | 'redis';

/** Who was let in and what they were allowed: refused callers, mutation attempts by outcome, the audit trail's writes. */
export interface AccessMetrics {
  /** Callers refused at authentication, by why (missing, invalid, unavailable). */
  callers: RefusalObserver;
  /** One mutation attempt, by how it ended (the audit record's outcome). */
  mutation(outcome: string): void;
  /** The audit trail's writes and failures, by destination. */
  audit: { written(destination: AuditDestinationName): void; failed(destination: AuditDestinationName): void };
  /** A caller's own mistake answered with this code (a bad cursor, a forbidden field...). */
  clientError(code: string): void;
}

/** The codes of client mistakes that get a series of their own; any other counts as `other`. */
const CLIENT_ERROR_CODES = new Set([
  'FORBIDDEN',
  'BAD_USER_INPUT',
  'CURSOR_EXPIRED',
  'NOT_FOUND',
  'UNAUTHENTICATED',
  'RATE_LIMITED',
  'QUERY_TOO_COMPLEX',
  'GRAPHQL_VALIDATION_FAILED',
  'PERSISTED_QUERY_NOT_IN_LIST',
  'PERSISTED_QUERY_ONLY',
]);

export function accessMetrics(registry: Registry): AccessMetrics {
  const callers = new Counter({
    name: 'gateway_callers_refused_total',
    help: 'Callers refused at authentication, by reason: missing (no credential), invalid (wrong, forged or expired), unavailable (could not be checked).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const mutations = new Counter({
    name: 'gateway_mutation_attempts_total',
    help: 'Mutation attempts by outcome, as the audit trail records them: success, typed_error, bank_rejection, forbidden, error, refused.',
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
  const clientErrors = new Counter({
    name: 'gateway_client_errors_total',
    help: "Errors that are the caller's own mistake (a forbidden field, a bad cursor, a bad argument...), by code.",
    labelNames: ['code'] as const,
    registers: [registry],
  });
  return {
    callers: { refused: (reason) => callers.inc({ reason }) },
    mutation: (outcome) => mutations.inc({ outcome }),
    audit: { written: (destination) => written.inc({ destination }), failed: (destination) => failed.inc({ destination }) },
    clientError: (code) => clientErrors.inc({ code: CLIENT_ERROR_CODES.has(code) ? code : 'other' }),
  };
}
