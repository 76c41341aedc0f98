import { execute, type ExecutionArgs, type ExecutionResult, type GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { ClientRateLimiter } from './client-rate-limit.ts';
import { estimateBankCalls, type BankCallEstimate } from './bank-call-estimate.ts';
import { isDryRun, onlyRateLimit } from './dry-run.ts';
import { refusal, retryLater } from './refusal.ts';

/**
 * Every operation priced in bank calls before it runs (bank-call-estimate.ts): refused above
 * OPERATION_MAX_BANK_CALLS, charged to its client's CLIENT_BANK_CALL_BUDGET and given back what it
 * did not spend when it ends, and, when asked, its price in the answer's `extensions.cost`.
 */

/** What an operation's answer says of its price (`extensions.cost`). */
interface OperationCost {
  /** The upper bound computed before it ran. */
  estimatedBankCalls: number;
  /** The calls that reached the bank (a retried call is one). */
  actualBankCalls: number;
  /** With a budget: what the client has left in this window, and when the window refills (ISO 8601). */
  budget?: { limit: number; remaining: number; resetAt: string };
}

/** The budget's state for one client, as `rateLimit` and `extensions.cost` tell it. */
interface BudgetState {
  limit: number;
  remaining: number;
  resetAt: Date;
}

export interface BankCallBudget {
  limiter: ClientRateLimiter;
  /** What `client` has left now, without charging anything. */
  state(client: string): Promise<BudgetState>;
}

/** The request header that asks for `extensions.cost` in the answer; GraphiQL always sends it. */
export const BANK_COST_HEADER = 'x-bank-cost';

export interface BankCallPricingOptions {
  maxBankCalls: number;
  budget: BankCallBudget | undefined;
  /** Production: refusals do not tell the ceiling. */
  hideLimits: boolean;
  /** Whether the request asked for its price in the answer (a header, or GraphiQL). */
  wantsCost: (request: Request) => boolean;
  /** Told of each refusal, by reason. */
  onRefused?: (reason: 'ceiling' | 'budget') => void;
  /** Told of each priced operation once it ended: its estimate and its actual calls. */
  onPriced?: (estimated: number, actual: number) => void;
}

/** The context's parts this plugin reads (yoga.ts makes them). */
interface PricedContext {
  client?: string;
  request?: Request;
  operation?: () => { bankCalls: number } | undefined;
}

/** OPERATION_TOO_EXPENSIVE: the estimate, the ceiling and the three fields that cost most, so a frontend knows what to trim. */
function tooExpensive(estimate: BankCallEstimate, ceiling: number, hideLimits: boolean): GraphQLError {
  const costliest = estimate.costliest.slice(0, 3);
  const named = costliest.map(({ path, calls }) => `${path} (${calls})`).join(', ');
  const message = hideLimits
    ? `The operation can cost the bank too many calls. Ask for fewer items or fewer nested fields: ${named}.`
    : `The operation can cost the bank up to ${estimate.calls} calls, above the ${ceiling} one operation may cost (OPERATION_MAX_BANK_CALLS). What costs most: ${named}.`;
  return refusal('OPERATION_TOO_EXPENSIVE', message, {
    estimatedBankCalls: estimate.calls,
    ...(hideLimits ? {} : { maxBankCalls: ceiling }),
    costliest,
  });
}

/** RATE_LIMITED for the budget: HTTP 429 with Retry-After until the window refills, the same in the extensions for a socket. */
function overBudget(estimate: number, state: BudgetState): GraphQLError {
  return retryLater(
    'RATE_LIMITED',
    state.resetAt.getTime() - Date.now(),
    (seconds) =>
      `Over the bank-call budget: this operation can cost ${estimate} bank calls and the client has ${state.remaining} of ${state.limit} left in this window. Try again in ${seconds} s.`,
    { budget: { limit: state.limit, remaining: state.remaining, estimatedBankCalls: estimate } },
  );
}

/** Each operation's estimate, from the ceiling's check to the accounting after it. */
const estimates = new WeakMap<object, BankCallEstimate>();
/** The operations that are a dry run (`rateLimit(dryRun: true)`): priced, not run, charged nothing. */
const dryRuns = new WeakSet<object>();
/** What `rateLimit` reads of its operation: the estimate, and its client's budget where there is one. */
const prices = new WeakMap<object, OperationPrice>();

/** An operation's price as `Query.rateLimit` tells it. */
export interface OperationPrice {
  estimate: BankCallEstimate;
  budget: () => Promise<BudgetState | undefined>;
}

/** The price of the operation a resolver runs in (its context), once the accounting has made it. */
export const priceOf = (context: object): OperationPrice | undefined => prices.get(context);

/**
 * The ceiling, with the other limits on what may be asked (an operation it refuses costs its client
 * nothing): the estimate is made here, once per operation, and kept for the accounting.
 */
export function useBankCallCeiling(options: Pick<BankCallPricingOptions, 'maxBankCalls' | 'hideLimits' | 'onRefused'>): Plugin {
  const check = ({ args, setResultAndStopExecution }: Stoppable) => {
    const estimate = estimateBankCalls(args.schema, args);
    if (!estimate) return;
    // A dry run calls no bank, however much the operation would: it is told its price, not refused.
    if (isDryRun(args)) dryRuns.add(args.contextValue as object);
    else if (estimate.calls > options.maxBankCalls) {
      options.onRefused?.('ceiling');
      return setResultAndStopExecution({ errors: [tooExpensive(estimate, options.maxBankCalls, options.hideLimits)] });
    }
    estimates.set(args.contextValue as object, estimate);
  };
  return { onExecute: check, onSubscribe: check };
}

interface Stoppable {
  args: ExecutionArgs;
  setResultAndStopExecution: (result: ExecutionResult) => void;
}

/**
 * After the operations per window: the operation charged its estimate to its client's budget (over
 * it, refused before any bank call), and when it ends given back what it did not spend, its price
 * counted in the metrics and, when asked, told in `extensions.cost`.
 */
export function useBankCallAccounting(options: Omit<BankCallPricingOptions, 'maxBankCalls' | 'hideLimits'>): Plugin {
  const { budget } = options;
  // Synchronous unless there is something to wait for (a budget, a dry run): every operation passes here.
  const charge = ({ args, setResultAndStopExecution }: Stoppable): Priced | undefined | Promise<Priced | undefined> => {
    const context = args.contextValue as PricedContext;
    const estimate = estimates.get(context);
    if (!estimate) return undefined;
    const client = context.client ?? 'unknown';
    prices.set(context, { estimate, budget: async () => budget?.state(client) });
    if (dryRuns.has(context)) {
      // Cut to its rateLimit fields, which read the price: nothing else runs, nothing is charged.
      return Promise.resolve(execute({ ...args, document: onlyRateLimit(args) })).then((result) => void setResultAndStopExecution(result));
    }
    if (!budget || estimate.calls === 0) return { estimate, client, context };
    return chargeBudget(budget, { estimate, client, context }, setResultAndStopExecution);
  };
  const chargeBudget = async (budget: BankCallBudget, priced: Priced, stop: Stoppable['setResultAndStopExecution']) => {
    const { estimate, client } = priced;
    const verdict = await budget.limiter.take(client, estimate.calls);
    if (verdict.allowed) return priced;
    // What this refused operation counted is no spending: the window keeps what the client had.
    await budget.limiter.giveBack(client, estimate.calls);
    options.onRefused?.('budget');
    return void stop({ errors: [overBudget(estimate.calls, await budget.state(client))] });
  };
  /** Synchronous, the result left as it is, unless a budget gets its refund or the price was asked for. */
  const settle = (priced: Priced, result: ExecutionResult): ExecutionResult | Promise<ExecutionResult> => {
    const actual = priced.context.operation?.()?.bankCalls ?? 0;
    options.onPriced?.(priced.estimate.calls, actual);
    const request = priced.context.request;
    const wanted = request !== undefined && options.wantsCost(request);
    if (!budget && !wanted) return result;
    return refundAndTell(priced, result, actual, wanted);
  };
  const refundAndTell = async (priced: Priced, result: ExecutionResult, actual: number, wanted: boolean): Promise<ExecutionResult> => {
    if (budget && priced.estimate.calls > actual) await budget.limiter.giveBack(priced.client, priced.estimate.calls - actual);
    if (!wanted) return result;
    const cost: OperationCost = { estimatedBankCalls: priced.estimate.calls, actualBankCalls: actual };
    if (budget) {
      const state = await budget.state(priced.client);
      cost.budget = { limit: state.limit, remaining: state.remaining, resetAt: state.resetAt.toISOString() };
    }
    return { ...result, extensions: { ...result.extensions, cost } };
  };
  const doneHooks = (priced: Priced | undefined) =>
    priced && {
      onExecuteDone: ({
        result,
        setResult,
      }: {
        result: ExecutionResult | AsyncIterable<unknown>;
        setResult: (result: ExecutionResult) => void;
      }) => {
        // A stream (@defer, @stream) is settled when its last part has gone; its parts carry no extensions.cost.
        if (Symbol.asyncIterator in result) return { onEnd: () => void settle(priced, { data: null }) };
        const settled = settle(priced, result);
        return settled instanceof Promise ? settled.then(setResult) : undefined;
      },
    };
  return {
    onExecute: (payload) => {
      const charged = charge(payload);
      return charged instanceof Promise ? charged.then(doneHooks) : doneHooks(charged);
    },
    // A subscription is charged what one event's reads can cost as it starts; each event's own calls are not charged.
    onSubscribe: (payload) => {
      const charged = charge(payload);
      return charged instanceof Promise ? charged.then(() => undefined) : undefined;
    },
  };
}

interface Priced {
  estimate: BankCallEstimate;
  client: string;
  context: PricedContext;
}

export interface BankCallBudgetOptions {
  /** CLIENT_BANK_CALL_BUDGET; 0: no budget. */
  budget: number;
  windowSeconds: number;
  /** Makes the window's limiter of `points` (client-rate-limit.ts), in Redis with REDIS_URL, as the operations per window are. */
  limiterFor: (points: number) => ClientRateLimiter;
}

/** The budget per client, counted like the operations per window (same identity, window and Redis); undefined while off. */
export function createBankCallBudget(options: BankCallBudgetOptions): BankCallBudget | undefined {
  if (options.budget === 0) return undefined;
  const limiter = options.limiterFor(options.budget);
  const windowMs = options.windowSeconds * 1000;
  return {
    limiter,
    state: async (client) => {
      const { consumed, msBeforeNext } = await limiter.peek(client);
      return {
        limit: options.budget,
        remaining: Math.max(0, options.budget - consumed),
        resetAt: new Date(Date.now() + (msBeforeNext > 0 ? msBeforeNext : windowMs)),
      };
    },
  };
}
