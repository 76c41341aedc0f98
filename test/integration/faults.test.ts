import { randomUUID } from 'node:crypto';
import type { ExecutionResult } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  AccountCreateDocument,
  AccountsDocument,
  BalancesDocument,
  BeneficiariesDocument,
  PayoutCreateDocument,
} from '../generated/graphql.ts';
import { ACCOUNT_INPUT, PATHS, payoutInput } from '../helpers/flows.ts';
import { useKit, type Kit } from '../helpers/kit.ts';

/**
 * The fault suite: the gateway against a failing bank, through the sandbox's fault injection. Each
 * test states its pass criterion and checks it on what the sandbox saw (its request log and store).
 */

const { balance: BALANCE, account: ACCOUNT, login: LOGIN, payout: PAYOUT } = PATHS;
const accountInput = ACCOUNT_INPUT;

const extensionsOf = (result: ExecutionResult) => result.errors?.[0]?.extensions;

/** The sandbox's log of `method` calls, grouped by x-request-id (a read's retries share it). */
function attemptsById(kit: Kit, method: string): Map<string, (number | null)[]> {
  const groups = new Map<string, (number | null)[]>();
  for (const call of kit.calls(undefined, method)) groups.set(call.requestId!, [...(groups.get(call.requestId!) ?? []), call.status]);
  return groups;
}

