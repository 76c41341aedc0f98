import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '@banking-gateway/sandbox';
import { OPERATIONS } from '../../bench/operations.ts';
import { sha256Hex } from '../../src/authentication/api-keys.ts';
import type { CallerAuthConfig, ConcurrencyConfig } from '../../src/settings/index.ts';
import { postGraphql } from '../helpers/http.ts';
import { PATHS } from '../helpers/flows.ts';
import { startKit, type Kit } from '../helpers/kit.ts';
import { registerSecret } from '../helpers/leak-scan.ts';
import { metric } from '../helpers/observe.ts';
import { subscribeSse, subscribeWs } from '../helpers/subscribe.ts';

/**
 * Fair share of the bank per client (service mode, one API key per client): operations per window,
 * refused with RATE_LIMITED and a Retry-After, and a cap on one client's upstream calls in flight.
 * One client floods; the other is never refused and its calls are not starved.
 */

const CLIENTS = ['flood', 'quiet', 'resetting', 'subscriber'] as const;
const KEYS = Object.fromEntries(CLIENTS.map((name) => [name, `gwk_test-${name}-key-0123456789abcdef`])) as Record<
  (typeof CLIENTS)[number],
  string
>;
for (const key of Object.values(KEYS)) registerSecret('a caller API key', key);

const SERVICE: CallerAuthConfig = {
  mode: 'service',
  apiKeys: CLIENTS.map((name) => ({ name, sha256: sha256Hex(KEYS[name]), roles: ['admin'], cardholderId: null })),
  jwt: undefined,
  allowedOrigins: [],
};
const BALANCES = '{ balances { currency } }';
const SUBSCRIPTION = 'subscription { accountStatusChanged { status } }';
const LIMIT = { operations: 5, windowSeconds: 3 };
const as = (client: (typeof CLIENTS)[number]) => ({ 'x-api-key': KEYS[client] });

/** What a refused operation must look like: nothing but the error, with the limit and when to come back. */
function expectRateLimited(errors: unknown, retryAfterSeconds: number) {
  expect(errors).toEqual([
    {
      message: `Too many operations: a client may start 5 per 3 s. Try again in ${retryAfterSeconds} s.`,
      extensions: { code: 'RATE_LIMITED', retryAfterSeconds, limit: LIMIT },
    },
  ]);
}

