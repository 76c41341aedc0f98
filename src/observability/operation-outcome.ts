import { getOperationAST, type DocumentNode, type ExecutionResult, type GraphQLError } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

/**
 * What the plugins that watch executed operations (metrics, the operation log, tracing, the audit
 * trail, the operation's bounds) read of each: its name and type, and its whole result.
 */

/** An operation's name and type, for metrics and the operation log. */
export function describeOperation(document: DocumentNode, operationName: string | null | undefined): { name: string; type: string } {
  const operation = getOperationAST(document, operationName);
  return { name: operation?.name?.value ?? 'anonymous', type: operation?.operation ?? 'unknown' };
}

export type Outcome = 'ok' | 'partial' | 'error';

/** How an executed operation ended: no errors, errors beside data, or errors alone. */
export function outcomeOf(result: { errors?: readonly unknown[] | undefined; data?: unknown }): Outcome {
  return !result.errors?.length ? 'ok' : result.data ? 'partial' : 'error';
}

/** An executed operation's result as a whole: its errors, and whether it had data. */
export interface FinalResult {
  errors?: readonly { message: string; path?: readonly (string | number)[] | undefined; extensions?: Record<string, unknown> }[];
  data?: unknown;
}

/**
 * Envelop's onExecuteDone hook that calls `done` once per operation with its whole result: at once
 * for a single result, and at the end of the parts for @defer / @stream, with every part's errors
 * (the initial payload's data counts as the operation's data).
 */
export function whenExecuted(done: (result: FinalResult) => void) {
  return ({ result }: { result: ExecutionResult | AsyncIterable<ExecutionResult> }) => {
    if (!isAsyncIterable(result)) {
      if ('errors' in result || 'data' in result) done(result);
      return undefined;
    }
    const errors: GraphQLError[] = [];
    let data: unknown;
    return {
      onNext: ({ result: part }: { result: ExecutionResult & { incremental?: readonly { errors?: readonly GraphQLError[] }[] } }) => {
        data ??= part.data ?? undefined;
        errors.push(...(part.errors ?? []), ...(part.incremental ?? []).flatMap((entry) => entry.errors ?? []));
      },
      onEnd: () => done({ data, ...(errors.length > 0 ? { errors } : {}) }),
    };
  };
}

/** An executed operation as its watchers see it: described once for all of them, as it starts. */
interface ExecutedOperation {
  name: string;
  type: string;
  /** performance.now() at its start. */
  started: number;
  /** The GraphQL context it runs with. */
  contextValue: unknown;
}

/** Told of each operation as it starts; what it returns is told of its whole result (whenExecuted) and when it ended (performance.now()). */
export type ExecutionWatcher = (operation: ExecutedOperation) => ((result: FinalResult, ended: number) => void) | undefined;

/**
 * The watchers of executed operations (metrics' durations, the operation log) in one plugin: one
 * description, one clock reading and one onExecuteDone for all of them, rather than a hook each,
 * which Yoga pays for per operation whether or not the hook has anything to do. They are told on
 * the turn after the operation ends, once its answer has been written: the log line (a write to
 * stdout) and the metrics are then no part of the caller's wait (docs/architecture.md, "Measured
 * costs"). The duration they record ends where the operation did.
 */
export function useExecutionWatchers(watchers: ExecutionWatcher[]): Plugin {
  return {
    onExecute: ({ args }) => {
      const operation: ExecutedOperation = {
        ...describeOperation(args.document, args.operationName),
        started: performance.now(),
        contextValue: args.contextValue,
      };
      const ends = watchers.map((watch) => watch(operation)).filter((end) => end !== undefined);
      if (ends.length === 0) return undefined;
      return {
        onExecuteDone: whenExecuted((result) => {
          const ended = performance.now();
          setImmediate(() => {
            for (const end of ends) end(result, ended);
          });
        }),
      };
    },
  };
}
