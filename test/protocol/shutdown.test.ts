import { connect } from 'node:net';
import { createClient } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startKit, type Kit } from '../helpers/kit.ts';
import { postGraphql } from '../helpers/http.ts';
import { until } from '../helpers/wait.ts';

/**
 * Graceful shutdown: readiness turns 503 at once, subscriptions are completed and sockets closed
 * with 1001, in-flight operations finish within the grace period, requests arriving on kept-alive
 * connections are refused with a retryable answer, and an operation that outlives the grace period
 * is cut so the process can exit.
 */

const QUERY = { query: '{ balances { currency } }' };
/** The same request as a raw socket writes it. */
const BALANCES = JSON.stringify(QUERY);

async function listening(latencyMs: number): Promise<Kit> {
  return startKit({ listen: true, sandbox: { latencyMs } });
}

/** A graphql-ws subscriber that reports how its subscription and its socket ended. */
function wsSubscriber(kit: Kit) {
  const client = createClient({
    url: `${kit.baseUrl!.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => {},
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    client.on('closed', (event) => resolve({ code: (event as CloseEvent).code, reason: (event as CloseEvent).reason })),
  );
  const completed = new Promise<'complete' | 'error'>((resolve) =>
    client.subscribe(
      { query: 'subscription { bankEvents { id } }' },
      { next: () => {}, error: () => resolve('error'), complete: () => resolve('complete') },
    ),
  );
  return { closed, completed };
}

/** An SSE subscriber that reads its stream to the end. */
async function sseSubscriber(kit: Kit): Promise<{ stream: Promise<string> }> {
  const response = await fetch(`${kit.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query: 'subscription { bankEvents { id } }' }),
  });
  return { stream: response.text() };
}

describe('graceful shutdown', () => {
  it('completes subscriptions, closes sockets with 1001 and lets in-flight operations finish', async () => {
    const kit = await listening(400);
    const ws = wsSubscriber(kit);
    const sse = await sseSubscriber(kit);
    await until('both subscriptions to register', () => kit.gateway.events.activeSubscriptions() === 2);
    const inflight = postGraphql(`${kit.baseUrl}/graphql`, QUERY);
    await until('the SSE stream and the query to be in flight', () => kit.gateway.server.inFlight >= 2);

    const stopped = kit.gateway.server.stop(5_000);
    const ready = await fetch(`${kit.baseUrl}/readyz`).catch(() => undefined);
    // Either refused outright (the listener is closed) or told it is stopping: never "ready".
    if (ready) expect(ready.status).toBe(503);

    expect(await ws.completed).toBe('complete');
    expect(await ws.closed).toEqual({ code: 1001, reason: 'server shutting down' });
    const stream = await sse.stream;
    expect(stream).toContain('event: complete');
    const response = await inflight;
    expect(response.status).toBe(200);
    expect(response.body.data.balances.length).toBeGreaterThan(0);
    await stopped;
    expect(kit.gateway.events.activeSubscriptions()).toBe(0);
    await expect(fetch(`${kit.baseUrl}/healthz`)).rejects.toThrow();
    await kit.sandbox.close();
  });

  it('refuses a request still arriving when the stop begins, with a retryable 503', async () => {
    const kit = await listening(400);
    const slow = postGraphql(`${kit.baseUrl}/graphql`, QUERY);
    await until('the query to be in flight', () => kit.gateway.server.inFlight === 1);
    // A connection whose request is half sent is busy, not idle: the stop does not close it.
    const socket = connect(Number(new URL(kit.baseUrl!).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`POST /graphql HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\nContent-Length: ${BALANCES.length}\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stopped = kit.gateway.server.stop(5_000);
    const answer = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
    });
    socket.write(`\r\n${BALANCES}`);
    const raw = await answer;
    expect(raw).toMatch(/^HTTP\/1\.1 503/);
    expect(raw.toLowerCase()).toContain('retry-after: 1');
    expect(raw).toContain('"code":"SHUTTING_DOWN"');
    expect((await slow).status).toBe(200);
    expect(kit.calls('/svc/api/v1/account/balance')).toHaveLength(1);
    await stopped;
    await kit.sandbox.close();
  });

  it('cuts an operation that outlives the grace period, so the stop ends on time', async () => {
    const kit = await listening(3_000);
    const slow = postGraphql(`${kit.baseUrl}/graphql`, QUERY).then(
      (response) => `answered ${response.status}`,
      () => 'cut',
    );
    await until('the query to be in flight', () => kit.gateway.server.inFlight === 1);
    const started = performance.now();
    await kit.gateway.server.stop(200);
    const took = performance.now() - started;
    expect(await slow).toBe('cut');
    // The upstream call takes 3 s; the stop waited about the grace period, not for the bank.
    expect(took).toBeLessThan(2_000);
    await kit.sandbox.close();
  });
});
