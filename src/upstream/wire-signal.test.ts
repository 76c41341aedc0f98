import { createServer } from 'node:http';
import { once } from 'node:events';
import { Pool } from 'undici';
import { describe, expect, it, vi } from 'vitest';
import { WireSignal } from './wire-signal.ts';

describe('WireSignal', () => {
  it("calls the reads' listeners still on the wire once, with the operation's reason, from one listener of its own", () => {
    const operation = new AbortController();
    const listening = vi.spyOn(operation.signal, 'addEventListener');
    const wire = new WireSignal(operation.signal);
    const [first, done, third] = [vi.fn(), vi.fn(), vi.fn()];
    for (const listener of [first, done, third]) wire.addEventListener('abort', listener);
    wire.removeEventListener('abort', done);
    expect(listening).toHaveBeenCalledTimes(1);
    const reason = new Error('client left');
    operation.abort(reason);
    expect(wire.reason).toBe(reason);
    expect([first.mock.calls.length, done.mock.calls.length, third.mock.calls.length]).toEqual([1, 0, 1]);
  });

  it('still calls a listener added after the abort, on the next microtask', async () => {
    const operation = new AbortController();
    operation.abort(new Error('gone'));
    const wire = new WireSignal(operation.signal);
    const late = vi.fn();
    wire.addEventListener('abort', late);
    await Promise.resolve();
    expect(late).toHaveBeenCalledTimes(1);
  });

  it('cuts an undici read on the wire, which fails with the reason', async () => {
    const server = createServer(() => {}); // never answers
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    const pool = new Pool(`http://127.0.0.1:${port}`);
    try {
      const operation = new AbortController();
      const wire = new WireSignal(operation.signal);
      const reads = [1, 2].map(() => pool.request({ method: 'GET', path: '/', signal: wire as unknown as AbortSignal }));
      setTimeout(() => operation.abort(new Error('deadline')), 50);
      for (const read of reads) await expect(read).rejects.toThrow('deadline');
    } finally {
      await pool.destroy();
      server.closeAllConnections();
      server.close();
    }
  });
});
