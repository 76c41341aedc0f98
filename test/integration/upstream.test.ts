import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS } from '@banking-gateway/sandbox';
import { AccessTokenCreateDocument, AccountCreateDocument, AccountsDocument, BalancesDocument } from '../generated/graphql.ts';
import { DEFAULT_RETRY_POLICY } from '../../src/upstream/retry-policy.ts';
import { ACCOUNT_INPUT, PATHS } from '../helpers/flows.ts';
import { startKit, useKit, type Kit } from '../helpers/kit.ts';

const { balance: BALANCE, account: ACCOUNT, login: LOGIN } = PATHS;
const createInput = ACCOUNT_INPUT;

describe('the calls to the bank, through the gateway', () => {
  // These tests count the bank calls of reads that repeat from test to test: the record cache (test/integration/cache.test.ts) stays off.
  const kit = useKit({ cache: false, timeoutMs: 300 });

  it('retries a read on 5xx and succeeds on the third attempt', async () => {
    await kit.control('POST', 'faults', { kind: 'status', status: 503, count: 2, path: BALANCE });
    const result = await kit.execute(BalancesDocument, {});
    expect(result.errors).toBeUndefined();
    expect(result.data!.balances!.length).toBeGreaterThan(0);
    expect(kit.calls(BALANCE).map((c) => c.status)).toEqual([503, 503, 200]);
    // Retries of one read keep its request id.
    expect(new Set(kit.calls(BALANCE).map((c) => c.requestId)).size).toBe(1);
  });

  it('gives up after the attempt budget and reports UPSTREAM_UNAVAILABLE, naming the call but not the endpoint', async () => {
    await kit.control('POST', 'faults', { kind: 'status', status: 500, rate: 1, path: BALANCE });
    const result = await kit.execute(BalancesDocument, {});
    const calls = kit.calls(BALANCE);
    expect(calls).toHaveLength(DEFAULT_RETRY_POLICY.maxAttempts);
    expect(result.errors?.[0]?.message).toBe('The bank is not answering: it failed with HTTP 500');
    expect(result.errors?.[0]?.extensions).toEqual({
      code: 'UPSTREAM_UNAVAILABLE',
      reason: 'SERVER_ERROR',
      upstreamStatus: 500,
      upstreamRequestId: calls[0]!.requestId,
    });
  });

  it('retries a read after 429, honouring Retry-After', async () => {
    await kit.control('POST', 'faults', { kind: 'status', status: 429, retryAfterSeconds: 0, path: BALANCE });
    const result = await kit.execute(BalancesDocument, {});
    expect(result.errors).toBeUndefined();
    expect(kit.calls(BALANCE).map((c) => c.status)).toEqual([429, 200]);
  });

  it('retries a write after 429, with the same request id (the bank refused it before doing anything)', async () => {
    await kit.control('POST', 'faults', { kind: 'status', status: 429, retryAfterSeconds: 0, method: 'POST', path: ACCOUNT });
    const result = await kit.execute(AccountCreateDocument, { input: createInput, idempotencyKey: 'after-429' });
    expect(result.data!.accountCreate.__typename).toBe('AccountCreateSuccess');
    expect(kit.calls(ACCOUNT, 'POST').map((c) => [c.status, c.requestId])).toEqual([
      [429, 'after-429'],
      [200, 'after-429'],
    ]);
  });

  it('retries a read after a dropped connection and after a stall past the timeout', async () => {
    await kit.control('POST', 'faults', { kind: 'drop', path: BALANCE });
    expect((await kit.execute(BalancesDocument, {})).errors).toBeUndefined();
    expect(kit.calls(BALANCE).map((c) => c.status)).toEqual([null, 200]);

    await kit.resetCounts();
    // A stall far past the 300 ms timeout, so that no delay of a loaded machine lets it end first.
    await kit.control('POST', 'faults', { kind: 'stall', stallMs: 20_000, path: BALANCE });
    expect((await kit.execute(BalancesDocument, {})).errors).toBeUndefined();
    // Two calls: the stalled attempt was abandoned at the timeout and retried, not waited out (waited
    // out, it would have answered and been the only call). The sandbox logs the stalled one, without a
    // status, when it notices its connection closed: the wait allows a loaded machine's delays, and
    // ends well before the stall would.
    await expect.poll(() => kit.calls(BALANCE).length, { timeout: 10_000 }).toBe(2);
    expect(
      kit
        .calls(BALANCE)
        .map((c) => c.status)
        .sort(),
    ).toEqual([200, null]);
  });

  it('never retries a write, even on 5xx', async () => {
    await kit.control('POST', 'faults', { kind: 'status', status: 503, method: 'POST', path: ACCOUNT });
    const result = await kit.execute(AccountCreateDocument, { input: createInput });
    // The bank may have applied it: the answer says so, with the key the write went with.
    expect(result.data!.accountCreate).toMatchObject({
      __typename: 'OutcomeUnknown',
      idempotencyKey: kit.calls(ACCOUNT, 'POST')[0]!.requestId,
    });
    expect(kit.calls(ACCOUNT, 'POST')).toHaveLength(1);
  });

  it('never retries a write on a dropped connection', async () => {
    await kit.control('POST', 'faults', { kind: 'drop', method: 'POST', path: ACCOUNT });
    const result = await kit.execute(AccountCreateDocument, { input: createInput });
    expect(result.data!.accountCreate).toMatchObject({
      __typename: 'OutcomeUnknown',
      idempotencyKey: kit.calls(ACCOUNT, 'POST')[0]!.requestId,
    });
    expect(kit.calls(ACCOUNT, 'POST')).toHaveLength(1);
  });

  it('turns a payload that breaks the contract into an error naming endpoint and path; other fields still resolve', async () => {
    await kit.control('POST', 'faults', { kind: 'contract', method: 'GET', path: ACCOUNT });
    const query = `{ balances { currency } accounts(first: 1) { nodes { upstreamId } } }`;
    const response = await kit.gateway.yoga.fetch('http://gateway.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    const body = (await response.json()) as { data: any; errors: any[] };
    expect(body.data.balances.length).toBeGreaterThan(0);
    expect(body.data.accounts).toBeNull();
    expect(body.errors[0].extensions).toMatchObject({
      code: 'UPSTREAM_CONTRACT_ERROR',
      upstreamRequestId: kit.calls(ACCOUNT)[0]!.requestId,
    });
    expect(body.errors[0].extensions.endpoint).toBeUndefined();
    expect(body.errors[0].message).toMatch(/^The bank's answer breaks its documented contract at data\[0\]\.id: /);
    // The gateway carries on.
    expect((await kit.execute(AccountsDocument, { first: 1 })).errors).toBeUndefined();
  });

  it('accepts the envelope quirks: Success spelling and numbers sent as strings', async () => {
    await kit.control('POST', 'faults', {
      kind: 'contract',
      path: BALANCE,
      body: {
        code: '200',
        status: 'Success',
        message: 'ok',
        data: [{ currency: 'usd', available_balance: '1050.25', pending_amount: 0, reserved_amount: '12' }],
      },
    });
    const result = await kit.execute(BalancesDocument, {});
    expect(result.errors).toBeUndefined();
    expect(result.data!.balances).toEqual([
      {
        currency: 'USD',
        available: { amount: '1050.25', currency: 'USD' },
        pending: { amount: '0', currency: 'USD' },
        reserved: { amount: '12', currency: 'USD' },
      },
    ]);
  });

  it('logs in again once on a 401 and retries the call', async () => {
    // Expire the token upstream while the gateway still believes in it.
    await kit.control('POST', 'clock/advance', { minutes: 31 });
    await kit.resetCounts();
    const result = await kit.execute(BalancesDocument, {});
    expect(result.errors).toBeUndefined();
    expect(kit.calls(BALANCE).map((c) => c.status)).toEqual([401, 200]);
    expect(kit.calls(LOGIN)).toHaveLength(1);
  });

  it('renews after a 401 on a write too, keeping the same request id', async () => {
    await kit.control('POST', 'clock/advance', { minutes: 31 });
    await kit.resetCounts();
    const result = await kit.execute(AccountCreateDocument, { input: createInput, idempotencyKey: 'after-401' });
    expect(result.data!.accountCreate.__typename).toBe('AccountCreateSuccess');
    expect(kit.calls(ACCOUNT, 'POST').map((c) => [c.status, c.requestId])).toEqual([
      [401, 'after-401'],
      [200, 'after-401'],
    ]);
  });
});

describe('a Retry-After longer than a call may wait', () => {
  let kit: Kit;
  afterEach(() => kit.close());

  it('fails fast with RATE_LIMITED, and holds the whole family until then without calling', async () => {
    kit = await startKit({ cache: false });
    await kit.control('POST', 'faults', { kind: 'status', status: 429, retryAfterSeconds: 30, path: BALANCE });
    const result = await kit.execute(BalancesDocument, {});
    expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', reason: 'RATE_LIMITED', retryAfterSeconds: 30 });
    expect(kit.calls(BALANCE)).toHaveLength(1);

    // Another read of the same family is not sent: the bank asked for 30 s of quiet.
    const held = await kit.execute(AccountsDocument, { first: 1 });
    expect(held.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', reason: 'RATE_LIMITED' });
    expect((held.errors?.[0]?.extensions as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(25);
    expect(kit.calls(ACCOUNT)).toHaveLength(0);
    // The held call shows in the metrics as not sent, rate-limited.
    const metrics = await kit.gateway.metrics.registry.getSingleMetricAsString('gateway_upstream_call_duration_seconds');
    expect(metrics).toContain(
      'gateway_upstream_call_duration_seconds_count{endpoint="GET /svc/api/v1/account",family="banking",status="rate-limited"} 1',
    );
  });
});

describe('the service segment', () => {
  it('puts UPSTREAM_SERVICE_SEGMENT where the documents write svc', async () => {
    const kit = await startKit({ cache: false, sandbox: { serviceSegment: 'banking' }, serviceSegment: 'banking' });
    const result = await kit.execute(BalancesDocument, {});
    expect(result.errors).toBeUndefined();
    expect(kit.calls('/banking/api/v1/account/balance')).toHaveLength(1);
    expect(kit.calls(BALANCE)).toHaveLength(0);
    await kit.close();
  });
});

describe('token handling', () => {
  let kit: Kit;
  afterEach(() => kit.close());

  it('makes exactly one login call for 100 concurrent requests', async () => {
    kit = await startKit({ cache: false, sandbox: { latencyMs: 20 } });
    const results = await Promise.all(Array.from({ length: 100 }, () => kit.execute(BalancesDocument, {})));
    for (const result of results) expect(result.errors).toBeUndefined();
    expect(kit.calls(LOGIN)).toHaveLength(1);
    expect(kit.calls(BALANCE)).toHaveLength(100);
  });

  it('without gateway credentials, refuses before calling upstream and forwards a caller token', async () => {
    kit = await startKit({ cache: false, gatewayCredentials: false });
    const anonymous = await kit.execute(BalancesDocument, {});
    expect(anonymous.errors?.[0]?.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(kit.calls(BALANCE)).toHaveLength(0);

    const login = await kit.execute(AccessTokenCreateDocument, {
      input: { clientKey: DEMO_CREDENTIALS.clientKey, clientSecret: DEMO_CREDENTIALS.clientSecret, email: DEMO_CREDENTIALS.email },
    });
    const outcome = login.data!.accessTokenCreate;
    if (outcome.__typename !== 'AccessTokenCreateSuccess') throw new Error(`unexpected ${outcome.__typename}`);
    expect(outcome.token.tokenType).toBe('Bearer');
    expect(Date.parse(outcome.token.expiresAt) - Date.now()).toBeGreaterThan(25 * 60_000);

    const authed = await kit.execute(BalancesDocument, {}, { authorization: `Bearer ${outcome.token.accessToken}` });
    expect(authed.errors).toBeUndefined();
    expect(kit.calls(BALANCE).map((c) => c.status)).toEqual([200]);
    expect(kit.calls(LOGIN)).toHaveLength(1);
  });

  it('reports a refused caller token as UNAUTHENTICATED without logging in for the caller', async () => {
    kit = await startKit({ cache: false });
    const result = await kit.execute(BalancesDocument, {}, { authorization: 'Bearer not-a-real-token' });
    // The token is proven once, with a balance read, before the operation: the bank refused it.
    expect(result.errors?.[0]?.extensions).toEqual({ code: 'UNAUTHENTICATED' });
    expect(result.errors?.[0]?.message).toContain('The bank does not accept this access token');
    expect(kit.calls(LOGIN)).toHaveLength(0);
    expect(kit.calls(BALANCE).map((call) => call.status)).toEqual([401]);
  });

  it('answers wrong credentials with an UpstreamRejection and leaks no secret or token in any error', async () => {
    kit = await startKit({ cache: false });
    const wrong = await kit.execute(AccessTokenCreateDocument, {
      input: { clientKey: DEMO_CREDENTIALS.clientKey, clientSecret: 'wrong-secret', email: DEMO_CREDENTIALS.email },
    });
    expect(wrong.data!.accessTokenCreate).toMatchObject({ __typename: 'UpstreamRejection', upstreamStatus: 401 });
    expect(JSON.stringify(wrong)).not.toContain('wrong-secret');

    await kit.execute(BalancesDocument, {});
    await kit.control('POST', 'faults', { kind: 'status', status: 400, message: 'Nope', path: BALANCE });
    const failed = await kit.execute(BalancesDocument, {});
    expect(failed.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_ERROR', upstreamStatus: 400, upstreamMessage: 'Nope' });
    const serialized = JSON.stringify(failed);
    expect(serialized).not.toContain(DEMO_CREDENTIALS.clientSecret);
    expect(serialized).not.toContain(DEMO_CREDENTIALS.apiKey);
    expect(serialized).not.toMatch(/Bearer|eyJ/);
  });
});