describe('a failing bank', () => {
  // These tests count the bank calls of reads that repeat from test to test: the record cache (test/integration/cache.test.ts) stays off.
  const kit = useKit({ cache: false });

  it('30% of calls failing with 503: 100 reads all succeed within the retry budget; writes are not retried', async () => {
    await kit.control('POST', 'faults', { kind: 'status', status: 503, rate: 0.3, seed: 2 });
    const reads = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        [
          () => kit.execute(BalancesDocument, {}),
          () => kit.execute(AccountsDocument, { first: 5 }),
          () => kit.execute(BeneficiariesDocument, { first: 5 }),
        ][i % 3]!(),
      ),
    );
    expect(reads.filter((result) => result.errors !== undefined)).toEqual([]);

    // The log shows the 503s (about 30% of the calls) and their retries: each read's attempts share
    // a request id, every one but the last answered 503, and the last 200.
    const gets = kit.calls(undefined, 'GET');
    const failed = gets.filter((call) => call.status === 503).length;
    expect(failed / gets.length).toBeGreaterThan(0.2);
    expect(failed / gets.length).toBeLessThan(0.4);
    const reads503 = [...attemptsById(kit, 'GET').values()];
    for (const statuses of reads503) expect(statuses).toEqual([...statuses.slice(0, -1).map(() => 503), 200]);
    expect(reads503.filter((statuses) => statuses.length > 1).length).toBeGreaterThan(10);

    // Writes, one after another so the seeded draws fall the same way on every run.
    await kit.control('DELETE', 'faults');
    await kit.control('POST', 'faults', { kind: 'status', status: 503, rate: 0.3, seed: 7, method: 'POST' });
    const writes: [string, Awaited<ReturnType<typeof createAccount>>][] = [];
    const createAccount = (key: string) => kit.execute(AccountCreateDocument, { input: accountInput, idempotencyKey: key });
    for (let i = 0; i < 20; i += 1) {
      const key = `write-${i}-${randomUUID()}`;
      writes.push([key, await createAccount(key)]);
    }
    const posts = attemptsById(kit, 'POST');
    for (const [key, result] of writes) {
      const statuses = posts.get(key)!;
      expect(statuses).toHaveLength(1);
      // A 5xx leaves a write's outcome unknown: the answer says so, with the key to retry with.
      if (statuses[0] === 503) expect(result.data!.accountCreate).toMatchObject({ __typename: 'OutcomeUnknown', idempotencyKey: key });
      else expect(result.data!.accountCreate.__typename).toBe('AccountCreateSuccess');
    }
    expect(writes.filter(([key]) => posts.get(key)![0] === 503).length).toBeGreaterThan(0);
  });

  it('dropped connections: reads recover by retry; a write gets OutcomeUnknown after exactly one call', async () => {
    await kit.control('POST', 'faults', { kind: 'drop', rate: 0.3, seed: 11, method: 'GET' });
    const reads = await Promise.all(Array.from({ length: 30 }, () => kit.execute(BalancesDocument, {})));
    expect(reads.filter((result) => result.errors !== undefined)).toEqual([]);
    const attempts = [...attemptsById(kit, 'GET').values()];
    expect(attempts).toHaveLength(30);
    expect(attempts.filter((statuses) => statuses.includes(null)).length).toBeGreaterThan(0);
    for (const statuses of attempts) expect(statuses.at(-1)).toBe(200);

    await kit.control('DELETE', 'faults');
    await kit.control('POST', 'faults', { kind: 'drop', method: 'POST', path: ACCOUNT });
    const accountsBefore = kit.sandbox.store.accounts.size;
    const write = await kit.execute(AccountCreateDocument, { input: accountInput, idempotencyKey: 'dropped-1' });
    // On the wire a dropped connection looks like a lost answer: the bank may have seen it.
    expect(write.errors).toBeUndefined();
    expect(write.data!.accountCreate).toMatchObject({ __typename: 'OutcomeUnknown', idempotencyKey: 'dropped-1' });
    // Nothing about where the bank lives reaches the caller.
    expect(JSON.stringify(write)).not.toMatch(/127\.0\.0\.1|localhost|ECONN|UND_ERR|\/svc\//);
    expect(kit.calls(ACCOUNT, 'POST').map((call) => [call.status, call.requestId])).toEqual([[null, 'dropped-1']]);
    expect(kit.sandbox.store.accounts.size).toBe(accountsBefore);
  });

  it('a 401 in the middle of 100 concurrent operations: exactly one re-login, none fail', async () => {
    await kit.control('PUT', 'latency', { ms: 100 });
    const operations = Array.from({ length: 100 }, () => kit.execute(BalancesDocument, {}));
    // Once the first answers are back, expire the gateway's token while the rest are on their way.
    await expect.poll(() => kit.calls(BALANCE).length, { interval: 2, timeout: 5_000 }).toBeGreaterThan(0);
    await kit.control('POST', 'clock/advance', { minutes: 31 });
    const results = await Promise.all(operations);

    expect(results.filter((result) => result.errors !== undefined)).toEqual([]);
    expect(kit.calls(LOGIN)).toHaveLength(1);
    const statuses = kit.calls(BALANCE).map((call) => call.status);
    const refused = statuses.filter((status) => status === 401).length;
    expect(refused).toBeGreaterThan(0);
    expect(statuses.filter((status) => status === 200)).toHaveLength(100);
    expect(statuses).toHaveLength(100 + refused);
    // Some were answered before the token expired.
    expect(statuses.indexOf(200)).toBeLessThan(statuses.indexOf(401));
  });

  it('a write whose response is lost: OutcomeUnknown naming the key; the retry with the same key makes one payout', async () => {
    const input = await payoutInput(kit, { reference: 'Invoice lost-answer' });
    const key = `payout-${randomUUID()}`;
    const payouts = () => [...kit.sandbox.store.payouts.values()].filter((payout) => payout.reference === input.reference);
    await kit.control('POST', 'faults', { kind: 'lose', method: 'POST', path: PAYOUT });

    const lost = await kit.execute(PayoutCreateDocument, { input, idempotencyKey: key });
    expect(lost.data!.payoutCreate).toMatchObject({ __typename: 'OutcomeUnknown', idempotencyKey: key });
    // Not retried by the gateway, though the bank did make it.
    expect(kit.calls(PAYOUT, 'POST')).toHaveLength(1);
    expect(payouts()).toHaveLength(1);

    const retried = await kit.execute(PayoutCreateDocument, { input, idempotencyKey: key });
    const outcome = retried.data!.payoutCreate;
    if (outcome.__typename !== 'PayoutCreateSuccess') throw new Error(`retry failed: ${JSON.stringify(retried)}`);
    expect(payouts().map((payout) => payout.id)).toEqual([outcome.payout.upstreamId]);
    // Both POSTs carried the key; the bank applied the first and replayed its answer to the second.
    expect(kit.calls(PAYOUT, 'POST').map((call) => [call.status, call.requestId])).toEqual([
      [null, key],
      [200, key],
    ]);
  });
});

