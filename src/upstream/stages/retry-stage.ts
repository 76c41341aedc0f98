import type { Logger } from '../../platform/logger.ts';
import { pause } from '../deadline-signals.ts';
import { UpstreamRateLimitError } from '../errors.ts';
import { isRetryable, retryDelayMs, type RetryPolicy } from '../retry-policy.ts';
import type { SharedCallState } from '../shared-call-state.ts';
import { logFields, ownedBy, type UpstreamCall } from './call.ts';
import { passOn, type Stage } from './pipeline.ts';

/** The shared parts a retry consults: the runtime's budget, the family's breaker, a 429's error, a stop's. */
type RetryParts = Pick<SharedCallState, 'retryBudget' | 'breakers' | 'rateLimitHolds' | 'stoppedCalls'>;

/**
 * Another attempt after a failure the policy says is safe to repeat (retry-policy.ts: reads after
 * network failures, 5xx and 429; writes only after 429), within the call's attempts, the policy's
 * waiting time, the deadline and the runtime-wide retry budget. The budget is the project's own: no retry
 * library counts retries against calls across a whole runtime, which is what keeps an outage from
 * multiplying the load on the bank.
 */
export function retryStage(policy: RetryPolicy, shared: RetryParts, logger: Logger): Stage {
  const { retryBudget, stoppedCalls } = shared;
  // Each attempt's failure is looked at in a handler, not in an async loop (see passOn).
  const attemptFrom = <T>(call: UpstreamCall, next: (call: UpstreamCall) => Promise<T>, attempt: number, waited: number): Promise<T> =>
    passOn(next, call).catch(async (error: unknown) => {
      const delay = nextDelay(call, attempt, error, waited, policy, shared, logger);
      if (delay === undefined) throw error;
      logger.warn({ ...logFields(call), attempt, delayMs: delay, error: (error as Error).message }, 'retrying upstream call');
      if (!(await pause(delay, call.signal))) throw stoppedCalls.errorFor(call.signal, call, false);
      return attemptFrom(call, next, attempt + 1, waited + delay);
    });
  return (call, next) => {
    retryBudget.recordCall();
    return attemptFrom(call, next, 1, 0);
  };
}

/**
 * The wait before another attempt, or undefined when the failure stands. The policy's budgetMs
 * bounds the waits; the deadline bounds everything (attempts that are slow under load included).
 */
function nextDelay(
  call: UpstreamCall,
  attempt: number,
  error: unknown,
  waited: number,
  policy: RetryPolicy,
  { retryBudget, breakers, rateLimitHolds }: RetryParts,
  logger: Logger,
): number | undefined {
  if (!ownedBy(call, error) || !isRetryable(error, call.kind) || attempt >= call.maxAttempts) return undefined;
  const delay = retryDelayMs(policy, attempt, error);
  const now = Date.now();
  if (waited + delay > policy.budgetMs || now + delay > (call.options.deadline ?? Infinity)) {
    // A Retry-After this call may not wait out: say when to come back rather than pass on the 429.
    if (error instanceof UpstreamRateLimitError) throw rateLimitHolds.rateLimitedError(now + delay, call.details, error);
    return undefined;
  }
  // Other calls found the family down meanwhile: no point adding to it.
  if (breakers.get(call.family).state === 'open') return undefined;
  if (!retryBudget.tryRetry()) {
    logger.warn({ ...logFields(call), family: call.family }, 'retry budget spent: not retrying');
    return undefined;
  }
  return delay;
}
