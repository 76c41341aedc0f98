import type { Plugin } from 'graphql-yoga';
import { rootFields } from '../auth/operations.ts';
import type { GatewayContext } from '../context.ts';
import { whenExecuted, type FinalResult } from '../observability/operation-outcome.ts';
import { traceIdOf } from '../observability/tracing.ts';
import { openAttempts, type Attempt } from './attempts.ts';
import type { AuditRecord } from './record.ts';
import type { AuditTrail } from './trail.ts';

/**
 * One audit record per mutation field of every executed mutation operation, allowed or refused:
 * what its resolver ended with (attempts.ts), or, for a field that never ran because the operation
 * was stopped first (its client's operations per window spent, a passthrough caller not logged in),
 * `refused` with the code it was answered with. Listed before the plugins that can stop an
 * operation, so it sees them do it. Documents refused before execution (401, too complex, invalid)
 * are not attempts: they never reached a mutation.
 */
export function useMutationAudit(trail: AuditTrail, onAttempt?: (outcome: AuditRecord['outcome']) => void): Plugin {
  return {
    onExecute({ args }) {
      const root = rootFields(args.document, args.operationName);
      if (root?.type !== 'mutation') return undefined;
      const context = args.contextValue as unknown as GatewayContext & { request?: Request };
      const attempts = openAttempts(context);
      return {
        onExecuteDone: whenExecuted((result) => {
          const errors = result.errors ?? [];
          for (const { key, field } of root.selections) {
            if (field === '__typename') continue;
            const record = recordOf(context, root.name, attempts.get(key) ?? stopped(field, errors), codeAt(errors, key));
            trail.write(record);
            onAttempt?.(record.outcome);
          }
        }),
      };
    },
  };
}

/** A field the operation never ran: answered with the operation's own refusal. */
function stopped(field: string, errors: NonNullable<FinalResult['errors']>): Attempt {
  const code = errors.find((error) => error.path === undefined)?.extensions?.code;
  return { field, targets: {}, idempotencyKey: null, outcome: 'refused', detail: typeof code === 'string' ? code : null, permission: null, result: null };
}

/** The code the answer gave the field's error, for an attempt that threw. */
function codeAt(errors: NonNullable<FinalResult['errors']>, key: string): string | null {
  const code = errors.find((error) => error.path?.[0] === key)?.extensions?.code;
  return typeof code === 'string' ? code : null;
}

function recordOf(context: GatewayContext & { request?: Request }, operation: string | null, attempt: Attempt, thrownCode: string | null): AuditRecord {
  const { caller } = context;
  return {
    audit: 'mutation',
    time: new Date().toISOString(),
    caller: { kind: caller.kind, name: caller.name },
    roles: [...caller.access.roles],
    cardholder: caller.access.cardholderId,
    operation,
    field: attempt.field,
    targets: attempt.targets,
    result: attempt.result,
    idempotencyKey: attempt.idempotencyKey,
    outcome: attempt.outcome,
    detail: attempt.detail ?? (attempt.outcome === 'error' ? (thrownCode ?? 'INTERNAL_SERVER_ERROR') : null),
    permission: attempt.permission,
    requestId: context.requestId,
    traceId: traceIdOf(context.request) ?? null,
  };
}