describe('a stalled bank', () => {
  const kit = useKit({ cache: false, resilience: { operationDeadlineMs: 500 } });

  it('ends the operation by its deadline with a clear error, well before the stall or the per-call timeout', async () => {
    await kit.control('POST', 'faults', { kind: 'stall', stallMs: 30_000, rate: 1, path: BALANCE });
    const started = performance.now();
    const result = await kit.execute(BalancesDocument, {});
    const elapsed = performance.now() - started;
    expect(result.errors?.[0]?.message).toBe("The bank did not answer within 500 ms, this operation's deadline");
    expect(extensionsOf(result)).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', reason: 'DEADLINE_EXCEEDED' });
    // The stall is 30 s and the kit's per-call timeout 2 s: only the deadline ends it this soon.
    expect(elapsed).toBeLessThan(1_500);
    // The one call was abandoned on the wire (the sandbox logs it without a status), not retried.
    await expect.poll(() => kit.calls(BALANCE).map((call) => call.status)).toEqual([null]);
  });

  it('counts the time spent waiting for a token too', async () => {
    await kit.control('POST', 'faults', { kind: 'stall', stallMs: 30_000, rate: 1, path: LOGIN });
    await kit.control('POST', 'clock/advance', { minutes: 31 });
    const started = performance.now();
    const result = await kit.execute(BalancesDocument, {});
    expect(extensionsOf(result)).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', reason: 'DEADLINE_EXCEEDED' });
    expect(performance.now() - started).toBeLessThan(1_500);
    // The expired token was refused, the re-login stalled, and the operation did not wait for it.
    expect(kit.calls(BALANCE).map((call) => call.status)).toEqual([401]);
  });
});

describe('a sustained outage', () => {
  const openMs = 500;
  const kit = useKit({ cache: false, listen: true, resilience: { breaker: { errorRate: 0.5, minCalls: 5, windowMs: 10_000, openMs } } });
  const readyz = async () => {
    const response = await fetch(`${kit.baseUrl}/readyz`);
    return { status: response.status, body: (await response.json()) as { status: string; breakers: Record<string, string> } };
  };

  it('opens the breaker: operations fail fast without calling the bank, /readyz says 503; a probe closes it again', async () => {
    await kit.control('POST', 'faults', { kind: 'status', status: 503, rate: 1 });
    const reasons: unknown[] = [];
    while (reasons.at(-1) !== 'CIRCUIT_OPEN' && reasons.length < 20)
      reasons.push(extensionsOf(await kit.execute(BalancesDocument, {}))?.reason);
    // Once the window holds minCalls (5) calls, at least half failed, it opens (the kit's own read
    // before the test may be one of the five); the next read is refused.
    expect(reasons.at(-1)).toBe('CIRCUIT_OPEN');
    expect(new Set(reasons.slice(0, -1))).toEqual(new Set(['SERVER_ERROR']));
    expect(reasons.length - 1).toBeGreaterThanOrEqual(4);
    expect(reasons.length - 1).toBeLessThanOrEqual(5);

    const sent = kit.calls().length;
    const started = performance.now();
    const refused = await Promise.all(Array.from({ length: 20 }, () => kit.execute(AccountsDocument, { first: 1 })));
    expect(performance.now() - started).toBeLessThan(1_000);
    for (const result of refused) {
      expect(extensionsOf(result)).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', reason: 'CIRCUIT_OPEN', retryAfterSeconds: 1 });
    }
    expect(refused[0]!.errors![0]!.message).toBe(
      "The bank's banking service is failing, so the gateway is not calling it for now (circuit breaker open): try again in 1 s",
    );
    expect(kit.calls()).toHaveLength(sent);
    expect(await readyz()).toMatchObject({ status: 503, body: { status: 'not ready', breakers: { banking: 'open', auth: 'closed' } } });

    // The bank recovers; until openMs has passed the gateway does not know it yet.
    await kit.control('DELETE', 'faults');
    expect(extensionsOf(await kit.execute(BalancesDocument, {}))).toMatchObject({ reason: 'CIRCUIT_OPEN' });
    expect(kit.calls()).toHaveLength(sent);

    await expect.poll(async () => (await readyz()).body.breakers.banking, { timeout: 5 * openMs }).toBe('half-open');
    const probe = await kit.execute(BalancesDocument, {});
    expect(probe.errors).toBeUndefined();
    expect(kit.calls()).toHaveLength(sent + 1);
    expect(await readyz()).toMatchObject({ status: 200, body: { status: 'ready', breakers: { banking: 'closed' } } });
    const after = await Promise.all(Array.from({ length: 10 }, () => kit.execute(AccountsDocument, { first: 1 })));
    expect(after.filter((result) => result.errors !== undefined)).toEqual([]);
  });
});
