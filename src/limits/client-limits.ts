import type { ExecutionArgs, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { ClientRateLimitConfig, RedisTarget } from '../settings/index.ts';
import type { Logger } from '../platform/logger.ts';
import { createClientRateLimiter, type ClientRateLimiter, type ClientRateLimitObserver } from './client-rate-limit.ts';
import { createBankCallBudget, type BankCallBudget } from './bank-call-pricing.ts';
import { retryLater } from './refusal.ts';

/**
 * RATE_LIMITED: the client started its CLIENT_RATE_LIMIT_OPERATIONS operations in this window.
 * HTTP 429 with Retry-After (whole seconds, at least 1) until the window ends; the extensions say
 * the same and the limit, so a client over graphql-ws or SSE, which has no status, can wait as long.
 */
function rateLimited(retryAfterMs: number, limit: ClientRateLimitConfig): GraphQLError {
  return retryLater(
    'RATE_LIMITED',
    retryAfterMs,
    (seconds) => `Too many operations: a client may start ${limit.operations} per ${limit.windowSeconds} s. Try again in ${seconds} s.`,
    { limit: { operations: limit.operations, windowSeconds: limit.windowSeconds } },
  );
}

/**
 * Counts each operation against its client's window, on every transport, once it passed every
 * other check (a document refused for its cost costs no operation) and before it runs: queries and
 * mutations as they execute, subscriptions as they start (their events are not operations). Over
 * the limit, the operation is refused whole rather than cut short, and nothing is sent to the bank.
 */
function useClientRateLimit(limiter: ClientRateLimiter, limit: ClientRateLimitConfig, onRefused: () => void): Plugin {
  const check = async ({
    args,
    setResultAndStopExecution,
  }: {
    args: ExecutionArgs;
    setResultAndStopExecution: (result: { errors: GraphQLError[] }) => void;
  }) => {
    // The context always has it (yoga.ts); `unknown` would count every such caller as one.
    const client = (args.contextValue as { client?: string }).client ?? 'unknown';
    const verdict = await limiter.take(client);
    if (verdict.allowed) return;
    onRefused();
    setResultAndStopExecution({ errors: [rateLimited(verdict.retryAfterMs, limit)] });
  };
  return { onExecute: check, onSubscribe: check };
}

export interface ClientRateLimitOptions {
  limit: ClientRateLimitConfig;
  /** Set: the window is counted in Redis, across instances. */
  redis?: RedisTarget | undefined;
  /** Names the Redis keys (default `client-operations`): instances that share counts share it. */
  keyPrefix?: string | undefined;
  logger: Logger;
  observer: ClientRateLimitObserver & { refused(): void };
}

/** The operations per window: the plugin that counts them, one count outside an operation, and the close of its Redis connection. */
export interface ClientRateLimit {
  /** None while the limit is off (0). */
  plugin: Plugin | undefined;
  /**
   * Counts one operation of `client` outside the plugin (a proof of a new bank token, counted against
   * the anonymous caller's address): the refusal to answer with when over, else undefined.
   */
  take(client: string): Promise<GraphQLError | undefined>;
  /** CLIENT_BANK_CALL_BUDGET's, counted the same way; undefined while off. */
  budget: BankCallBudget | undefined;
  close(): Promise<void>;
}

/** The plugin and what closes its Redis connection; no plugin while the limit is off (0). */
export function clientRateLimit(options: ClientRateLimitOptions): ClientRateLimit {
  const { limit, observer } = options;
  const keyPrefix = options.keyPrefix ?? 'client-operations';
  const limiterFor = (points: number, prefix: string) =>
    createClientRateLimiter({
      points,
      windowSeconds: limit.windowSeconds,
      redis: options.redis,
      keyPrefix: prefix,
      logger: options.logger,
      observer,
    });
  const budget = createBankCallBudget({
    budget: limit.bankCallBudget,
    windowSeconds: limit.windowSeconds,
    limiterFor: (points) => limiterFor(points, `${keyPrefix}-bank-calls`),
  });
  const closeBudget = () => budget?.limiter.close() ?? Promise.resolve();
  if (limit.operations === 0) return { plugin: undefined, take: async () => undefined, budget, close: closeBudget };
  const limiter = limiterFor(limit.operations, keyPrefix);
  return {
    budget,
    plugin: useClientRateLimit(limiter, limit, () => observer.refused()),
    take: async (client) => {
      const verdict = await limiter.take(client);
      if (verdict.allowed) return undefined;
      observer.refused();
      return rateLimited(verdict.retryAfterMs, limit);
    },
    close: async () => {
      await limiter.close();
      await closeBudget();
    },
  };
}
