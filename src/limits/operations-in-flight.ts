import type { ExecutionArgs, ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { isAsyncIterable } from 'graphql-yoga';
import type { InFlightMetrics } from './metrics.ts';
import { retryLater } from './refusal.ts';

/**
 * MAX_OPERATIONS_IN_FLIGHT: the queries and mutations one instance runs at once. Each holds its bank
 * reads and its answer in memory while it runs (docs/operations.md, "Memory"), so their number is
 * what bounds that part of the heap; past it an operation is refused as it would start, before it
 * reads anything, with SERVER_BUSY: HTTP 503 and Retry-After, which clients and load balancers
 * retry elsewhere or later. Subscriptions and live queries are long-lived and have limits of their
 * own (SUBSCRIPTION_MAX_*, LIVE_QUERY_MAX_*): they do not count.
 */

/** An operation takes tens to hundreds of milliseconds: a second later, most of those running have ended. */
const RETRY_AFTER_MS = 1_000;

/** SERVER_BUSY: the instance runs its MAX_OPERATIONS_IN_FLIGHT operations already. */
const serverBusy = (max: number) =>
  retryLater(
    'SERVER_BUSY',
    RETRY_AFTER_MS,
    () => `The gateway is running as many operations as it allows at once (${max}). Try again in a second.`,
    {},
    503,
  );

export interface OperationsInFlightOptions {
  max: number;
  /** A live query: it runs until its client leaves, so it holds no place here. */
  isLong: (args: ExecutionArgs) => boolean;
  /** The metrics: told where to read the count, and of each refusal; none in a test's list. */
  observer?: InFlightMetrics | undefined;
}

/**
 * The plugin that keeps the count: a place taken as an operation executes, given back once, with
 * its last part, or when its client leaves: an execution its client's leaving stops ends in a
 * rejection, which envelop's onExecuteDone never sees (the place would be lost for good), so the
 * execution's own signal (set by transport/request-state.ts) and the promise it returns give it
 * back too.
 */
export function useOperationsInFlight({ max, isLong, observer }: OperationsInFlightOptions): Plugin {
  let inFlight = 0;
  observer?.count(() => inFlight);
  return {
    onExecute({ args, executeFn, setExecuteFn, setResultAndStopExecution }) {
      if (isLong(args)) return undefined;
      if (inFlight >= max) {
        observer?.refused();
        setResultAndStopExecution({ errors: [serverBusy(max)] });
        return undefined;
      }
      inFlight += 1;
      const signal = (args as { signal?: AbortSignal }).signal;
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        inFlight -= 1;
        signal?.removeEventListener('abort', release);
      };
      signal?.addEventListener('abort', release, { once: true });
      setExecuteFn((executeArgs) => releasedOnFailure(() => executeFn(executeArgs), release));
      return {
        onExecuteDone: ({ result }: { result: ExecutionResult | AsyncIterable<ExecutionResult> }) =>
          isAsyncIterable(result) ? { onEnd: release } : release(),
      };
    },
  };
}

/** Runs `execute`; if it throws or its promise rejects, `release` first. */
function releasedOnFailure<T>(execute: () => T | Promise<T>, release: () => void): T | Promise<T> {
  try {
    const result = execute();
    if (!(result instanceof Promise)) return result;
    return result.catch((error: unknown) => {
      release();
      throw error;
    });
  } catch (error) {
    release();
    throw error;
  }
}
