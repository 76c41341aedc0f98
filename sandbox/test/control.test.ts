import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../src/index.ts';
import {
  ACCOUNT_PATH,
  BALANCE_PATH,
  apiClient,
  call,
  control,
  envelopeError,
  standardHeaders,
  startTestSandbox,
  type Api,
} from './helpers.ts';

let sandbox: Sandbox;
let api: Api;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  sandbox.reset();
  api = await apiClient(sandbox);
  await control(sandbox, 'DELETE', '/requests');
});

const addFault = (fault: Record<string, unknown>) => control(sandbox, 'POST', '/faults', fault);

describe('faults', () => {
  it("'status' answers the envelope with that status and Retry-After, for `count` calls", async () => {
    const added = await addFault({ kind: 'status', status: 503, count: 2, retryAfterSeconds: 7, message: 'Maintenance' });
    expect(added.body).toMatchObject({ id: 'flt_1', kind: 'status', remaining: 2, status: 503 });

    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await api.get(BALANCE_PATH);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('7');
      expect(response.body).toEqual(envelopeError(503, 'Maintenance'));
    }
    expect((await api.get(BALANCE_PATH)).status).toBe(200);
  });

  it("'status' defaults to 500 'Injected fault' once", async () => {
    await addFault({ kind: 'status' });
    expect((await api.get(BALANCE_PATH)).body).toEqual(envelopeError(500, 'Injected fault'));
    expect((await api.get(BALANCE_PATH)).status).toBe(200);
  });

  it('counts only calls matching method and path, in FIFO order', async () => {
    await addFault({ kind: 'status', status: 502, method: 'post', path: ACCOUNT_PATH });
    await addFault({ kind: 'status', status: 504, path: BALANCE_PATH });
    await addFault({ kind: 'status', status: 503, path: BALANCE_PATH });

    expect((await api.get(ACCOUNT_PATH)).status).toBe(200);
    expect((await api.get(BALANCE_PATH)).status).toBe(504);
    expect((await api.get(BALANCE_PATH)).status).toBe(503);
    expect((await api.send('POST', ACCOUNT_PATH, { body: {} })).status).toBe(502);
    expect((await control(sandbox, 'GET', '/faults')).body).toEqual([]);
  });

  it("'stall' waits, then answers normally", async () => {
    await addFault({ kind: 'stall', stallMs: 150 });
    const started = performance.now();
    const response = await api.get(BALANCE_PATH);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(5);
  });

  it("'stall' lets a client time out, and the call is logged without a status", async () => {
    await addFault({ kind: 'stall', stallMs: 30_000 });
    const aborted = fetch(`${sandbox.url}${BALANCE_PATH}`, {
      headers: standardHeaders(api.token) as Record<string, string>,
      signal: AbortSignal.timeout(100),
    });
    await expect(aborted).rejects.toThrow();
    await expect.poll(() => sandbox.requests().length).toBe(1);
    expect(sandbox.requests()[0]).toMatchObject({ path: BALANCE_PATH, status: null });
  });

  it("'drop' closes the connection without an answer and leaves no trace but the log", async () => {
    await addFault({ kind: 'drop', method: 'POST' });
    const created = api.send('POST', ACCOUNT_PATH, {
      body: { type: 'virtual_account', country: 'US', currency: 'USD', required_features: [{ currency: 'USD', transfer_method: 'LOCAL' }] },
    });
    await expect(created).rejects.toThrow();
    expect(sandbox.store.accounts.size).toBe(5);
    expect(sandbox.requests()).toMatchObject([{ method: 'POST', path: ACCOUNT_PATH, status: null }]);
  });

  it("'contract' without a body breaks the first key of the first data element", async () => {
    await addFault({ kind: 'contract' });
    const broken = await api.get(BALANCE_PATH);
    const intact = await api.get(BALANCE_PATH);
    expect(broken.status).toBe(200);
    expect(broken.body.data[0]).toEqual({ ...intact.body.data[0], currency: { broken: true } });
    expect(broken.body.data.slice(1)).toEqual(intact.body.data.slice(1));
  });

  it("'contract' replaces a null data with { broken: true }", async () => {
    await addFault({ kind: 'contract', method: 'DELETE' });
    const response = await api.send('DELETE', ACCOUNT_PATH, { headers: { 'x-account-id': 'acc_demo_sgd' } });
    expect(response.body).toEqual({ code: 200, status: 'success', message: 'Account closed successfully', data: { broken: true } });
    expect(sandbox.store.accounts.get('acc_demo_sgd')?.account.status).toBe('CLOSED');
  });

  it("'contract' with a body sends it verbatim with HTTP 200", async () => {
    await addFault({ kind: 'contract', body: { unexpected: ['shape'] } });
    const response = await api.get(ACCOUNT_PATH);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ unexpected: ['shape'] });
  });

  it("'lose' handles the call fully, then closes the connection: a replay of its request id answers what was lost", async () => {
    await addFault({ kind: 'lose', method: 'POST', path: ACCOUNT_PATH });
    const body = {
      type: 'virtual_account',
      country: 'US',
      currency: 'USD',
      required_features: [{ currency: 'USD', transfer_method: 'LOCAL' }],
    };
    const headers = { 'x-request-id': 'lost-1' };
    await expect(api.send('POST', ACCOUNT_PATH, { body, headers })).rejects.toThrow();
    // The account exists although no answer came back.
    expect(sandbox.store.accounts.size).toBe(6);

    const replay = await api.send('POST', ACCOUNT_PATH, { body, headers });
    expect(replay.status).toBe(200);
    expect(sandbox.store.accounts.size).toBe(6);
    expect(sandbox.store.accounts.has(replay.body.data[0].id)).toBe(true);
    expect(sandbox.requests().map((r) => [r.method, r.status, r.requestId])).toEqual([
      ['POST', null, 'lost-1'],
      ['POST', 200, 'lost-1'],
    ]);
  });

  it("with 'rate', applies to each matching call with that probability until cleared, repeatably for a seed", async () => {
    const statuses = async (calls: number) => {
      const seen: number[] = [];
      for (let i = 0; i < calls; i += 1) seen.push((await api.get(BALANCE_PATH)).status);
      return seen;
    };
    const added = await addFault({ kind: 'status', status: 503, rate: 0.3, seed: 42, path: BALANCE_PATH });
    expect(added.body).toMatchObject({ id: 'flt_1', rate: 0.3, seed: 42, count: null, remaining: null, applied: 0 });
    const first = await statuses(200);
    const failed = first.filter((status) => status === 503).length;
    expect(failed).toBeGreaterThan(40);
    expect(failed).toBeLessThan(80);
    expect(first.filter((status) => status !== 503).every((status) => status === 200)).toBe(true);
    // Still there, counting what it did.
    expect((await control(sandbox, 'GET', '/faults')).body).toMatchObject([{ id: 'flt_1', remaining: null, applied: failed }]);

    // The same seed draws the same sequence.
    await control(sandbox, 'DELETE', '/faults');
    await addFault({ kind: 'status', status: 503, rate: 0.3, seed: 42, path: BALANCE_PATH });
    expect(await statuses(200)).toEqual(first);
  });

  it("with 'rate' and no seed, picks one and shows it; rate 1 applies to every call, and a fault that does not fire lets the next try", async () => {
    const listed = await addFault({ kind: 'status', status: 502, rate: 0, path: BALANCE_PATH });
    expect(Number.isInteger(listed.body.seed)).toBe(true);
    await addFault({ kind: 'status', status: 503, rate: 1, path: BALANCE_PATH });
    for (let i = 0; i < 5; i += 1) expect((await api.get(BALANCE_PATH)).status).toBe(503);
    expect((await control(sandbox, 'GET', '/faults')).body.map((f: { applied: number }) => f.applied)).toEqual([0, 5]);
    await control(sandbox, 'DELETE', '/faults');
    expect((await api.get(BALANCE_PATH)).status).toBe(200);
  });

  it('are listed while pending and can be cleared', async () => {
    await addFault({ kind: 'drop', count: 3, path: '/nowhere' });
    await addFault({ kind: 'stall', stallMs: 10 });
    const listed = await control(sandbox, 'GET', '/faults');
    expect(listed.body).toMatchObject([
      { id: 'flt_1', kind: 'drop', remaining: 3, path: '/nowhere', method: null },
      { id: 'flt_2', kind: 'stall', remaining: 1, stallMs: 10 },
    ]);
    expect((await control(sandbox, 'DELETE', '/faults')).body).toEqual({ ok: true });
    expect((await control(sandbox, 'GET', '/faults')).body).toEqual([]);
  });

  it.each([
    [{ kind: 'explode' }, 'kind must be one of status, stall, drop, lose, contract'],
    [{ kind: 'status', count: 2, rate: 0.5 }, 'rate cannot be combined with count'],
    [{ kind: 'status', seed: 7 }, 'seed applies only with rate'],
    [{ kind: 'status', rate: 1.5 }, 'rate must be at most 1'],
    [{ kind: 'status', rate: 0.5, seed: -1 }, 'seed must be at least 0'],
    [{}, 'kind is required'],
    [{ kind: 'status', status: 200 }, 'status must be at least 400'],
    [{ kind: 'status', count: 0 }, 'count must be at least 1'],
    [{ kind: 'stall', stallMs: 'long' }, 'stallMs must be a number'],
    [{ kind: 'drop', path: 'svc' }, 'path must start with /'],
  ])('reject the invalid fault %j', async (fault, error) => {
    const response = await addFault(fault);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error });
  });

  it('never apply to the control API', async () => {
    await addFault({ kind: 'drop', count: 5 });
    expect((await control(sandbox, 'GET', '/clock')).status).toBe(200);
    expect((await control(sandbox, 'GET', '/faults')).body[0].remaining).toBe(5);
  });
});

