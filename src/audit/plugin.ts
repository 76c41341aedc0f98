import { getOperationAST, type ExecutionArgs } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../context.ts';
import { traceIdOf } from '../observability/tracing.ts';
import { watchAttempts, type Attempt } from './attempts.ts';
import { accessDeniedWatch, type AccessDeniedAuditOptions } from './denied-plugin.ts';
import type { MutationOutcome, MutationRecord } from './record.ts';
import type { AuditTrail } from './trail.ts';

export interface MutationAuditOptions {
  /** The code a thrown error is answered with (errors.ts, which sits above the audit). */
  codeOf: (error: unknown) => string | undefined;
  /** Told of each record's outcome (metrics). */
  onAttempt?: ((outcome: MutationOutcome) => void) | undefined;
}

type AuditedContext = GatewayContext & { request?: Request };

/**
 * One audit record per mutation field whose resolver ran, written as it ends (attempts.ts, from the
 * Pothos plugin): allowed or refused, whether or not its client is still there. A field that never
 * ran writes nothing: skipped (@skip, @include), or in an operation stopped before execution (the
 * limits, a passthrough caller not logged in), which is an access-denied record instead
 * (denied-plugin.ts).
 */
export function useMutationAudit(trail: AuditTrail, options: MutationAuditOptions): Plugin {
  const watch = mutationWatch(trail, options);
  return { onExecute: ({ args }) => watch(args) };
}

/**
 * The audit trail's one plugin, before authentication's and the limits' (yoga.ts's watchers): each
 * mutation field that ran (useMutationAudit's records) and each refusal before execution
 * (denied-plugin.ts). One plugin for both, so an operation costs the audit one hook.
 */
export function useAuditTrail(trail: AuditTrail, options: { mutations: MutationAuditOptions; denied: AccessDeniedAuditOptions }): Plugin {
  const watchMutations = mutationWatch(trail, options.mutations);
  const refusals = accessDeniedWatch(trail, options.denied);
  return {
    onExecute({ args }) {
      watchMutations(args);
      const socketResult = refusals.ofSocket(args.contextValue);
      return socketResult && { onExecuteDone: ({ result }) => socketResult(result) };
    },
    onSubscribe({ args }) {
      const socketResult = refusals.ofSocket(args.contextValue);
      return socketResult && { onSubscribeResult: ({ result }) => socketResult(result) };
    },
    onResultProcess: refusals.answered,
  };
}

/** As a mutation operation starts: its fields, each recorded as it ends. */
function mutationWatch(trail: AuditTrail, options: MutationAuditOptions): (args: ExecutionArgs) => void {
  return (args) => {
    const definition = getOperationAST(args.document, args.operationName);
    if (definition?.operation !== 'mutation') return;
    const context = args.contextValue as AuditedContext;
    const operation = definition.name?.value ?? null;
    watchAttempts(context, (attempt) => {
      const record = recordOf(context, operation, attempt, options.codeOf);
      trail.write(record);
      options.onAttempt?.(record.outcome);
    });
  };
}

function recordOf(
  context: AuditedContext,
  operationName: string | null,
  attempt: Attempt,
  codeOf: MutationAuditOptions['codeOf'],
): MutationRecord {
  const { caller } = context;
  return {
    audit: 'mutation',
    time: new Date().toISOString(),
    caller: { kind: caller.kind, name: caller.name },
    roles: [...caller.access.roles].sort(),
    permissions: [...caller.access.permissions].sort(),
    cardholder: caller.access.cardholderId,
    operation: operationName,
    field: attempt.field,
    targets: attempt.targets,
    result: attempt.result,
    idempotencyKey: attempt.idempotencyKey,
    idempotencyKeyBy: attempt.idempotencyKeyBy,
    outcome: attempt.outcome,
    detail: attempt.detail ?? (attempt.thrown === undefined ? null : (codeOf(attempt.thrown) ?? 'INTERNAL_SERVER_ERROR')),
    permission: attempt.permission,
    clientGone: context.request?.signal.aborted ?? false,
    requestId: context.requestId,
    clientRequestId: context.clientRequestId ?? null,
    traceId: traceIdOf(context.request) ?? null,
  };
}
