import { describe, expect, it } from 'vitest';
import { UpstreamNetworkError, UpstreamRateLimitError, UpstreamRejectedError, UpstreamServerError } from './errors.ts';
import { DEFAULT_RETRY_BUDGET, DEFAULT_RETRY_POLICY, isRetryable, RetryBudget } from './retry-policy.ts';

const details = { endpoint: 'GET /svc/api/v1/account', requestId: 'req-1' };

describe('isRetryable', () => {
  it('retries reads after network failures, 5xx and 429, and writes only after 429', () => {
    const network = new UpstreamNetworkError('ECONNRESET', details);
    const server = new UpstreamServerError(503, undefined, details);
    const limited = new UpstreamRateLimitError(429, undefined, details);
    const refused = new UpstreamRejectedError(400, 'no', details);
    expect([network, server, limited, refused].map((e) => isRetryable(e, 'read'))).toEqual([true, true, true, false]);
    expect([network, server, limited, refused].map((e) => isRetryable(e, 'write'))).toEqual([false, false, true, false]);
  });
});

describe('RetryBudget', () => {
  it('allows the reserve, then ratio × recent calls', () => {
    const clock = { now: 0 };
    const budget = new RetryBudget({ ratio: 0.5, reserve: 2, windowMs: 10_000 }, () => clock.now);
    expect([budget.tryRetry(), budget.tryRetry(), budget.tryRetry()]).toEqual([true, true, false]);
    for (let i = 0; i < 4; i += 1) budget.recordCall();
    expect([budget.tryRetry(), budget.tryRetry(), budget.tryRetry()]).toEqual([true, true, false]);
    // Once the window has passed, calls and retries alike are forgotten.
    clock.now += 10_001;
    expect([budget.tryRetry(), budget.tryRetry(), budget.tryRetry()]).toEqual([true, true, false]);
  });

  it('by default carries 100 reads through 30% failures, and caps an outage near 1.5 calls per call', () => {
    // Simulated with a fixed PRNG: every read retried until it succeeds, as the default policy would.
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const budget = new RetryBudget(DEFAULT_RETRY_BUDGET, () => 0);
    let failedReads = 0;
    for (let read = 0; read < 100; read += 1) {
      budget.recordCall();
      for (let attempt = 1; random() < 0.3; attempt += 1) {
        if (attempt >= DEFAULT_RETRY_POLICY.maxAttempts || !budget.tryRetry()) {
          failedReads += 1;
          break;
        }
      }
    }
    expect(failedReads).toBe(0);

    const outage = new RetryBudget(DEFAULT_RETRY_BUDGET, () => 0);
    let sent = 0;
    for (let call = 0; call < 1_000; call += 1) {
      outage.recordCall();
      sent += 1;
      for (let attempt = 1; attempt < DEFAULT_RETRY_POLICY.maxAttempts && outage.tryRetry(); attempt += 1) sent += 1;
    }
    expect(sent).toBe(1_000 + 500 + DEFAULT_RETRY_BUDGET.reserve);
  });
});
