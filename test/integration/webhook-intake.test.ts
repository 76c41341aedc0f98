import { describe, expect, it } from 'vitest';
import { bankEvent, deliverEvent, type DeliveryOverrides } from '../helpers/deliver.ts';
import { useKit } from '../helpers/kit.ts';
import { subscribeWs } from '../helpers/subscribe.ts';

const kit = useKit({ listen: true, webhooks: { maxBytes: 4096 } });

const event = bankEvent;
const deliver = (body: unknown, overrides?: DeliveryOverrides) => deliverEvent(kit.baseUrl, body, overrides);

const ALL_EVENTS = '{ bankEvents { upstreamId name } }';

describe('webhook intake', () => {
  it('publishes a well-signed event once to subscribers', async () => {
    const subscriber = await subscribeWs(kit, `subscription ${ALL_EVENTS}`);
    expect(await deliver(event('acct_1_account.active'))).toEqual({
      status: 202,
      body: { status: 'accepted', id: 'acct_1_account.active' },
    });
    const [first] = await subscriber.next(1);
    expect(first).toEqual({ data: { bankEvents: { upstreamId: 'acct_1_account.active', name: 'account.active' } } });
    await subscriber.close();
  });

  it('delivers an event sent three times, out of order with another, exactly once', async () => {
    const subscriber = await subscribeWs(kit, `subscription ${ALL_EVENTS}`);
    const a = event('dep_9_PENDING', 'ga.new', { amount: 10, ccy: 'USD', process_status: 'PENDING', transaction_type: 'DEPOSIT' });
    const b = event('dep_9_NEW', 'ga.new', { amount: 10, ccy: 'USD', process_status: 'NEW', transaction_type: 'DEPOSIT' });
    const statuses = [];
    for (const body of [a, b, a, b, a]) statuses.push((await deliver(body)).body.status);
    expect(statuses).toEqual(['accepted', 'accepted', 'duplicate', 'duplicate', 'duplicate']);
    await subscriber.next(2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(subscriber.received.map((r) => r.data.bankEvents.upstreamId)).toEqual(['dep_9_PENDING', 'dep_9_NEW']);
    await subscriber.close();
  });

  it('refuses wrong keys, bad or stale signatures, malformed and oversized bodies, publishing nothing', async () => {
    const subscriber = await subscribeWs(kit, `subscription ${ALL_EVENTS}`);
    const good = event('refused_1_account.active');
    expect((await deliver(good, { apiKey: 'not-the-key' })).status).toBe(401);
    expect((await deliver(good, { signature: 'sha256=00' })).status).toBe(401);
    const stale = await deliver(good, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(stale).toMatchObject({ status: 401, body: { error: 'x-timestamp is more than 300 seconds from now' } });
    expect(await deliver(null, { raw: '{"id": ' })).toEqual({ status: 400, body: { error: 'body is not valid JSON' } });
    const noName = await deliver({ id: 'x', created_at: '2026-11-21T10:00:00+0000' });
    expect(noName.status).toBe(400);
    expect(noName.body.error).toContain('name');
    const badPayload = await deliver(event('x_ga.new', 'ga.new', { amount: 'lots' }));
    expect(badPayload.status).toBe(400);
    expect(badPayload.body.error).toContain('data.amount');
    const huge = await deliver(event('big_account.active', 'account.active', { filler: 'x'.repeat(5000) }));
    expect(huge.status).toBe(413);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(subscriber.received).toEqual([]);
    // None of the refused events was remembered as seen: the good one still goes through.
    expect((await deliver(good)).status).toBe(202);
    await subscriber.next(1);
    await subscriber.close();
  });

  it('accepts an event name it does not know, as a generic event', async () => {
    const subscriber = await subscribeWs(kit, 'subscription { bankEvents(names: ["future.event"]) { upstreamId name data } }');
    expect((await deliver(event('f_1_future.event', 'future.event', { anything: [1, 2] }))).status).toBe(202);
    const [result] = await subscriber.next(1);
    expect(result.data.bankEvents).toEqual({ upstreamId: 'f_1_future.event', name: 'future.event', data: { anything: [1, 2] } });
    await subscriber.close();
  });
});
