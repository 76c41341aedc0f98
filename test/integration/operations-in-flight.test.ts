import { beforeEach, describe, expect, it } from 'vitest';
import { ONE_CALL_BALANCES } from '../../bench/operations.ts';
import { postGraphql } from '../helpers/http.ts';
import { useKit, type Kit } from '../helpers/kit.ts';
import { subscribeSse, subscribeWs } from '../helpers/subscribe.ts';
import { until } from '../helpers/wait.ts';

/**
 * MAX_OPERATIONS_IN_FLIGHT (issue 57): what bounds the memory that operations running at once hold.
 * Past it an operation is refused before it reads anything (SERVER_BUSY, 503, Retry-After), over
 * HTTP and graphql-ws; its place comes back when one ends; a live query holds none.
 */

/** The bank's latency while operations are held in flight: long enough to send others meanwhile. */
const SLOW_MS = 400;

/** The gateway's gauge of operations running (gateway_operations_in_flight), read as a scrape reads it. */
async function inFlight(kit: Kit): Promise<number> {
  const text = await kit.gateway.metrics.registry.getSingleMetricAsString('gateway_operations_in_flight');
  return Number(/^gateway_operations_in_flight (\d+)$/m.exec(text)?.[1]);
}

const bankCalls = (kit: Kit) => kit.calls().filter((call) => !call.path.includes('/authentication/'));
const post = (kit: Kit, query = ONE_CALL_BALANCES) => postGraphql(`${kit.baseUrl}/graphql`, { query });

describe('operations in flight', () => {
  const kit = useKit({ listen: true, cache: false, limits: { maxOperationsInFlight: 2 } });
  beforeEach(async () => {
    // A token first: a login is no call of the operations'.
    await post(kit);
    await kit.control('PUT', 'latency', { ms: SLOW_MS });
    await kit.resetCounts();
    return () => kit.control('PUT', 'latency', { ms: 0 });
  });

  it('refuses the one past the limit with SERVER_BUSY before any bank call, and lets the next through once one has ended', async () => {
    const running = [post(kit), post(kit)];
    await until('both operations running', async () => (await inFlight(kit)) === 2);
    const refused = await post(kit);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body.errors[0].extensions).toEqual({ code: 'SERVER_BUSY', retryAfterSeconds: 1 });
    expect(refused.body.errors[0].message).toContain('(2)');
    for (const answer of await Promise.all(running)) expect(answer.body.data.balances.length).toBeGreaterThan(0);
    // The refused one made no call: the two that ran made one each.
    expect(bankCalls(kit)).toHaveLength(2);
    expect(await inFlight(kit)).toBe(0);
    const after = await post(kit);
    expect(after.status).toBe(200);
    expect(bankCalls(kit)).toHaveLength(3);
    expect(await kit.gateway.metrics.registry.getSingleMetricAsString('gateway_operations_refused_busy_total')).toContain(
      'gateway_operations_refused_busy_total 1',
    );
  });

  it('gives the place back of an operation whose client walked away before its answer', async () => {
    const walkAway = new AbortController();
    const abandoned = postGraphql(`${kit.baseUrl}/graphql`, { query: ONE_CALL_BALANCES }, {}, { signal: walkAway.signal });
    await until('the operation running', async () => (await inFlight(kit)) === 1);
    walkAway.abort();
    await expect(abandoned).rejects.toThrow();
    await until('its place given back', async () => (await inFlight(kit)) === 0);
  });

  it('refuses over graphql-ws the same way, and counts a live query as holding no place', async () => {
    await kit.control('PUT', 'latency', { ms: 0 });
    const live = await subscribeSse(kit, 'query Live @live { balances { currency } }', {}, {}, { registered: false });
    await live.next();
    await kit.control('PUT', 'latency', { ms: SLOW_MS });
    await kit.resetCounts();
    const running = [post(kit), post(kit)];
    await until('both operations running', async () => (await inFlight(kit)) === 2);
    const refused = await subscribeWs(kit, ONE_CALL_BALANCES, {}, {}, { registered: false });
    const [answer] = await refused.next(1, SLOW_MS * 5);
    expect(answer.errors[0].extensions.code).toBe('SERVER_BUSY');
    await refused.close();
    await Promise.all(running);
    // Both places back, the live query still open: an operation runs again.
    expect((await post(kit)).status).toBe(200);
    await live.close();
  });
});
