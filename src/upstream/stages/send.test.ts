import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../platform/logger.ts';
import { accountEndpoints } from '../accounts.ts';
import { directDebitEndpoints } from '../direct-debit.ts';
import { payoutEndpoints } from '../payouts.ts';
import { OperationAbandonedError, UpstreamNetworkError, UpstreamUnavailableError } from '../errors.ts';
import { startOperation } from '../operation.ts';
import { createSharedCallState } from '../shared-call-state.ts';
import type { UpstreamCallRecord } from '../observer.ts';
import { prepareCall, type CallOptions } from './call.ts';
import { headersFor, send } from './send.ts';

const IDENTITY = { apiKey: 'key', productId: 'prod', userId: 'user', clientId: 'client' };
const TARGET = { prefix: '', serviceSegment: 'svc' };

describe('headersFor', () => {
  it('sends the documented standard set with the call token and request id', () => {
    const call = prepareCall(accountEndpoints.list, { correlationId: 'req-1' }, TARGET, 1);
    call.token = 'tok';
    expect(headersFor(call, IDENTITY)).toEqual({
      'x-api-key': 'key',
      'content-type': 'application/json',
      accept: 'application/json',
      'x-product-id': 'prod',
      'x-request-id': call.details.requestId,
      'x-user-id': 'user',
      authorization: 'Bearer tok',
      'x-correlation-id': 'req-1',
    });
  });

  it('sends the direct debit family the bearer token alone, plus its own headers', () => {
    const call = prepareCall(directDebitEndpoints.directDebits, { headers: { 'x-on-behalf-of': 'acc_1' } }, TARGET, 1);
    call.token = 'tok';
    expect(headersFor(call, IDENTITY)).toEqual({
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: 'Bearer tok',
      'x-on-behalf-of': 'acc_1',
    });
  });
});

describe('send', () => {
  const seen: { url: string | undefined; headers: IncomingHttpHeaders }[] = [];
  const records: UpstreamCallRecord[] = [];
  const callState = createSharedCallState({ observer: { call: (record) => records.push(record), breaker: () => {} } });
  const server = createServer((request, response) => {
    seen.push({ url: request.url, headers: request.headers });
    if (request.url?.includes('slow')) return void setTimeout(() => response.end('{}'), 500);
    response.setHeader('content-type', 'application/json');
    response.end(request.url?.includes('text') ? 'plain words' : JSON.stringify({ code: 200, status: 'success', data: [] }));
  });
  let pool: Pool;
  let exchange: ReturnType<typeof send>;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    exchange = send(pool, IDENTITY, callState, silentLogger);
  });
  afterAll(async () => {
    await pool.close();
    server.close();
  });
  const callTo = (query: CallOptions['query']) => prepareCall(accountEndpoints.list, { query }, TARGET, 1);

  it('makes one exchange and gives the status, headers and JSON body, observed', async () => {
    records.length = 0;
    const answer = await exchange(callTo({ page: 1 }));
    expect(answer).toMatchObject({ statusCode: 200, body: { code: 200, status: 'success', data: [] } });
    expect(seen.at(-1)).toMatchObject({ url: '/svc/api/v1/account?page=1', headers: { 'x-api-key': 'key', 'x-user-id': 'user' } });
    expect(records).toMatchObject([{ endpoint: 'GET /svc/api/v1/account', family: 'banking', status: 200 }]);
  });

  it('gives a body that is not JSON as its text, for the read to judge', async () => {
    expect((await exchange(callTo({ kind: 'text' }))).body).toBe('plain words');
  });

  it('turns a deadline struck on the wire into DEADLINE_EXCEEDED in flight (the bank was slow)', async () => {
    records.length = 0;
    const call = callTo({ kind: 'slow' });
    call.signal = AbortSignal.timeout(50);
    const error = await exchange(call).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error).toMatchObject({ reason: 'DEADLINE_EXCEEDED', inFlight: true });
    expect(records.map((r) => r.status)).toEqual(['deadline']);
  });

  it('cuts a read on the wire when its client leaves, as the abandonment, observing nothing of the bank', async () => {
    records.length = 0;
    const call = callTo({ kind: 'slow' });
    const client = new AbortController();
    call.signal = client.signal;
    setTimeout(() => client.abort(new OperationAbandonedError('req-1')), 50);
    const started = performance.now();
    const error = await exchange(call).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperationAbandonedError);
    expect(performance.now() - started).toBeLessThan(400);
    expect(records).toEqual([]);
  });

  it('lets a write on the wire finish when its client leaves: only the deadline cuts it', async () => {
    const call = prepareCall(payoutEndpoints.create, { query: { kind: 'slow' }, body: {}, idempotencyKey: 'key-1' }, TARGET, 1);
    const client = new AbortController();
    call.signal = client.signal;
    call.deadlineSignal = new AbortController().signal;
    setTimeout(() => client.abort(new OperationAbandonedError('req-1')), 50);
    expect((await exchange(call)).statusCode).toBe(200);
  });

  it('sends no write whose client left before it went: nothing reaches the bank, nothing is noted', async () => {
    const client = new AbortController();
    const operation = startOperation({ deadline: Date.now() + 60_000, client: client.signal });
    const write = prepareCall(payoutEndpoints.create, { body: {}, idempotencyKey: 'key-gone', operation }, TARGET, 1);
    write.signal = operation.signal;
    write.deadlineSignal = operation.deadlineSignal;
    client.abort();
    const before = seen.length;
    expect(await exchange(write).catch((e: unknown) => e)).toBeInstanceOf(OperationAbandonedError);
    expect(seen.length).toBe(before);
    expect(operation.writes).toEqual([]);
    operation.end();
  });

  it("notes each write it sends on the write's operation, with the bank's status once it answers, and no read", async () => {
    const operation = startOperation({ deadline: Date.now() + 60_000, client: undefined });
    const write = prepareCall(payoutEndpoints.create, { query: { kind: 'slow' }, body: {}, idempotencyKey: 'key-2', operation }, TARGET, 1);
    const sending = exchange(write);
    expect(operation.writes).toEqual([{ requestId: 'key-2', status: undefined }]);
    await sending;
    await exchange(prepareCall(accountEndpoints.list, { operation }, TARGET, 1));
    expect(operation.writes).toEqual([{ requestId: 'key-2', status: 200 }]);
    operation.end();
  });

  it('turns a refused connection into a network error naming the code, not the address', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const nowhere = new Pool(`http://127.0.0.1:${port}`);
    records.length = 0;
    const error = await send(nowhere, IDENTITY, callState, silentLogger)(callTo({})).catch((e: unknown) => e);
    await nowhere.close();
    expect(error).toBeInstanceOf(UpstreamNetworkError);
    expect((error as Error).message).toContain('ECONNREFUSED');
    expect((error as Error).message).not.toContain(String(port));
    expect(records.map((r) => r.status)).toEqual(['network']);
  });
});