describe('operations per client per window', () => {
  let kit: Kit;
  beforeAll(async () => {
    // These tests count the bank calls of reads that repeat from test to test: the record cache (test/integration/cache.test.ts) stays off.
    kit = await startKit({ cache: false, listen: true, auth: SERVICE, clientRateLimit: LIMIT });
    await kit.fresh();
  });
  afterAll(() => kit?.close());

  it('refuses the flooding client over its window with 429, RATE_LIMITED and Retry-After, before any bank call, and never the other', async () => {
    const quiet: number[] = [];
    for (let i = 0; i < LIMIT.operations; i++) {
      const answer = await postGraphql(`${kit.baseUrl}/graphql`, { query: BALANCES }, as('flood'));
      expect([answer.status, answer.body.errors]).toEqual([200, undefined]);
      if (i < LIMIT.operations - 1) quiet.push((await postGraphql(`${kit.baseUrl}/graphql`, { query: BALANCES }, as('quiet'))).status);
    }
    await kit.resetCounts();
    for (let i = 0; i < 10; i++) {
      const refused = await postGraphql(`${kit.baseUrl}/graphql`, { query: BALANCES }, as('flood'));
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(LIMIT.windowSeconds);
      expect(refused.body.data).toBeUndefined();
      expectRateLimited(refused.body.errors, retryAfter);
    }
    // Refused before execution: not one call reached the bank.
    expect(kit.calls()).toEqual([]);
    expect(quiet).toEqual([200, 200, 200, 200]);
    expect(await metric(kit, 'gateway_client_limit_refusals_total{reason="operations_per_window"}')).toBe(10);
    // No Redis here: the window is counted in this instance's memory, and no gauge says otherwise.
    expect(await metric(kit, 'gateway_client_rate_limit_shared')).toBeNaN();
  });

  it('serves the client again once its Retry-After has passed: the window resets', async () => {
    for (let i = 0; i < LIMIT.operations; i++)
      expect((await postGraphql(`${kit.baseUrl}/graphql`, { query: BALANCES }, as('resetting'))).status).toBe(200);
    const refused = await postGraphql(`${kit.baseUrl}/graphql`, { query: BALANCES }, as('resetting'));
    expect(refused.status).toBe(429);
    await sleep(Number(refused.headers.get('retry-after')) * 1000);
    const again = await postGraphql(`${kit.baseUrl}/graphql`, { query: BALANCES }, as('resetting'));
    expect([again.status, again.body.errors]).toEqual([200, undefined]);
    expect(again.body.data.balances.length).toBeGreaterThan(0);
  });

  it('counts a subscription as it starts, and refuses one over the window at subscribe time (SSE and graphql-ws)', async () => {
    const first = await subscribeSse(kit, SUBSCRIPTION, {}, as('subscriber'));
    await first.close();
    for (let i = 1; i < LIMIT.operations; i++)
      expect((await postGraphql(`${kit.baseUrl}/graphql`, { query: BALANCES }, as('subscriber'))).status).toBe(200);
    // Over SSE the refusal is the whole answer: a 429 with Retry-After, its one event the error.
    const overSse = await fetch(`${kit.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...as('subscriber') },
      body: JSON.stringify({ query: SUBSCRIPTION }),
    });
    expect(overSse.status).toBe(429);
    const retryAfter = Number(overSse.headers.get('retry-after'));
    const events = (await overSse.text()).split('\n\n').filter((message) => message.startsWith('event: next'));
    expect(events).toHaveLength(1);
    expectRateLimited(JSON.parse(events[0]!.split('\ndata: ')[1]!).errors, retryAfter);
    const overWs = await subscribeWs(kit, SUBSCRIPTION, {}, as('subscriber'), { registered: false });
    const [ws] = await overWs.next(1);
    await overWs.close();
    expectRateLimited(ws.errors, ws.errors[0].extensions.retryAfterSeconds);
    expect(kit.gateway.events.activeSubscriptions()).toBe(0);
  });
});

describe('anonymous callers (AUTH_MODE none)', () => {
  let kit: Kit;
  beforeAll(async () => {
    kit = await startKit({ cache: false, listen: true, clientRateLimit: { operations: 2, windowSeconds: 60 } });
    await kit.fresh();
  });
  afterAll(() => kit?.close());

  /** A POST from a given loopback address (node:http: undici's fetch cannot choose it): each address is a client of its own. */
  function from(localAddress: string): Promise<number> {
    const { port } = new URL(kit.baseUrl!);
    return new Promise((resolve, reject) => {
      const outgoing = request(
        { host: '127.0.0.1', port, path: '/graphql', method: 'POST', localAddress, headers: { 'content-type': 'application/json' } },
        (answer) => {
          answer.resume();
          answer.once('end', () => resolve(answer.statusCode!));
        },
      );
      outgoing.once('error', reject);
      outgoing.end(JSON.stringify({ query: BALANCES }));
    });
  }

  it('counts each by the address it connects from', async () => {
    expect([await from('127.0.0.2'), await from('127.0.0.2'), await from('127.0.0.2')]).toEqual([200, 200, 429]);
    expect([await from('127.0.0.1'), await from('127.0.0.1'), await from('127.0.0.1')]).toEqual([200, 200, 429]);
  });
});

/**
 * The test's tag of each operation by the gateway's own request id, which its calls reach the bank
 * with (x-correlation-id): the gateway answers with that id, whatever x-request-id the test sent.
 */
const tags = new Map<string, string>();
const tagged = (headers: Headers, tag: string) => void tags.set(headers.get('x-request-id') ?? '', tag);
const ofTag = (log: readonly RequestLogEntry[], prefix: string) => log.filter((e) => tags.get(e.correlationId ?? '')?.startsWith(prefix));

/** One operation of `client` through the kit's gateway, in-process, tagged `tag` for the sandbox's log. */
async function operationOf(
  kit: Kit,
  client: (typeof CLIENTS)[number],
  query: string,
  tag: string,
): Promise<{ data?: unknown; errors?: unknown[] }> {
  const answer = await postGraphql<{ data?: unknown; errors?: unknown[] }>('http://gateway.test/graphql', { query }, as(client), {
    fetch: kit.gateway.yoga.fetch,
  });
  tagged(answer.headers, tag);
  return answer.body;
}

/** The gateway's own reading of the sandbox host's limit: what it holds in flight, and why calls wait. */
const hostLimit = (kit: Kit) => kit.gateway.upstream.concurrencyLimits()[new URL(kit.sandbox.url).host];

/** The most calls of one client (by the tags of its operations) in flight at once at the sandbox. */
function mostInFlight(log: readonly RequestLogEntry[], prefix: string): number {
  // The log keeps whole milliseconds of arrival: a call that arrived within 1 ms of another's end did not overlap it.
  const calls = ofTag(log, prefix).map((e) => ({ at: Date.parse(e.time), end: Date.parse(e.time) + e.durationMs }));
  return Math.max(0, ...calls.map((call) => calls.filter((other) => other.at <= call.at && other.end > call.at + 1).length));
}

const lastArrival = (log: readonly RequestLogEntry[], prefix: string) => Math.max(...ofTag(log, prefix).map((e) => Date.parse(e.time)));
const DASHBOARD = OPERATIONS.find((o) => o.name === 'dashboard')!;
const CAPPED: ConcurrencyConfig = { initial: 50, min: 4, max: 96, adaptive: false, perClient: 2, sharePercent: 50 };

describe('calls in flight per client', () => {
  let kit: Kit;
  beforeAll(async () => {
    kit = await startKit({ cache: false, auth: SERVICE, sandbox: { latencyMs: 50 }, concurrency: CAPPED });
    await kit.fresh();
  });
  afterAll(() => kit?.close());

  const dashboard = (client: (typeof CLIENTS)[number], requestId: string) => operationOf(kit, client, DASHBOARD.query, requestId);

  it("holds the flooder to its cap while the other client's calls go at once, and every operation completes", async () => {
    const flood = Array.from({ length: 3 }, (_, i) => dashboard('flood', `flood-${i}`));
    // The flood is at its cap with calls waiting behind its own, the host's limit far from reached.
    for (let i = 0; i < 200 && (hostLimit(kit)?.heldByClientShare ?? 0) === 0; i++) await sleep(5);
    const reading = hostLimit(kit)!;
    expect(reading.heldByClientShare).toBeGreaterThan(0);
    // Its cap reached, read from the gateway's limit (how many calls the sandbox saw overlap depends on how fast a loaded machine sends them).
    expect(reading.inFlight).toBe(2);
    expect(reading.inFlight).toBeLessThan(reading.limit);
    const quiet = await dashboard('quiet', 'quiet-0');
    const results = [...(await Promise.all(flood)), quiet];
    expect(results.map((r) => r.errors)).toEqual([undefined, undefined, undefined, undefined]);

    const log = kit.sandbox.requests();
    expect(ofTag(log, 'flood')).toHaveLength(3 * DASHBOARD.minimumCalls);
    expect(mostInFlight(log, 'flood')).toBeLessThanOrEqual(2);
    expect(mostInFlight(log, 'quiet')).toBeLessThanOrEqual(2);
    // Not starved: the quiet dashboard's calls were all sent while the flood still had calls to send.
    expect(lastArrival(log, 'quiet')).toBeLessThan(lastArrival(log, 'flood'));
  });
});

describe("one client's share of the limit while another is active (CLIENT_MAX_SHARE_PERCENT, shipped at 50)", () => {
  let kit: Kit;
  beforeAll(async () => {
    kit = await startKit({ cache: false, auth: SERVICE, sandbox: { latencyMs: 20 }, concurrency: { ...CAPPED, initial: 8, perClient: 0 } });
    await kit.fresh();
  });
  afterAll(() => kit?.close());

  const dashboards = (client: (typeof CLIENTS)[number], tag: string, count: number) =>
    Promise.all(Array.from({ length: count }, async (_, i) => (await operationOf(kit, client, DASHBOARD.query, `${tag}-${i}`)).errors));
  const reading = () => hostLimit(kit)!;

  // Read from the gateway's limit while the bank holds the calls, not from when the sandbox logged
  // them: how many calls overlap at the bank depends on how fast a loaded machine sends them.
  it('lets a client alone fill the limit', async () => {
    // A round of calls held long enough to be seen: the three dashboards' first rounds are 9 calls.
    await kit.control('PUT', 'latency', { ms: 500 });
    try {
      const flood = dashboards('flood', 'alone', 3);
      await expect.poll(() => reading().inFlight, { timeout: 10_000 }).toBe(8);
      expect(reading()).toMatchObject({ limit: 8, heldByClientShare: 0 });
      expect(await flood).toEqual([undefined, undefined, undefined]);
    } finally {
      await kit.control('PUT', 'latency', { ms: 20 });
    }
    expect(mostInFlight(kit.sandbox.requests(), 'alone')).toBeLessThanOrEqual(8);
  });

  it('holds it to half of the limit while another client has a call in flight', async () => {
    // The other client's one call stalls at the bank (1.5 s, inside the kit's 2 s timeout): it is active all along.
    await kit.control('POST', 'faults', { kind: 'stall', stallMs: 1_500, count: 1, path: PATHS.balance });
    const quiet = operationOf(kit, 'quiet', BALANCES, 'quiet-balances');
    await expect.poll(() => reading().inFlight, { timeout: 10_000 }).toBe(1);
    const flood = dashboards('flood', 'shared', 3);
    // Calls of the flood wait for its own share: it holds 4 of the 8, the quiet client 1.
    await expect.poll(() => reading().heldByClientShare, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(reading().inFlight).toBe(5);
    expect(await flood).toEqual([undefined, undefined, undefined]);
    expect((await quiet).errors).toBeUndefined();
  });
});

describe('calls in flight per client, past the deadline', () => {
  let kit: Kit;
  beforeAll(async () => {
    kit = await startKit({
      cache: false,
      listen: true,
      auth: SERVICE,
      sandbox: { latencyMs: 200 },
      concurrency: { ...CAPPED, perClient: 1 },
      resilience: { operationDeadlineMs: 300 },
    });
    await kit.fresh();
  });
  afterAll(() => kit?.close());

  it("ends the calls that waited behind their client's own calls past the operation deadline as DEADLINE_EXCEEDED", async () => {
    // Three reads at once, one at a time: the third would start at 400 ms, past the 300 ms deadline.
    const answer = await postGraphql(
      `${kit.baseUrl}/graphql`,
      { query: '{ accounts(first: 10) { nodes { id } } balances { currency } upcomingPayouts(first: 10) { nodes { id } } }' },
      as('flood'),
    );
    const reasons = (answer.body.errors as { extensions: { code: string; reason?: string } }[]).map(
      (e) => `${e.extensions.code} ${e.extensions.reason}`,
    );
    expect(reasons.length).toBeGreaterThan(0);
    expect(new Set(reasons)).toEqual(new Set(['UPSTREAM_UNAVAILABLE DEADLINE_EXCEEDED']));
    // The other two reads waited for the client's own (its cap), not for the host's limit.
    expect(await metric(kit, `gateway_upstream_client_share_waits_total{host="${new URL(kit.sandbox.url).host}"}`)).toBe(2);
    expect(kit.calls().length).toBeLessThan(3);
  });
});
