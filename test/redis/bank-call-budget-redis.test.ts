import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONE_CALL_BALANCES } from '../../bench/operations.ts';
import { postGraphql } from '../helpers/http.ts';
import { startKit, type Kit } from '../helpers/kit.ts';
import { REDIS_URL, redisAnswers } from '../helpers/redis.ts';
import { mustSkip } from '../helpers/skip.ts';

/**
 * CLIENT_BANK_CALL_BUDGET counted in Redis: two instances sharing the key prefix share one client's
 * budget, so what a client spent on one is not there to spend on the other. Needs Redis (CI has it).
 */

const skip = mustSkip(
  (await redisAnswers(REDIS_URL)) || Boolean(process.env.CI),
  `bank-call budgets across instances: no Redis at ${REDIS_URL} (CI has it)`,
);

describe.skipIf(skip)('a bank-call budget across instances (Redis)', () => {
  const prefix = `test-budget-${randomUUID()}`;
  let a: Kit;
  let b: Kit;
  const gateway = () =>
    startKit({
      listen: true,
      cache: false,
      redis: { url: REDIS_URL },
      redisKeyPrefix: `${prefix}-events`,
      clientRateLimit: { bankCallBudget: 3, windowSeconds: 60 },
      clientRateLimitKeyPrefix: prefix,
    });
  beforeAll(async () => {
    [a, b] = await Promise.all([gateway(), gateway()]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });
  const run = (kit: Kit) => postGraphql(`${kit.baseUrl}/graphql`, { query: ONE_CALL_BALANCES }, { 'x-bank-cost': 'true' });

  it('spends one budget: three calls on either instance, then both refuse, with no bank call', async () => {
    expect((await run(a)).body.extensions.cost.budget.remaining).toBe(2);
    expect((await run(b)).body.extensions.cost.budget.remaining).toBe(1);
    expect((await run(a)).body.extensions.cost.budget.remaining).toBe(0);
    await Promise.all([a.resetCounts(), b.resetCounts()]);
    for (const kit of [a, b]) {
      const refused = await run(kit);
      expect(refused.status).toBe(429);
      expect(refused.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', budget: { limit: 3, remaining: 0 } });
    }
    expect([...a.calls(), ...b.calls()].filter((call) => !call.path.includes('/authentication/'))).toEqual([]);
  });
});