describe('stalled calls at shutdown', () => {
  it('do not keep the sandbox from closing', async () => {
    const other = await startTestSandbox();
    const otherApi = await apiClient(other);
    await control(other, 'POST', '/faults', { kind: 'stall' });
    const pending = otherApi.get(BALANCE_PATH).catch((error: unknown) => error);
    // The fault leaves the queue when the call arrives and starts its 30 s stall.
    await expect.poll(async () => (await control(other, 'GET', '/faults')).body).toEqual([]);
    const started = performance.now();
    await other.close();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(Error);
  });
});

describe('latency', () => {
  it('defaults to the latencyMs option and can be overridden until reset', async () => {
    const slow = await startTestSandbox({ latencyMs: 25 });
    try {
      expect((await control(slow, 'GET', '/latency')).body).toEqual({ ms: 25 });
      expect((await control(slow, 'PUT', '/latency', { ms: 5 })).body).toEqual({ ms: 5 });
      expect((await control(slow, 'GET', '/latency')).body).toEqual({ ms: 5 });
      await control(slow, 'POST', '/reset');
      expect((await control(slow, 'GET', '/latency')).body).toEqual({ ms: 25 });
    } finally {
      await slow.close();
    }
  });

  it('delays API calls but not control calls', async () => {
    await control(sandbox, 'PUT', '/latency', { ms: 120 });
    const started = performance.now();
    expect((await api.get(BALANCE_PATH)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
    expect(sandbox.requests().at(-1)?.durationMs).toBeGreaterThanOrEqual(115);

    // A latency no control call could hide in a busy machine's stalls.
    await control(sandbox, 'PUT', '/latency', { ms: 5_000 });
    const controlStarted = performance.now();
    await control(sandbox, 'GET', '/clock');
    expect(performance.now() - controlStarted).toBeLessThan(2_500);
  });

  it('is the time from arrival to answer: the bank works on a call as it arrives and answers when the latency has passed', async () => {
    await control(sandbox, 'PUT', '/latency', { ms: 300 });
    const body = {
      type: 'virtual_account',
      country: 'US',
      currency: 'USD',
      required_features: [{ currency: 'USD', transfer_method: 'LOCAL' }],
    };
    const started = performance.now();
    const created = api.send('POST', ACCOUNT_PATH, { body, headers: { 'x-request-id': 'latency-1' } });
    // Well inside the latency the account exists; the answer has not left.
    await expect.poll(() => sandbox.store.accounts.size, { interval: 5, timeout: 250 }).toBe(6);
    expect(sandbox.requests()).toEqual([]);
    expect((await created).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(295);
  });

  it('answers a round of calls arriving together together, not one after another', async () => {
    const latency = 200;
    await control(sandbox, 'PUT', '/latency', { ms: latency });
    await Promise.all(Array.from({ length: 30 }, () => api.get(BALANCE_PATH)));
    const durations = sandbox.requests().map((r) => r.durationMs);
    expect(durations).toHaveLength(30);
    // Each answer leaves at its own arrival + the latency, never earlier (the handler's work inside
    // it: the test above). Answered one after another, the later calls would wait out the others'
    // latency before their own: none waited a second one. The bound leaves a whole latency for a
    // busy machine's stalls, which a margin of 40 ms did not (it failed beside other work).
    expect(Math.min(...durations)).toBeGreaterThanOrEqual(latency);
    expect(Math.max(...durations)).toBeLessThan(2 * latency);
  });

  it('rejects a bad value', async () => {
    expect((await control(sandbox, 'PUT', '/latency', { ms: -5 })).body).toEqual({ error: 'ms must be at least 0' });
    expect((await control(sandbox, 'PUT', '/latency', {})).body).toEqual({ error: 'ms is required' });
  });
});

describe('capacity', () => {
  it("with overflow 'reject', answers 429 (with Retry-After) past the calls it works on at once, until reset", async () => {
    await control(sandbox, 'PUT', '/latency', { ms: 60 });
    const set = await control(sandbox, 'PUT', '/capacity', { concurrency: 2, overflow: 'reject', retryAfterSeconds: 1 });
    expect(set.body).toEqual({ concurrency: 2, overflow: 'reject', retryAfterSeconds: 1, inFlight: 0, queued: 0, rejected: 0 });
    const answers = await Promise.all(Array.from({ length: 5 }, () => api.get(BALANCE_PATH)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 429, 429, 429]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toEqual(envelopeError(429, 'Too many requests'));
    expect((await control(sandbox, 'GET', '/capacity')).body).toMatchObject({ rejected: 3, inFlight: 0 });
    await control(sandbox, 'POST', '/reset');
    api = await apiClient(sandbox);
    expect((await control(sandbox, 'GET', '/capacity')).body).toMatchObject({ concurrency: null, rejected: 0 });
  });

  it("with overflow 'queue', works on that many at once and the rest wait: latency climbs with the load", async () => {
    await control(sandbox, 'PUT', '/latency', { ms: 40 });
    await control(sandbox, 'PUT', '/capacity', { concurrency: 2 });
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 6 }, () => api.get(BALANCE_PATH)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    // Three waves of two: about 120 ms, where unlimited it would be one wave of 40.
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
    const durations = sandbox
      .requests()
      .slice(-6)
      .map((r) => r.durationMs)
      .sort((a, b) => a - b);
    expect(durations[5]).toBeGreaterThanOrEqual(115);
  });

  it('rejects a bad setting, naming the field', async () => {
    expect((await control(sandbox, 'PUT', '/capacity', { concurrency: 0 })).body).toEqual({ error: 'concurrency must be at least 1' });
    expect((await control(sandbox, 'PUT', '/capacity', { concurrency: 3, overflow: 'drop' })).status).toBe(400);
  });
});

describe('request log', () => {
  it('records API calls in order with method, path, query, status, sandbox time, request id, trace context and duration', async () => {
    await control(sandbox, 'POST', '/clock/advance', { days: 2 });
    const expectedDay = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    api = await apiClient(sandbox);
    await control(sandbox, 'DELETE', '/requests');
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    await api.get(ACCOUNT_PATH, { headers: { 'x-request-id': 'log-1', traceparent }, query: { currency: 'USD', status: 'ACTIVE' } });
    await api.send('DELETE', ACCOUNT_PATH, { headers: { 'x-request-id': 'log-2' } });
    await call(sandbox, '/svc/api/v1/unknown');

    const viaHttp = (await control(sandbox, 'GET', '/requests')).body;
    expect(viaHttp).toEqual(sandbox.requests());
    expect(viaHttp).toMatchObject([
      { method: 'GET', path: ACCOUNT_PATH, query: { currency: 'USD', status: 'ACTIVE' }, status: 200, requestId: 'log-1', traceparent },
      { method: 'DELETE', path: ACCOUNT_PATH, query: {}, status: 400, requestId: 'log-2', traceparent: null },
      { method: 'GET', path: '/svc/api/v1/unknown', query: {}, status: 404, requestId: null },
    ]);
    for (const entry of viaHttp) {
      expect(entry.time.slice(0, 10)).toBe(expectedDay);
      expect(entry.durationMs).toBeTypeOf('number');
      expect(entry.durationMs).toBeGreaterThanOrEqual(0);
    }
  });

  it('leaves out control calls and can be cleared', async () => {
    await api.get(BALANCE_PATH);
    await control(sandbox, 'GET', '/clock');
    await control(sandbox, 'GET', '/faults');
    expect(sandbox.requests().map((entry) => entry.path)).toEqual([BALANCE_PATH]);
    expect((await control(sandbox, 'DELETE', '/requests')).body).toEqual({ ok: true });
    expect(sandbox.requests()).toEqual([]);
  });
});

describe('clock', () => {
  it('reads and advances the sandbox time', async () => {
    const before = Date.parse((await control(sandbox, 'GET', '/clock')).body.now);
    const advanced = await control(sandbox, 'POST', '/clock/advance', { days: 1, minutes: 2, seconds: 3, ms: 4 });
    const after = Date.parse(advanced.body.now);
    const expected = 86_400_000 + 120_000 + 3_000 + 4;
    expect(after - before).toBeGreaterThanOrEqual(expected - 5);
    expect(after - before).toBeLessThan(expected + 1_000);
    expect(Math.abs(sandbox.clock.now().getTime() - after)).toBeLessThan(1_000);
  });

  it('only moves forward', async () => {
    const response = await control(sandbox, 'POST', '/clock/advance', { minutes: -1 });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'minutes must be at least 0' });
  });

  it('rejects a body that is not JSON', async () => {
    const response = await call(sandbox, '/sandbox/clock/advance', { method: 'POST', rawBody: '{' });
    expect(response.body).toEqual({ error: 'request body is not valid JSON' });
  });
});

describe('POST /sandbox/reset', () => {
  it('restores data, clock, faults, latency, idempotency, the log and tokens', async () => {
    await api.send('DELETE', ACCOUNT_PATH, { headers: { 'x-account-id': 'acc_demo_usd' } });
    await control(sandbox, 'POST', '/clock/advance', { days: 10 });
    await control(sandbox, 'PUT', '/latency', { ms: 50 });
    await addFault({ kind: 'status', path: '/never-called' });

    expect((await control(sandbox, 'POST', '/reset')).body).toEqual({ ok: true });

    expect(sandbox.store.accounts.get('acc_demo_usd')?.account.status).toBe('ACTIVE');
    expect(Math.abs(sandbox.clock.now().getTime() - Date.now())).toBeLessThan(1_000);
    expect((await control(sandbox, 'GET', '/latency')).body).toEqual({ ms: 0 });
    expect((await control(sandbox, 'GET', '/faults')).body).toEqual([]);
    expect(sandbox.requests()).toEqual([]);
    expect((await api.get(BALANCE_PATH)).status).toBe(401);
  });
});

describe('routing', () => {
  it('answers 404 for the retired cardholder path and unknown paths', async () => {
    for (const path of ['/svc/api/v1/cardHolders', '/svc/api/v1/nothing', '/']) {
      const response = await api.get(path);
      expect(response.status).toBe(404);
      expect(response.body).toEqual(envelopeError(404, 'Not found'));
    }
    const post = await api.send('POST', '/svc/api/v1/cardHolders', { body: {} });
    expect(post.body).toEqual(envelopeError(404, 'Not found'));
  });

  it('answers 405 for a known path with a wrong method', async () => {
    const response = await api.send('PUT', ACCOUNT_PATH, { body: {} });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, GET, DELETE');
    expect(response.body).toEqual(envelopeError(405, 'Method not allowed'));
  });

  it('tolerates a trailing slash', async () => {
    expect((await api.get(`${ACCOUNT_PATH}/`)).status).toBe(200);
  });

  it('answers plain 404 under /sandbox/', async () => {
    const response = await control(sandbox, 'GET', '/nothing');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'Not found' });
  });
});

describe('onControlChange', () => {
  it('tells its listeners of each control-API write that went through and changes records, and of nothing else', async () => {
    let told = 0;
    const stop = sandbox.onControlChange(() => (told += 1));
    await control(sandbox, 'POST', '/clock/advance', { minutes: 1 });
    expect(told).toBe(1);
    await control(sandbox, 'GET', '/clock');
    await api.get(BALANCE_PATH);
    // Writes that change no record the API answers with.
    await control(sandbox, 'DELETE', '/requests');
    await control(sandbox, 'PUT', '/latency', { ms: 0 });
    await control(sandbox, 'PUT', '/capacity', { concurrency: null });
    expect(told).toBe(1);
    // Refused (not a number): nothing changed.
    expect((await control(sandbox, 'POST', '/clock/advance', { minutes: 'soon' })).status).toBe(400);
    expect(told).toBe(1);
    await control(sandbox, 'POST', '/deposits', { currency: 'USD', amount: 10, payer_name: 'Globex' });
    expect(told).toBe(2);
    stop();
    await control(sandbox, 'POST', '/reset');
    expect(told).toBe(2);
  });
});
