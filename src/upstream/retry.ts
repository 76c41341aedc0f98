import { UpstreamHttpError, UpstreamNetworkError, UpstreamRateLimitError, UpstreamServerError } from './errors.ts';

/** How hard a read is retried. The budget bounds the total time spent waiting between attempts. */
export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  budgetMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 2_000, budgetMs: 5_000 };

/** Network failures, 5xx and 429 are worth another try; a 4xx refusal will only be refused again. */
export function isRetryable(error: unknown): boolean {
  return (
    error instanceof UpstreamNetworkError || error instanceof UpstreamServerError || error instanceof UpstreamRateLimitError
  );
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
