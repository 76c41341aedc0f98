import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange, type ExchangeCut } from '../../src/upstream/exchange.ts';
import { WireSignal } from '../../src/upstream/wire-signal.ts';
import { until } from '../helpers/wait.ts';

/** A cut that counts its listeners, as WireSignal and AbortSignal hold them. */
class CountedCut implements ExchangeCut {
  reason: unknown = undefined;
  aborted = false;
  readonly listeners = new Set<() => void>();
  addEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.add(listener);
  }
  removeEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.delete(listener);
  }
  abort(reason: Error): void {
    this.aborted = true;
    this.reason = reason;
    for (const listener of [...this.listeners]) listener();
  }
}

const ARRIVED: string[] = [];
/** Ends the body of /headers-then-held-body, which the bank holds until the test says. */
let releaseHeldBody: (() => void) | undefined;
const TEXT = 'Zürich — 東京 ✓ '.repeat(50);

function bank(): Server {
  return createServer((request, response) => {
    ARRIVED.push(request.url ?? '');
    const url = request.url ?? '';
    if (url === '/chunks') {
      // Every byte its own chunk: multi-byte characters arrive split.
      response.writeHead(200, { 'content-type': 'text/plain', 'x-bank': 'yes' });
      const bytes = Buffer.from(TEXT, 'utf8');
      let index = 0;
      const next = () => {
        if (index >= bytes.length) return void response.end();
        response.write(bytes.subarray(index, index + 7));
        index += 7;
        setImmediate(next);
      };
      return next();
    }
    if (url === '/bom') return void response.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]));
    if (url === '/empty') return void response.writeHead(204).end();
    if (url === '/headers-then-held-body') {
      response.writeHead(201, { 'content-type': 'application/json' });
      response.write('{"late":');
      releaseHeldBody = () => response.end('true}');
      return;
    }
    if (url === '/slow') return void setTimeout(() => response.end('{}'), 2_000);
    if (url === '/echo') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => response.end(JSON.stringify({ method: request.method, body, header: request.headers['x-test'] })));
      return;
    }
    response.end('{}');
  });
}

describe('exchange', () => {
  const server = bank();
  let pool: Pool;
  let slowPool: Pool;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    pool = new Pool(origin);
    slowPool = new Pool(origin, { headersTimeout: 200 });
  });
  afterAll(async () => {
    await pool.close();
    await slowPool.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers the status, the headers and the body as text, decoded whole however the bytes were split', async () => {
    const answer = await exchange(pool, { method: 'GET', path: '/chunks' }, undefined);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['x-bank']).toBe('yes');
    expect(answer.text).toBe(TEXT);
  });

  it('drops a leading byte order mark, as undici reads text, and answers an empty body as empty text', async () => {
    expect((await exchange(pool, { method: 'GET', path: '/bom' }, undefined)).text).toBe('{"a":1}');
    const empty = await exchange(pool, { method: 'GET', path: '/empty' }, undefined);
    expect([empty.statusCode, empty.text]).toEqual([204, '']);
  });

  it('sends the method, headers and body it is given', async () => {
    const answer = await exchange(
      pool,
      { method: 'POST', path: '/echo', headers: { 'x-test': 'yes', 'content-type': 'application/json' }, body: '{"x":1}' },
      undefined,
    );
    expect(JSON.parse(answer.text)).toEqual({ method: 'POST', body: '{"x":1}', header: 'yes' });
  });

  it('tells the status as it arrives, before the body is in', async () => {
    const heard: string[] = [];
    let settled = false;
    const answer = exchange(pool, { method: 'POST', path: '/headers-then-held-body' }, undefined, (status) =>
      heard.push(`status ${status}`),
    );
    void answer.finally(() => (settled = true));
    await until('the status to be heard', () => heard.length > 0);
    expect(heard).toEqual(['status 201']);
    expect(settled).toBe(false);
    releaseHeldBody!();
    expect((await answer).text).toBe('{"late":true}');
  });

  it('is never sent when its cut has already aborted, and fails with the cut reason', async () => {
    const before = ARRIVED.length;
    const cut = new CountedCut();
    cut.abort(new Error('client left'));
    await expect(exchange(pool, { method: 'GET', path: '/never' }, cut)).rejects.toThrow('client left');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ARRIVED.slice(before)).toEqual([]);
    expect(cut.listeners.size).toBe(0);
  });

  it('is cut on the wire when its cut aborts, at once, with the reason, and stops listening', async () => {
    const cut = new CountedCut();
    const started = performance.now();
    const answer = exchange(pool, { method: 'GET', path: '/slow' }, cut);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(cut.listeners.size).toBe(1);
    cut.abort(new Error('deadline passed'));
    await expect(answer).rejects.toThrow('deadline passed');
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(cut.listeners.size).toBe(0);
  });

  it("is never sent when its cut aborts while it waits in the pool's queue (every connection busy)", async () => {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const single = new Pool(origin, { connections: 1 });
    const before = ARRIVED.length;
    const operation = new AbortController();
    const cuts: [ExchangeCut, () => void][] = [
      [new CountedCut(), () => undefined],
      [new WireSignal(operation.signal), () => operation.abort(new Error('client left'))],
    ];
    for (const [cut, abort] of cuts) {
      const busy = exchange(single, { method: 'GET', path: '/slow' }, undefined);
      const queued = exchange(single, { method: 'GET', path: '/queued' }, cut);
      await new Promise((resolve) => setTimeout(resolve, 30));
      if (cut instanceof CountedCut) cut.abort(new Error('client left'));
      else abort();
      await expect(queued).rejects.toThrow('client left');
      await busy;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ARRIVED.slice(before)).toEqual(['/slow', '/slow']);
    await single.close();
  });

  it("stops listening to its cut once answered, so an operation's many reads leave nothing behind", async () => {
    const cut = new CountedCut();
    await Promise.all([1, 2, 3].map(() => exchange(pool, { method: 'GET', path: '/ok' }, cut)));
    expect(cut.listeners.size).toBe(0);
  });

  it("is cut by an operation's WireSignal when the operation's signal aborts", async () => {
    const operation = new AbortController();
    const answer = exchange(pool, { method: 'GET', path: '/slow' }, new WireSignal(operation.signal));
    await new Promise((resolve) => setTimeout(resolve, 50));
    operation.abort(new Error('operation ended'));
    await expect(answer).rejects.toThrow('operation ended');
  });

  it("fails with undici's error and code: a timeout, a connection refused", async () => {
    await expect(exchange(slowPool, { method: 'GET', path: '/slow' }, undefined)).rejects.toMatchObject({
      code: 'UND_ERR_HEADERS_TIMEOUT',
    });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const nowhere = new Pool(`http://127.0.0.1:${port}`);
    await expect(exchange(nowhere, { method: 'GET', path: '/' }, undefined)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await nowhere.close();
  });
});
