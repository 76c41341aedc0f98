import { DEFAULT_CONTRACT_CHECK, DEFAULT_RESILIENCE, type ContractCheckConfig, type ResilienceConfig } from '../settings/index.ts';
import { silentLogger, type Logger } from '../platform/logger.ts';
import { ContractChecks } from './contract-checks.ts';
import { FamilyBreakers } from './family-breakers.ts';
import { LastAnswers } from './last-answers.ts';
import { NO_OBSERVER, type UpstreamObserver } from './observer.ts';
import { RateLimitHolds } from './rate-limit-holds.ts';
import { DEFAULT_RETRY_BUDGET, RetryBudget, type RetryBudgetConfig } from './retry-policy.ts';
import { StoppedCalls } from './stages/call.ts';
import { memoryUncertainWrites, type UncertainWrites } from './uncertain-writes.ts';

export interface SharedCallStateOptions {
  resilience?: ResilienceConfig;
  retryBudget?: RetryBudgetConfig;
  observer?: UpstreamObserver;
  logger?: Logger;
  now?: () => number;
  /** Where writes with a lost answer are remembered; this process's memory when absent. */
  uncertainWrites?: UncertainWrites | undefined;
  /** Which answers are also checked whole against their model (UPSTREAM_CONTRACT_CHECK); as shipped when absent. */
  contractCheck?: ContractCheckConfig | undefined;
}

/**
 * What every upstream call of one runtime shares, whichever base address it goes to, one part per
 * concern. Each stage names the parts it uses and keeps them from its making: a call looks none up.
 */
export interface SharedCallState {
  /** The metrics' observer, which readiness's last answers watch too. */
  readonly observer: UpstreamObserver;
  readonly lastAnswers: LastAnswers;
  readonly breakers: FamilyBreakers;
  readonly rateLimitHolds: RateLimitHolds;
  readonly retryBudget: RetryBudget;
  readonly stoppedCalls: StoppedCalls;
  readonly uncertainWrites: UncertainWrites;
  readonly contractChecks: ContractChecks;
}

export function createSharedCallState(options: SharedCallStateOptions = {}): SharedCallState {
  const resilience = options.resilience ?? DEFAULT_RESILIENCE;
  const now = options.now ?? Date.now;
  const lastAnswers = new LastAnswers(now);
  // Every call passes here: readiness learns from real traffic that the bank answers.
  const observer = lastAnswers.watch(options.observer ?? NO_OBSERVER);
  const retryBudget = new RetryBudget(options.retryBudget ?? DEFAULT_RETRY_BUDGET, now);
  const breakers = new FamilyBreakers(resilience.breaker, observer, options.logger, now);
  const rateLimitHolds = new RateLimitHolds(now);
  const stoppedCalls = new StoppedCalls(observer, resilience.operationDeadlineMs);
  const uncertainWrites = options.uncertainWrites ?? memoryUncertainWrites();
  const contractChecks = new ContractChecks(
    options.contractCheck ?? DEFAULT_CONTRACT_CHECK,
    options.observer ?? NO_OBSERVER,
    options.logger ?? silentLogger,
    now,
  );
  return { observer, lastAnswers, breakers, rateLimitHolds, retryBudget, stoppedCalls, uncertainWrites, contractChecks };
}
