import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS } from '../src/index.ts';
import { ApiError, ok } from '../src/http.ts';
import type { Route } from '../src/routes.ts';
import { runtimePartsOf } from '../src/domain.ts';
import { createRuntime } from '../src/runtime.ts';
import { createRequestListener } from '../src/server.ts';

// The pipeline on its own (the core, no domain), with routes that misbehave on purpose.
const warnings: unknown[] = [];
const runtime = createRuntime({
  domains: runtimePartsOf([]),
  credentials: DEMO_CREDENTIALS,
  tokenTtlSeconds: 1800,
  latencyMs: 0,
  seed: false,
  logger: { info: () => {}, warn: (obj) => warnings.push(obj) },
});

/** A record the bank changes while a read of it waits out its latency; its route says when a call has reached it. */
const live = { version: 1 };
let onLiveRead: (() => void) | undefined;

const routes: Route[] = [
  {
    method: 'GET',
    path: '/test/live',
    headers: 'none',
    handler: () => {
      onLiveRead?.();
      return ok(live);
    },
  },
  {
    method: 'POST',
    path: '/test/throw',
    headers: 'login',
    handler: () => {
      throw new TypeError('boom');
    },
  },
  {
    method: 'GET',
    path: '/test/items/:itemId',
    headers: 'none',
    handler: ({ params }) => ok([{ id: params.itemId }]),
  },
  {
    method: 'GET',
    path: '/test/teapot',
    headers: 'none',
    handler: () => {
      throw new ApiError(418, 'I am a teapot', { headers: { 'x-teapot': 'yes' } });
    },
  },
];

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer(createRequestListener(runtime, routes, []));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  runtime.shutdown();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('request pipeline', () => {
  it('turns a handler exception into a logged 500 envelope and keeps serving', async () => {
    const response = await fetch(`${base}/test/throw`, {
      method: 'POST',
      headers: { 'x-api-key': DEMO_CREDENTIALS.apiKey, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ code: 500, status: 'Error', message: 'Internal error', data: null });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ method: 'POST', path: '/test/throw', err: expect.any(TypeError) });

    const next = await fetch(`${base}/test/items/a%20b`);
    expect(await next.json()).toMatchObject({ data: [{ id: 'a b' }] });
  });

  it('renders ApiError status, message and headers', async () => {
    const response = await fetch(`${base}/test/teapot`);
    expect(response.status).toBe(418);
    expect(response.headers.get('x-teapot')).toBe('yes');
    expect(await response.json()).toEqual({ code: 418, status: 'Error', message: 'I am a teapot', data: null });
  });

  it('checks headers before parsing the body', async () => {
    const response = await fetch(`${base}/test/throw`, { method: 'POST', body: '{not json' });
    expect(await response.json()).toMatchObject({ message: 'x-api-key is a required header and is missing' });
  });

  it('logs every API call', () => {
    expect(runtime.requestLog.list().map((entry) => [entry.path, entry.status])).toEqual([
      ['/test/throw', 500],
      ['/test/items/a%20b', 200],
      ['/test/teapot', 418],
      ['/test/throw', 400],
    ]);
  });
});

describe('latency', () => {
  it('answers with the records as they were when the call arrived, not as they are when the latency has passed', async () => {
    runtime.latency.override(80);
    try {
      const read = new Promise<void>((resolve) => (onLiveRead = resolve));
      const answer = fetch(`${base}/test/live`);
      // The call arrives and is worked on at once; the record changes while its answer waits.
      await read;
      await new Promise((resolve) => setTimeout(resolve, 10));
      live.version = 2;
      const response = await answer;
      expect(await response.json()).toMatchObject({ data: { version: 1 } });
    } finally {
      runtime.latency.override(null);
      onLiveRead = undefined;
      live.version = 1;
    }
  });
});
