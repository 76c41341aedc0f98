import { describe, expect, it } from 'vitest';
import { createLogger } from '../../platform/logger.ts';
import { accountEndpoints } from '../accounts.ts';
import { UpstreamRateLimitError, UpstreamServerError, UpstreamUnavailableError } from '../errors.ts';
import { createSharedCallState } from '../shared-call-state.ts';
import { payoutEndpoints } from '../payouts.ts';
import type { RetryBudgetConfig, RetryPolicy } from '../retry-policy.ts';
import type { Endpoint } from '../endpoint.ts';
import { prepareCall, type UpstreamCall } from './call.ts';
import { retryStage } from './retry-stage.ts';

const POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 2, budgetMs: 500 };

function setup(budget: RetryBudgetConfig = { ratio: 1, reserve: 100, windowMs: 10_000 }) {
  const lines: string[] = [];
  const logger = createLogger('info', { write: (line) => lines.push(line) });
  return { lines, stage: retryStage(POLICY, createSharedCallState({ retryBudget: budget }), logger) };
}
const newCall = (ep: Endpoint<unknown> = accountEndpoints.list, deadline?: number) =>
  prepareCall(ep, { deadline }, { prefix: '', serviceSegment: 'svc' }, POLICY.maxAttempts);

/** A `next` that fails with `errors` in turn, then answers 'ok'; it counts the attempts. */
function answers(call: UpstreamCall, ...errors: ((call: UpstreamCall) => Error)[]) {
  const next = async () => {
    next.attempts += 1;
    const error = errors[next.attempts - 1];
    if (error) throw error(call);
    return 'ok';
  };
  next.attempts = 0;
  return next;
}
const down = (call: UpstreamCall) => new UpstreamServerError(503, 'down', call.details);
const slowDown = (ms: number) => (call: UpstreamCall) =>
  new UpstreamRateLimitError(429, 'slow down', { ...call.details, retryAfterMs: ms });

describe('retryStage', () => {
  it('retries a read after 5xx until it answers, logging each retry', async () => {
    const { lines, stage } = setup();
    const call = newCall();
    const next = answers(call, down, down);
    expect(await stage(call, next)).toBe('ok');
    expect(next.attempts).toBe(3);
    expect(lines.filter((line) => line.includes('retrying upstream call'))).toHaveLength(2);
  });

  it('stops at the call attempts and lets the last failure stand', async () => {
    const { stage } = setup();
    const call = newCall();
    const next = answers(call, down, down, down, down, down);
    await expect(stage(call, next)).rejects.toBeInstanceOf(UpstreamServerError);
    expect(next.attempts).toBe(4);
  });

  it('never repeats a write after a 5xx (it may have happened), but does after a 429 (refused before doing anything)', async () => {
    const { stage } = setup();
    const afterFailure = newCall(payoutEndpoints.create);
    const failing = answers(afterFailure, down);
    await expect(stage(afterFailure, failing)).rejects.toBeInstanceOf(UpstreamServerError);
    expect(failing.attempts).toBe(1);
    const afterRefusal = newCall(payoutEndpoints.create);
    const refused = answers(afterRefusal, slowDown(1));
    expect(await stage(afterRefusal, refused)).toBe('ok');
    expect(refused.attempts).toBe(2);
  });

  it('turns a Retry-After longer than the call may wait into RATE_LIMITED with the time to come back', async () => {
    const { stage } = setup();
    const call = newCall(accountEndpoints.list, Date.now() + 1_000);
    const error = await stage(call, answers(call, slowDown(3_000))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error).toMatchObject({ reason: 'RATE_LIMITED', retryAfterSeconds: 3 });
  });

  it('stops retrying when the runtime retry budget is spent, and says so', async () => {
    const { lines, stage } = setup({ ratio: 0, reserve: 1, windowMs: 10_000 });
    const first = newCall();
    const once = answers(first, down, down);
    await expect(stage(first, once)).rejects.toBeInstanceOf(UpstreamServerError);
    expect(once.attempts).toBe(2);
    expect(lines.filter((line) => line.includes('retry budget spent'))).toHaveLength(1);
  });

  it('does not retry a failure the call inherited (another call failed)', async () => {
    const { stage } = setup();
    const call = newCall();
    const next = answers(call, () => new UpstreamServerError(503, 'login down', { endpoint: 'POST /login', requestId: 'other' }));
    await expect(stage(call, next)).rejects.toBeInstanceOf(UpstreamServerError);
    expect(next.attempts).toBe(1);
  });
});
