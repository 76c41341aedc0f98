import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { readEvent } from '../../src/events/models.ts';
import { MAX_PENDING } from '../../src/events/fanout.ts';
import { bankEvent } from '../helpers/deliver.ts';
import { useKit } from '../helpers/kit.ts';

/**
 * A subscriber that stops reading costs the gateway a bounded amount: its socket takes what the
 * kernel and ws hold (transport/ws-sends.ts: 64 KB), then its events wait in its own queue, which ends
 * it MAX_PENDING events behind with an error naming where to resume (events/fanout.ts). On both
 * subprotocols; the events are big enough that what the kernel buffers is a small part of them.
 */

const EVENTS = MAX_PENDING * 4;
const PADDING = 'x'.repeat(1_000);

type Frame = { type: string; payload?: any };
type Protocol = 'graphql-transport-ws' | 'graphql-ws';

const messages: Record<Protocol, { subscribe: (query: string) => object }> = {
  'graphql-transport-ws': { subscribe: (query) => ({ id: '1', type: 'subscribe', payload: { query } }) },
  'graphql-ws': { subscribe: (query) => ({ id: '1', type: 'start', payload: { query } }) },
};

describe('a subscriber that stops reading', () => {
  const kit = useKit({ listen: true });

  for (const protocol of Object.keys(messages) as Protocol[]) {
    it(`is ended ${MAX_PENDING} events behind, not buffered without bound (${protocol})`, async () => {
      const before = kit.gateway.events.activeSubscriptions();
      const socket = new WebSocket(`${kit.baseUrl!.replace(/^http/, 'ws')}/graphql`, protocol);
      const frames: Frame[] = [];
      // A Buffer: ws's default binaryType.
      socket.on('message', (data) => frames.push(JSON.parse((data as Buffer).toString())));
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      socket.send(JSON.stringify({ type: 'connection_init', payload: {} }));
      await expect.poll(() => frames.some((f) => f.type === 'connection_ack')).toBe(true);
      socket.send(JSON.stringify(messages[protocol].subscribe('subscription { bankEvents { cursor data } }')));
      await expect.poll(() => kit.gateway.events.activeSubscriptions()).toBe(before + 1);

      // The client stops reading its socket.
      (socket as unknown as { _socket: { pause(): void } })._socket.pause();
      const stamp = `${Date.now()}_${protocol}`;
      for (let i = 0; i < EVENTS; i++) {
        const reading = readEvent(bankEvent(`acct_stall_${stamp}_${i}`, 'account.suspended', { status: 'SUSPENDED', note: PADDING }));
        if (!reading.ok) throw new Error(reading.reason);
        expect((await kit.gateway.events.accept(reading.event, `stall-${stamp}-${i}`)).status).toBe('accepted');
        // The fan-out runs on later turns; let it keep up with what is accepted.
        if (i % 500 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      await expect.poll(() => kit.gateway.events.activeSubscriptions(), { timeout: 20_000 }).toBe(before);

      (socket as unknown as { _socket: { resume(): void } })._socket.resume();
      const ending = (f: Frame) => f.payload?.errors !== undefined;
      await expect.poll(() => frames.some(ending), { timeout: 20_000 }).toBe(true);
      const received = frames.filter((f) => (f.type === 'next' || f.type === 'data') && !ending(f));
      // What the socket held when the client stopped (kernel and ws buffers), then the end: far fewer than were sent.
      expect(received.length).toBeGreaterThan(0);
      expect(received.length).toBeLessThan(EVENTS - MAX_PENDING);
      const [error] = frames.find(ending)!.payload.errors;
      expect(error.extensions.code).toBe('SUBSCRIBER_FELL_BEHIND');
      // Nothing lost: the client resumes right after the last event it got.
      expect(error.extensions.resumeAfter).toBe(received.at(-1)!.payload.data.bankEvents.cursor);
      socket.close();
    }, 120_000);
  }
});
