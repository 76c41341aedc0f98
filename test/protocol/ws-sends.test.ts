import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { coalesceSends } from '../../src/transport/ws-sends.ts';

/** A server socket with coalesceSends, its client, and a count of the writes its TCP socket made. */
async function pair(
  maxUnsent?: number,
): Promise<{ server: WebSocket; client: WebSocket; received: string[]; writes: () => number; close: () => Promise<void> }> {
  const http = createServer();
  const wss = new WebSocketServer({ server: http });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const connected = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
  const client = new WebSocket(`ws://127.0.0.1:${(http.address() as AddressInfo).port}`);
  const received: string[] = [];
  // A Buffer: ws's default binaryType.
  client.on('message', (data) => received.push((data as Buffer).toString()));
  const server = await connected;
  await new Promise((resolve) => (client.readyState === WebSocket.OPEN ? resolve(null) : client.once('open', resolve)));
  const raw = (server as unknown as { _socket: Record<'_writev' | '_write', (...args: unknown[]) => unknown> })._socket;
  let writes = 0;
  for (const method of ['_writev', '_write'] as const) {
    const original = raw[method].bind(raw);
    raw[method] = (...args: unknown[]) => {
      writes += 1;
      return original(...args);
    };
  }
  coalesceSends(server, maxUnsent);
  return {
    server,
    client,
    received,
    writes: () => writes,
    close: async () => {
      client.terminate();
      wss.close();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

const sent = (socket: WebSocket, data: string, log: string[]) =>
  socket.send(data, (error) => log.push(error ? `${data} failed` : `${data} done`));

describe('coalesced sends on a WebSocket', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  it("sends a turn's first message at once, the rest in one write after it, and reports each done before, in order", async () => {
    const socket = await pair();
    close = socket.close;
    const log: string[] = [];
    for (let i = 0; i < 10; i++) sent(socket.server, `m${i}`, log);
    // The first left at once (a single event's fan-out is not held back); the others wait for the turn's end.
    expect(socket.writes()).toBe(1);
    await Promise.resolve();
    // Reported done while still held (graphql-ws then takes its next event in the same turn).
    expect(log).toEqual(Array.from({ length: 10 }, (_, i) => `m${i} done`));
    expect(socket.writes()).toBe(1);
    await expect.poll(() => socket.received.length).toBe(10);
    expect(socket.received).toEqual(Array.from({ length: 10 }, (_, i) => `m${i}`));
    expect(socket.writes()).toBe(2);
  });

  it('sends one message a turn at once, each turn', async () => {
    const socket = await pair();
    close = socket.close;
    const log: string[] = [];
    for (let turn = 0; turn < 3; turn++) {
      sent(socket.server, `t${turn}`, log);
      expect(socket.writes()).toBe(turn + 1);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(log).toEqual(['t0 done', 't1 done', 't2 done']);
    await expect.poll(() => socket.received).toEqual(['t0', 't1', 't2']);
  });

  it('makes a send wait for its write once the socket holds maxUnsent bytes', async () => {
    const socket = await pair(4);
    close = socket.close;
    const log: string[] = [];
    sent(socket.server, 'first', log);
    sent(socket.server, 'second', log);
    sent(socket.server, 'third', log);
    await Promise.resolve();
    // The first two found the buffer empty (the first had left); the third found the second held.
    expect(log).toEqual(['first done', 'second done']);
    await expect.poll(() => log).toEqual(['first done', 'second done', 'third done']);
    expect(socket.writes()).toBe(2);
    await expect.poll(() => socket.received).toEqual(['first', 'second', 'third']);
  });

  it('leaves a send without a callback, or on a closed socket, to ws', async () => {
    const socket = await pair();
    close = socket.close;
    socket.server.send('plain');
    await expect.poll(() => socket.received).toEqual(['plain']);
    socket.server.terminate();
    const log: string[] = [];
    sent(socket.server, 'late', log);
    await expect.poll(() => log).toEqual(['late failed']);
  });
});
