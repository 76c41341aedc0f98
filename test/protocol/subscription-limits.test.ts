import { createClient } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEFAULT_LIMITS } from '../../src/settings/index.ts';
import { useKit, type Kit } from '../helpers/kit.ts';
import { metric } from '../helpers/observe.ts';
import { subscribeSse } from '../helpers/subscribe.ts';

/**
 * At most SUBSCRIPTION_MAX_PER_CONNECTION subscriptions on one WebSocket and SUBSCRIPTION_MAX_PER_CALLER
 * per caller on an instance: the next is refused as it starts (SUBSCRIPTION_LIMIT), and one that ends
 * frees its place. With graphql-ws's own client at its defaults, and over server-sent events.
 */

const FEED = 'subscription { bankEvents { id } }';
const LIMITS = { subscriptionMaxPerConnection: 2, subscriptionMaxPerCaller: 3 };

const active = (kit: Kit) => kit.gateway.events.activeSubscriptions();
const refusals = (kit: Kit, reason: string) => metric(kit, `gateway_client_limit_refusals_total{reason="${reason}"}`);

/**
 * One graphql-ws client (one socket) and its subscriptions. A refused one gets its errors as its one
 * result, then completes (graphql-ws sends a result, not an `error` message, for errors the operation
 * answered with).
 */
function socketClient(kit: Kit) {
  const client = createClient({ url: `${kit.baseUrl!.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
  const subscribe = () => {
    let failed: unknown;
    const dispose = client.subscribe(
      { query: FEED },
      { next: (result) => void (result.errors && (failed = result.errors)), error: (error) => (failed = error), complete: () => {} },
    );
    return { dispose, failed: () => failed };
  };
  return { subscribe, close: () => client.dispose() };
}

describe('subscription limits', () => {
  const kit = useKit({ listen: true, limits: LIMITS });

  it('refuses a third subscription on one WebSocket with SUBSCRIPTION_LIMIT, and takes one again once another ended', async () => {
    const socket = socketClient(kit);
    try {
      const first = socket.subscribe();
      socket.subscribe();
      await expect.poll(() => active(kit)).toBe(2);
      const third = socket.subscribe();
      await expect.poll(() => third.failed()).toBeDefined();
      expect(third.failed()).toEqual([
        {
          message: 'This connection already holds 2 open subscriptions (SUBSCRIPTION_MAX_PER_CONNECTION): end one before starting another',
          extensions: { code: 'SUBSCRIPTION_LIMIT', limit: 2, reason: 'per_connection' },
        },
      ]);
      expect(active(kit)).toBe(2);
      expect(await refusals(kit, 'subscriptions_per_connection')).toBe(1);

      first.dispose();
      await expect.poll(() => active(kit)).toBe(1);
      const again = socket.subscribe();
      await expect.poll(() => active(kit)).toBe(2);
      expect(again.failed()).toBeUndefined();
    } finally {
      await socket.close();
    }
    await expect.poll(() => active(kit)).toBe(0);
  });

  it('refuses a caller its fourth subscription over server-sent events with a 429, and takes one again once another ended', async () => {
    const open = [await subscribeSse(kit, FEED), await subscribeSse(kit, FEED), await subscribeSse(kit, FEED)];
    const over = await fetch(`${kit.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: FEED }),
    });
    expect(over.status).toBe(429);
    const events = (await over.text()).split('\n\n').filter((message) => message.startsWith('event: next'));
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.split('\ndata: ')[1]!).errors).toEqual([
      {
        message: 'This caller already holds 3 open subscriptions (SUBSCRIPTION_MAX_PER_CALLER): end one before starting another',
        extensions: { code: 'SUBSCRIPTION_LIMIT', limit: 3, reason: 'per_caller' },
      },
    ]);
    expect(await refusals(kit, 'subscriptions_per_caller')).toBe(1);

    await open.shift()!.close();
    open.push(await subscribeSse(kit, FEED));
    expect(active(kit)).toBe(3);
    for (const subscription of open) await subscription.close();
    expect(active(kit)).toBe(0);
  });

  it('ships with 100 per connection and 10,000 per caller', () => {
    expect([DEFAULT_LIMITS.subscriptionMaxPerConnection, DEFAULT_LIMITS.subscriptionMaxPerCaller]).toEqual([100, 10_000]);
  });
});
