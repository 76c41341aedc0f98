import type { DocumentNode, ExecutionArgs, ExecutionResult } from 'graphql';
import { plainData } from '../events/shared-execution.ts';

/**
 * Re-runs shared by identical live queries. One event invalidates every live query that read what
 * it touched, and a thousand open dashboards of one caller are a thousand identical executions of
 * the same document over the same records: here the first re-run of an invalidation executes and
 * every other live query with the same document, operation, variables and scope (whose bank view
 * and what the caller may see, as for shared subscription events: events/shared-execution.ts) takes
 * its result. Written by hand: the store (@n1ru4l/in-memory-live-query-store) re-runs each query
 * on its own.
 *
 * Within one generation (the invalidations since the last one), nothing such a query read has
 * changed as far as the gateway knows, so the result is the same; the next invalidation starts a
 * new generation and the next re-runs execute again. The store learns what a query read from the
 * identifiers its execution collects: a re-run that takes another's result is handed that
 * execution's identifiers, so it stays watched for the same records.
 */

/** What the store puts in the context of each execution to learn what it read. */
interface StoreContext {
  collectResourceIdentifier(parameter: { typename: string; id: string }): void;
  addResourceIdentifier(values: string | Iterable<string> | null | undefined): void;
}

interface Shared {
  generation: number;
  outcome: Promise<{ result: ExecutionResult; identifiers: string[] }>;
  /** The live query that executes (its caller's context), and its operation signal: its reads stop if its client leaves. */
  context: object;
  signal: AbortSignal | undefined;
}

export interface SharedReruns {
  /** Something was invalidated: re-runs from now on execute again. */
  invalidated(): void;
  /**
   * A re-run of the live query `args` (the store's, its context the store's own) of the caller whose
   * context is `callerContext`, made with `execute`, shared with identical ones of this generation.
   */
  rerun(args: ExecutionArgs, callerContext: object, execute: (args: ExecutionArgs) => ExecutionResult | Promise<ExecutionResult>): Promise<ExecutionResult>;
}

export function sharedReruns(options: { scopeOf(contextValue: unknown): string; signalOf(contextValue: unknown): AbortSignal | undefined }): SharedReruns {
  let generation = 0;
  const runs = new Map<string, Shared>();
  const documentIds = new WeakMap<DocumentNode, number>();
  let nextDocumentId = 1;

  const keyOf = (args: ExecutionArgs, callerContext: object): string => {
    let documentId = documentIds.get(args.document);
    if (documentId === undefined) documentIds.set(args.document, (documentId = nextDocumentId++));
    return JSON.stringify([documentId, args.operationName ?? null, args.variableValues ?? null, options.scopeOf(callerContext)]);
  };

  const lead = (args: ExecutionArgs, key: string, context: object, signal: AbortSignal | undefined, execute: (args: ExecutionArgs) => ExecutionResult | Promise<ExecutionResult>): Shared => {
    const store = args.contextValue as StoreContext;
    const identifiers: string[] = [];
    const recording: StoreContext = {
      collectResourceIdentifier: (parameter) => {
        identifiers.push(`${parameter.typename}:${parameter.id}`);
        store.collectResourceIdentifier(parameter);
      },
      addResourceIdentifier: (values) => {
        if (typeof values === 'string') identifiers.push(values);
        else if (values) identifiers.push(...values);
        store.addResourceIdentifier(values);
      },
    };
    // The store's context keeps its own keys (symbols included: the resolvers find the caller's context by one).
    const contextValue = Object.assign(Object.create(Object.getPrototypeOf(store) as object) as object, store, recording);
    // In plain objects once: every live query that shares it serialises it (events/shared-execution.ts's plainData).
    const outcome = Promise.resolve(plainData(execute({ ...args, contextValue }))).then((result) => ({ result, identifiers }));
    const shared = { generation, outcome, context, signal };
    runs.set(key, shared);
    return shared;
  };

  return {
    invalidated: () => {
      generation += 1;
      runs.clear();
    },
    rerun: (args, callerContext, execute) => {
      const key = keyOf(args, callerContext);
      const found = runs.get(key);
      const signal = options.signalOf(callerContext);
      // The same live query again (its throttle ran it twice): it executes, as any re-run of a query alone would.
      if (!found || found.generation !== generation || found.context === callerContext) return lead(args, key, callerContext, signal, execute).outcome.then(({ result }) => result);
      return found.outcome.then(({ result, identifiers }) => {
        // The live query whose reads made it left while they ran: they were cut short, so this one reads for itself.
        if (found.signal?.aborted && !signal?.aborted) return Promise.resolve(execute(args));
        (args.contextValue as StoreContext).addResourceIdentifier(identifiers);
        // Its own object: the store marks it `isLive` and the transport may replace its errors.
        return { ...result };
      });
    },
  };
}
