import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/settings/index.ts';
import { bankEvent, deliverEvent } from '../helpers/deliver.ts';
import { useKit, type Kit } from '../helpers/kit.ts';
import { subscribeWs } from '../helpers/subscribe.ts';

/**
 * Clients that send a request slowly, or never finish it (slowloris): each holds a connection, so a
 * few thousand would take every file descriptor. The gateway closes a connection whose request has
 * not fully arrived within CLIENT_REQUEST_TIMEOUT_MS, headers and body alike, answering 408.
 */

const TIMEOUT_MS = 1_000;

/** A raw connection to the gateway that writes `first`, then one byte every `everyMs`, and says when the gateway closed it and what it answered. */
function slowRequest(kit: Kit, first: string, everyMs: number): Promise<{ afterMs: number; answer: string }> {
  const { port } = new URL(kit.baseUrl!);
  const started = performance.now();
  return new Promise((resolve) => {
    const socket: Socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.write(first);
    const drip = setInterval(() => socket.writable && socket.write('x'), everyMs);
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(drip);
      resolve({ afterMs: performance.now() - started, answer });
    });
  });
}

describe('slow clients', () => {
  const kit = useKit({ listen: true, limits: { clientRequestTimeoutMs: TIMEOUT_MS } });

  it('closes a connection whose headers never end, with 408', async () => {
    const { afterMs, answer } = await slowRequest(kit, 'POST /graphql HTTP/1.1\r\nHost: gateway\r\nX-Slow: ', 200);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(afterMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(afterMs).toBeLessThan(TIMEOUT_MS + 5_000);
    expect(kit.calls()).toEqual([]);
  });

  it('closes a connection whose body trickles in past the timeout, with 408', async () => {
    const head = 'POST /graphql HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":"';
    const { afterMs, answer } = await slowRequest(kit, head, 200);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(afterMs).toBeLessThan(TIMEOUT_MS + 5_000);
    expect(kit.calls()).toEqual([]);
  });

  it('leaves alone a request that arrived in time, however long its answer or stream takes', async () => {
    const response = await fetch(`${kit.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { bankEvents { id } }' }),
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const ended = (async () => {
      for (;;) if ((await reader.read()).done) return 'ended';
    })().catch(() => 'cut');
    const outlived = await Promise.race([ended, new Promise((resolve) => setTimeout(() => resolve('open'), TIMEOUT_MS * 2.5))]);
    expect(outlived).toBe('open');
    await reader.cancel();
  });

  it('leaves alone a WebSocket that lives past the timeout: an event after it still arrives', async () => {
    const feed = await subscribeWs(kit, 'subscription { bankEvents { name } }');
    await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS * 2.5));
    await deliverEvent(kit.baseUrl, bankEvent('evt_after_request_timeout'));
    const [event] = await feed.next(1);
    expect(event).toMatchObject({ data: { bankEvents: { name: 'account.active' } } });
    await feed.close();
  });

  it('ships with 30 s', () => {
    expect(DEFAULT_LIMITS.clientRequestTimeoutMs).toBe(30_000);
  });
});
