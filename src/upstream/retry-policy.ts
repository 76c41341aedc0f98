import { UpstreamHttpError, UpstreamNetworkError, UpstreamRateLimitError, UpstreamServerError } from './errors.ts';
import { RollingCounts } from './rolling-window.ts';

/**
 * How hard one call is retried. `budgetMs` bounds the total time spent waiting between attempts (the
 * operation's deadline bounds it too); `retryBudget` is runtime-wide (RetryBudget below).
 */
export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  budgetMs: number;
  /** Default DEFAULT_RETRY_BUDGET. */
  retryBudget?: RetryBudgetConfig;
}

/**
 * Retries in the last `windowMs` may not exceed `ratio` × the calls made in it, plus `reserve` (so a
 * quiet gateway can still retry a few).
 */
export interface RetryBudgetConfig {
  ratio: number;
  reserve: number;
  windowMs: number;
}

/**
 * The defaults, sized so that reads survive 30% of calls failing (a failure rate p), while an outage
 * cannot multiply the load on the bank.
 *
 * - Attempts: a read fails only if all k attempts fail, p^k. For 100 reads, P(any fails) ≈ 100·p^k:
 *   k = 3 → 93%, k = 5 → 22%, k = 8 → 0.7%, k = 10 → 0.06%. So 10 attempts. Waits are exponential
 *   with full jitter, capped at 1 s and 5 s in all (≈ 3 s expected for 9 retries, well inside the
 *   15 s operation deadline); the 10th attempt is needed once in 50 000 reads.
 * - Load: a call needs p + p² + … ≈ p / (1 − p) = 0.43 retries on average at p = 0.3, standard
 *   deviation √(p / (1 − p)²) ≈ 0.78 per call. The budget allows 0.5 per call plus 20: for a burst
 *   of 100 calls 70 retries against 43 ± 7.8 needed (3.5 σ), and the margin grows with traffic
 *   (1 000 calls: 520 against 430 ± 25). In an outage (p = 1) the 10 attempts per call are cut to
 *   1.5 calls per call plus 20, and the circuit breaker then stops the calls altogether.
 */
export const DEFAULT_RETRY_BUDGET: RetryBudgetConfig = { ratio: 0.5, reserve: 20, windowMs: 10_000 };
export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 10, baseDelayMs: 100, maxDelayMs: 1_000, budgetMs: 5_000 };

/**
 * Which failures a call may be retried after. A read (or a login, which changes nothing) after
 * network failures, 5xx and 429. A write only after 429: the bank refused it before doing anything,
 * so sending it again (with the same x-request-id, which would make the bank replay rather than
 * apply it even if it had) cannot apply it twice. After a 5xx or a lost answer a write may or may
 * not have happened; only the caller, retrying with the same idempotencyKey, may decide to repeat it.
 */
export function isRetryable(error: unknown, kind: 'read' | 'write' = 'read'): boolean {
  if (error instanceof UpstreamRateLimitError) return true;
  return kind === 'read' && (error instanceof UpstreamNetworkError || error instanceof UpstreamServerError);
}

/**
 * Delay before attempt `attempt + 1`: the upstream's Retry-After when it gave one, else exponential
 * backoff with full jitter (so a fleet of gateways does not retry in lockstep).
 */
export function retryDelayMs(policy: RetryPolicy, attempt: number, error: unknown, random = Math.random): number {
  if (error instanceof UpstreamHttpError && error.retryAfterMs !== undefined) return error.retryAfterMs;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(random() * ceiling);
}

/** Retry-After is either delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The runtime-wide retry budget (in the manner of Finagle's and gRPC's retry throttling): every call
 * earns `ratio` of a retry, every retry spends one, over a rolling window. Per-call attempt caps alone
 * would let an outage multiply the load by the attempt count exactly when the bank can least take it.
 */
export class RetryBudget {
  readonly #config: RetryBudgetConfig;
  readonly #counts: RollingCounts<'calls' | 'retries'>;

  constructor(config: RetryBudgetConfig = DEFAULT_RETRY_BUDGET, now: () => number = Date.now) {
    if (!(config.ratio >= 0) || !(config.reserve >= 0)) throw new RangeError('retry budget ratio and reserve must be at least 0');
    this.#config = config;
    this.#counts = new RollingCounts(config.windowMs, now);
  }

  /** A new call (its first attempt). */
  recordCall(): void {
    this.#counts.add('calls');
  }

  /** Whether one more retry may go out; if so, it is spent. */
  tryRetry(): boolean {
    const allowed = this.#config.ratio * this.#counts.total('calls') + this.#config.reserve;
    if (this.#counts.total('retries') + 1 > allowed) return false;
    this.#counts.add('retries');
    return true;
  }
}
