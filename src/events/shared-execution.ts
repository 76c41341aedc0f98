import { createSourceEventStream, execute, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { entryBound } from '../platform/lru-bounds.ts';

/**
 * Subscriptions resolve each event once per selection, not once per subscriber. graphql-js runs a
 * subscription's selection set for every subscriber on every event; with a thousand subscribers on
 * the same stream that is a thousand identical executions per event. Here the first subscriber to
 * take an event runs it, and every other subscriber with the same document, operation, variables
 * and upstream identity gets that result: the event objects are shared by the fan-out, so they key
 * the cache. Written by hand because neither Yoga nor envelop offers it; the stream creation and the
 * per-event execution are graphql-js's own, as its `subscribe` composes them.
 *
 * Sharing is safe because an event's result depends on nothing else: the payload, the selection and
 * the subscriber's scope (`scopeOf`): whose token the linked reads use (the caller's own bank token,
 * or the gateway's login, which every caller without a token shares) and what the caller may see of
 * the event (its permissions decide which fields it gets and which parts of a raw payload; its
 * cardholder binding, which records). Which events reach a subscriber at all is decided before, per
 * subscriber (schema/event-visibility.ts). Errors are masked per subscriber afterwards, on copies.
 */

/** Recent events with their results; a subscriber far behind the rest executes again, correctly. */
const RECENT_EVENTS = 512;

type Result = ExecutionResult | Promise<ExecutionResult>;

/** An event's result, and the signal of the subscriber whose reads made it. */
interface Shared {
  result: Result;
  signal: AbortSignal | undefined;
}

/** The subscriber's operation signal (yoga.ts puts it in the context): it fires when the subscription ends. */
const operationSignalOf = (args: ExecutionArgs): AbortSignal | undefined =>
  (args.contextValue as { operationSignal?: () => AbortSignal | undefined }).operationSignal?.();

export interface SharedExecutionOptions {
  /** Whose view of the bank the operation's reads take, and what the caller may see; results are shared only within one. */
  scopeOf(contextValue: unknown): string;
}

/**
 * What makes two operations' results the same, given the same inputs (an event, the records they
 * read): the document (by identity, each numbered once), the operation, the variables and the scope.
 * Shared subscription events here and grouped live queries (live/groups.ts) key by it.
 */
export function selectionKeys(): (args: Pick<ExecutionArgs, 'document' | 'operationName' | 'variableValues'>, scope: string) => string {
  const documentIds = new WeakMap<DocumentNode, number>();
  let nextDocumentId = 1;
  return (args, scope) => {
    let documentId = documentIds.get(args.document);
    if (documentId === undefined) documentIds.set(args.document, (documentId = nextDocumentId++));
    return JSON.stringify([documentId, args.operationName ?? null, args.variableValues ?? null, scope]);
  };
}

export function useSharedSubscriptionExecution(options: SharedExecutionOptions): Plugin {
  const results = new LRUCache<object, Map<string, Shared>>({ ...entryBound(RECENT_EVENTS) });
  const keyOf = selectionKeys();
  /** What makes two subscribers' results the same, given the same event. */
  const selectionKey = (args: ExecutionArgs): string => keyOf(args, options.scopeOf(args.contextValue));

  const executeShared = (args: ExecutionArgs, key: string, payload: unknown): Result => {
    if (typeof payload !== 'object' || payload === null) return execute({ ...args, rootValue: payload });
    let byKey = results.get(payload);
    if (!byKey) results.set(payload, (byKey = new Map()));
    const signal = operationSignalOf(args);
    const run = (): Shared => {
      const fresh = { result: plainData(execute({ ...args, rootValue: payload })), signal };
      byKey.set(key, fresh);
      return fresh;
    };
    const shared = byKey.get(key);
    if (!shared || (shared.signal?.aborted && !signal?.aborted)) return run().result;
    if (!shared.signal || shared.signal === signal) return shared.result;
    // The subscriber whose reads make the result may leave while they run: they are then cut short
    // (its operation's signal stops them), and one still here reads for itself, once for all.
    return Promise.resolve(shared.result).then((result) => {
      if (!shared.signal!.aborted || signal?.aborted) return result;
      const current = byKey.get(key);
      return current && current !== shared ? current.result : run().result;
    });
  };

  const subscribe = async (args: ExecutionArgs) => {
    const stream = await createSourceEventStream(args);
    if (!isAsyncIterable(stream)) return stream;
    const key = selectionKey(args);
    return mapStream(stream, (payload) => executeShared(args, key, payload));
  };

  return {
    onSubscribe: ({ setSubscribeFn }) => {
      setSubscribeFn(subscribe as never);
    },
  };
}

/**
 * graphql-js builds results from null-prototype objects, which JSON.stringify serialises at half
 * speed; each subscriber serialises the shared result, so it is turned into plain objects once.
 */
export function plainData(result: Result): Result {
  const convert = (r: ExecutionResult): ExecutionResult => (r.data ? { ...r, data: JSON.parse(JSON.stringify(r.data)) } : r);
  return result instanceof Promise ? result.then(convert) : convert(result);
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/** graphql-js's mapAsyncIterator, which it does not export: each source item through `map`, ending the source on return. */
function mapStream<T>(source: AsyncIterable<unknown>, map: (item: unknown) => T | Promise<T>): AsyncIterableIterator<T> {
  const iterator = source[Symbol.asyncIterator]();
  const step = async (result: IteratorResult<unknown>): Promise<IteratorResult<T>> =>
    result.done ? { done: true, value: undefined } : { done: false, value: await map(result.value) };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next: async () => step(await iterator.next()),
    return: async () => {
      await iterator.return?.();
      return { done: true, value: undefined };
    },
    throw: async (error?: unknown) => {
      await iterator.return?.();
      throw error;
    },
  };
}
