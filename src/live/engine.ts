import { AsyncLocalStorage } from 'node:async_hooks';
import {
  getOperationAST,
  GraphQLError,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type OperationDefinitionNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { getLiveDirectiveArgumentValues, getLiveDirectiveNode, isLiveQueryOperationDefinitionNode } from '@n1ru4l/graphql-live-query';
import { InMemoryLiveQueryStore } from '@n1ru4l/in-memory-live-query-store';
import type { LiveQueryConfig } from '../settings/index.ts';
import type { GatewayContext } from '../context.ts';
import type { BankEvent } from '../events/models.ts';
import { connectionOf, OpenPlaces, type PlaceRefusal } from '../limits/open-counts.ts';
import type { RecordKind } from '../upstream/cache-policy.ts';
import { identifiersForEvent, identifiersForKinds, ROOTS_BY_KIND } from './identifiers.ts';
import type { LiveQueryObserver } from './observer.ts';
import { pushesOf } from './pushes.ts';
import { liveGroups } from './groups.ts';
import { NoDeferOrStreamInLiveQueryRule } from './no-defer-in-live.ts';
import { rerunThrottle } from './throttle.ts';

/**
 * Live queries (`query Screen @live { ... }`, the protocol of @n1ru4l/graphql-live-query): the
 * query runs, its result goes out, and it runs again whenever something it read changes, each
 * changed result pushed whole on the same stream a subscription's events take (graphql-ws, the
 * legacy subprotocol, SSE, multipart).
 *
 * @n1ru4l/in-memory-live-query-store executes, tracks what each run read and re-runs on
 * `invalidate`, with the original context (so with the caller's permissions, cardholder binding and
 * bank view). Its plugin, @envelop/live-query, is not used: this one does what that one does
 * (makeExecute, the rule refusing @live with @defer/@stream: no-defer-in-live.ts, in place of the
 * library's) and what it cannot, since its result
 * hook never sees the context: limits per caller and per connection, checked before anything runs;
 * a push only when the result changed; the end at the credential's expiry; the metrics.
 */
export interface LiveQueryEngine {
  /** The Yoga plugin: after the limits, so a refused operation costs nothing. */
  plugin: Plugin;
  /** A bank event reached this instance: re-run what it touched (events/cache-invalidation.ts). */
  event(event: BankEvent): void;
  /** A write (this instance's or another's) changed these kinds: re-run what reads them. */
  changed(kinds: readonly RecordKind[]): void;
  /** Upstream calls as the observer sees them: the reads made inside a re-run are counted. */
  bankCall(endpoint: string): void;
  /** Live queries open on this instance, the groups of identical ones (groups.ts: executions in the store), and resource identifiers tracked for them (all 0 once every client left). */
  stats(): { open: number; groups: number; tracked: number; timers: number };
}

export interface LiveQueryEngineOptions {
  config: LiveQueryConfig;
  /** UPSTREAM_CACHE_RATES_TTL_MS: how often a live query that reads rates or quotes is re-read. */
  ratesTtlMs: number;
  observer: LiveQueryObserver;
  /**
   * Forgets the records a context's per-request loaders hold (schema/loaders.ts's forgetRequestReads):
   * a live query keeps its context for its whole life, and each re-run must read what changed, not
   * the first run's records.
   */
  forgetReads(context: GatewayContext): void;
  /**
   * What makes two callers' results of one document the same (their bank view, permissions and
   * cardholder binding): identical live queries within one scope are one execution (groups.ts).
   */
  scopeOf(context: GatewayContext): string;
}

/** The coded error of a live query past a limit (docs/errors.md). */
const LIVE_QUERY_LIMIT = 'LIVE_QUERY_LIMIT';

/** Rate-like roots no event announces: re-read on their cache TTL while a live query holds them. */
const RATE_ROOTS = new Set([...ROOTS_BY_KIND['fx-rates'].single, ...ROOTS_BY_KIND.quotes.single]);

/** Whether an operation is a live query: the one test the engine and the operation's bounds (transport/yoga.ts) share. */
export function liveOperation(
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: unknown,
): OperationDefinitionNode | undefined {
  const operation = getOperationAST(document, operationName);
  return operation && isLiveQueryOperationDefinitionNode(operation, variables as Record<string, unknown> | null) ? operation : undefined;
}

export function createLiveQueryEngine(options: LiveQueryEngineOptions): LiveQueryEngine {
  const { config, observer } = options;
  const store = new InMemoryLiveQueryStore({
    // Records are collected by identifiers.ts's collectors (Type:bankId): a name no field of the graph
    // has as `ID!` turns the store's own collector (global ids) off.
    idFieldName: 'upstreamId',
    // The interval between re-runs is throttle.ts's (the store's own drops runs): the store is given none.
    validateThrottleValue: () => undefined,
  });
  const places = new OpenPlaces({ perCaller: config.maxPerCaller, perConnection: config.maxPerConnection });
  let open = 0;
  const rerunning = new AsyncLocalStorage<true>();
  const rates = rateRefresher(options.ratesTtlMs, (ids) => invalidate(ids));

  const groups = liveGroups();
  const invalidate = (identifiers: string[]) => {
    if (open > 0 && identifiers.length > 0) void store.invalidate(identifiers);
  };

  const plugin: Plugin = {
    onValidate: ({ addValidationRule }) => addValidationRule(NoDeferOrStreamInLiveQueryRule),
    onExecute: ({ args, executeFn, setExecuteFn, setResultAndStopExecution }) => {
      const operation = liveOperation(args.document, args.operationName, args.variableValues);
      if (!operation) return;
      const context = args.contextValue as unknown as GatewayContext & { request?: Request; req?: { socket?: object } };
      const connection = connectionOf(context);
      const refusal = places.refusal(context.client, connection);
      if (refusal) {
        observer.refused(refusal);
        return setResultAndStopExecution({ errors: [limitError(refusal, places)] });
      }
      let runs = 0;
      const throttle = rerunThrottle(intervalOf(operation, args.variableValues, config.throttleMs));
      const executeAsCaller = (storeArgs: ExecutionArgs) =>
        executeFn({ ...storeArgs, contextValue: seeingThrough(storeArgs.contextValue, context) });
      const rerun = (storeArgs: ExecutionArgs) => {
        options.forgetReads(context);
        observer.rerun();
        return rerunning.run(true, () => executeAsCaller(storeArgs));
      };
      const counted = ((storeArgs: ExecutionArgs) => {
        runs += 1;
        if (runs === 1) {
          throttle.ran();
          return executeAsCaller(storeArgs);
        }
        // A run not made is one the store will not push: a later one took its place, or the query ended.
        return throttle.admit().then((now) => (now ? rerun(storeArgs) : notRun()));
      }) as typeof executeFn;
      const liveExecute = store.makeExecute(counted as never);
      const rateRoots = rootFieldsOf(operation).filter((field) => RATE_ROOTS.has(field));
      // Counted from the check on, not from the first result: live queries started together count each other.
      const freePlace = places.take(context.client, connection);
      open += 1;
      setExecuteFn(async (executionArgs) => {
        observer.opened();
        const stopRates = rates.hold(rateRoots);
        // The execution in the store is its group's (groups.ts): made with this caller's context when it leads.
        const start = async () => (await liveExecute(executionArgs)) as AsyncIterable<ExecutionResult> | ExecutionResult;
        const results = groups.join(executionArgs, options.scopeOf(context), { start });
        return pushesOf(results, {
          expiresAt: context.caller.expiresAt,
          pushed: observer.pushed,
          released: () => {
            throttle.end();
            freePlace();
            open -= 1;
            stopRates();
            observer.closed();
          },
        });
      });
    },
  };

  return {
    plugin,
    event: (event) => invalidate(identifiersForEvent(event)),
    changed: (kinds) => invalidate(identifiersForKinds(kinds)),
    bankCall: (endpoint) => {
      if (rerunning.getStore() && endpoint.startsWith('GET ')) observer.bankRead();
    },
    stats: () => ({ open, groups: groups.size(), tracked: trackedIdentifiers(store), timers: rates.timers() }),
  };
}

/**
 * The store runs each execution with a context of its own, which carries the caller's and hands it
 * to field resolvers only; graphql-js gives it as is to `isTypeOf` and `resolveType`, where
 * Pothos's scope-auth checks a type's permission (runScopesOnType) against `context.caller`, so a
 * record type with a permission (Card, Cardholder, Payout...) failed there. The store's context,
 * its own properties kept (the resolvers' wrapper finds the caller's context by them), with the
 * caller's context behind it: whatever reads the context outside a resolver reads the caller's.
 */
function seeingThrough(storeContext: unknown, callerContext: object): object {
  return Object.assign(Object.create(callerContext) as object, storeContext);
}

/**
 * What a re-run that was not made gives the store, which pushes only its latest run's result (and
 * nothing once the query ended). Not frozen: the store marks the result it pushes `isLive`.
 */
const notRun = (): ExecutionResult => ({});

/** LIVE_QUERY_THROTTLE_MS at least: a client may ask for a longer interval (`@live(throttle:)`), never a shorter one. */
function intervalOf(operation: OperationDefinitionNode, variables: unknown, throttleMs: number): number {
  const directive = getLiveDirectiveNode(operation);
  const asked = directive
    ? getLiveDirectiveArgumentValues(directive, variables as Record<string, unknown> | null).throttleValue
    : undefined;
  return Math.max(asked ?? 0, throttleMs);
}

function limitError(reason: PlaceRefusal, places: OpenPlaces): GraphQLError {
  const { limit, message } = places.described(
    reason,
    { per_caller: 'LIVE_QUERY_MAX_PER_CALLER', per_connection: 'LIVE_QUERY_MAX_PER_CONNECTION' },
    'live queries',
  );
  return new GraphQLError(message, { extensions: { code: LIVE_QUERY_LIMIT, limit, reason } });
}

/** The root fields an operation selects, as named in the schema (aliases aside). */
function rootFieldsOf(operation: OperationDefinitionNode): string[] {
  return operation.selectionSet.selections.flatMap((selection) => (selection.kind === 'Field' ? [selection.name.value] : []));
}

/**
 * Rates and quotes move with the market and no event says so: while live queries hold such a root,
 * one timer invalidates them each rates TTL, so the re-run reads past the cache's expired entry
 * and a live FX screen is never staler than the TTL. No live query holding one, no timer.
 */
function rateRefresher(ttlMs: number, invalidate: (identifiers: string[]) => void) {
  const holders = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  const sync = () => {
    if (holders.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    } else if (holders.size > 0 && !timer && ttlMs > 0) {
      timer = setInterval(() => invalidate([...holders.keys()].map((field) => `Query.${field}`)), ttlMs);
    }
  };
  return {
    hold(roots: string[]): () => void {
      for (const root of roots) holders.set(root, (holders.get(root) ?? 0) + 1);
      sync();
      return () => {
        for (const root of roots) {
          const left = (holders.get(root) ?? 1) - 1;
          if (left === 0) holders.delete(root);
          else holders.set(root, left);
        }
        sync();
      };
    },
    timers: () => (timer ? 1 : 0),
  };
}

/**
 * How many resource identifiers the store tracks: its tracker is private, but "a client that leaves
 * frees everything" is a promise the tests check against the store itself, not a count of ours.
 */
function trackedIdentifiers(store: InMemoryLiveQueryStore): number {
  return (store as unknown as { _resourceTracker: { _trackedResources: Map<string, unknown> } })._resourceTracker._trackedResources.size;
}
