import { readFileSync } from 'node:fs';
import { createServer, connect, type Socket } from 'node:net';
import { createClient } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import { bankEvent, deliverEvent } from './deliver.ts';
import { useKit } from './kit.ts';

/**
 * The README's reconnect example, run as written: a client whose connection drops (cut here by a
 * TCP proxy between it and the gateway) picks up where it was, missing nothing and seeing nothing
 * twice. Only the URL and the app's own functions (render, refetchScreen) are supplied.
 */
const kit = useKit({ listen: true });

function readmeExample(): string {
  const readme = readFileSync(new URL('../docs/frontend.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('**Catching up after a reconnect.**'));
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error('the README has no reconnect example');
  // The app's own functions are the test's: their lines in the example are dropped.
  return code.replace(/^import .*$/m, '').replace(/^const (render|refetchScreen) = .*$/gm, '');
}

/** A TCP proxy to the gateway whose open connections can be cut, as a tunnel or a lift would. */
async function cuttableProxy(port: number) {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `ws://127.0.0.1:${(server.address() as { port: number }).port}/graphql`,
    cut: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe("the README's reconnect example", () => {
  it('resumes after a dropped connection with the events missed meanwhile, in order, once each', async () => {
    const proxy = await cuttableProxy(Number(new URL(kit.baseUrl!).port));
    const rendered: { status: string; event: { cursor: string } }[] = [];
    const code = `${readmeExample().replace('ws://localhost:4000/graphql', proxy.url)}\nreturn () => { following = false; client.dispose(); };`;
    const run = new Function('createClient', 'render', 'refetchScreen', code) as (...args: unknown[]) => () => void;
    const stop = run(createClient, (change: (typeof rendered)[number]) => rendered.push(change), async () => {});

    /** The demo card blocked (INACTIVE) or activated (ACTIVE), at second `second` of a minute. */
    const changed = (second: number, status: 'INACTIVE' | 'ACTIVE') => {
      const name = status === 'ACTIVE' ? 'issuing.card.active' : 'issuing.card.blocked';
      return deliverEvent(kit.baseUrl, {
        ...bankEvent(`crd_demo_ava_v_${name}`, name, { card_id: 'crd_demo_ava_v', card_status: status }),
        created_at: `2026-11-24T12:00:0${second}+0000`,
      });
    };
    try {
      await expect.poll(() => kit.gateway.events.activeSubscriptions()).toBe(1);
      await changed(1, 'INACTIVE');
      await expect.poll(() => rendered.length).toBe(1);

      proxy.cut();
      await expect.poll(() => kit.gateway.events.activeSubscriptions()).toBe(0);
      await changed(2, 'ACTIVE');
      await changed(3, 'INACTIVE');

      await expect.poll(() => rendered.length).toBe(3);
      await changed(4, 'ACTIVE');
      await expect.poll(() => rendered.length).toBe(4);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(rendered.map((change) => change.status)).toEqual(['INACTIVE', 'ACTIVE', 'INACTIVE', 'ACTIVE']);
      expect(new Set(rendered.map((change) => change.event.cursor)).size).toBe(4);
    } finally {
      stop();
      await proxy.close();
    }
  });
});
