import { encodeGlobalID } from '@pothos/plugin-relay';
import { describe, expect, it } from 'vitest';
import { CardUpdateDocument } from '../generated/graphql.ts';
import { bankEvent, deliverEvent } from '../helpers/deliver.ts';
import { KIT_WEBHOOKS, useKit, type Kit } from '../helpers/kit.ts';
import { subscribeWs } from '../helpers/subscribe.ts';

/**
 * Document 3, section 2.3: an event id is the resource id and the event name (or status), so it
 * repeats every time a transition repeats. A repeat of the transition is news; a retried delivery of
 * one occurrence (same name, id and created_at) is not.
 */
const CODES = { agentCode: 'AG-ID', subagentCode: 'SUB-ID', companyCode: 'CO-ID' };
const kit = useKit({ listen: true, webhooks: CODES });

/** The sandbox delivers these events to the gateway's /webhooks (a reset before each test drops them). */
async function deliverToGateway(target: Kit, names: string[]): Promise<void> {
  const api = target.gateway.upstream.forRequest({ gatewayLogin: true }).webhooks;
  for (const eventName of names) {
    await api.subscribe({
      eventName,
      ...CODES,
      programCode: target.upstreamConfig.productId,
      type: 'WEBHOOK',
      url: `${target.baseUrl}/webhooks`,
      apiKey: KIT_WEBHOOKS.apiKey,
      createdBy: 'event identity test',
    });
  }
}

const advanceOneSecond = () => kit.control('POST', 'clock/advance', { seconds: 1 });
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('event identity: occurrences, not ids', () => {
  it('delivers a card blocked, unblocked and blocked again one second apart as three updates', async () => {
    await deliverToGateway(kit, ['issuing.card.active', 'issuing.card.blocked']);
    const cardId = encodeGlobalID('Card', 'crd_demo_ava_v');
    const updates = await subscribeWs(
      kit,
      'subscription ($cardId: ID) { cardStatusChanged(cardId: $cardId) { status event { id upstreamId occurredAt cursor } } }',
      { cardId },
    );

    for (const status of ['INACTIVE', 'ACTIVE', 'INACTIVE'] as const) {
      const result = await kit.execute(CardUpdateDocument, { input: { cardId, status, updatedBy: 'Jane Doe' } });
      expect(result.data?.cardUpdate.__typename).toBe('CardUpdateSuccess');
      await advanceOneSecond();
    }

    const received = (await updates.next(3)).map((r) => r.data.cardStatusChanged);
    expect(received.map((u) => [u.status, u.event.upstreamId])).toEqual([
      ['INACTIVE', 'crd_demo_ava_v_issuing.card.blocked'],
      ['ACTIVE', 'crd_demo_ava_v_issuing.card.active'],
      ['INACTIVE', 'crd_demo_ava_v_issuing.card.blocked'],
    ]);
    // The two blocks share the bank's id and differ in created_at: each occurrence has an id of its own
    // (normalized caches keep them apart), and a cursor of its own.
    expect(new Set(received.map((u) => u.event.id)).size).toBe(3);
    expect(received[0].event.occurredAt).not.toBe(received[2].event.occurredAt);
    expect(new Set(received.map((u) => u.event.cursor)).size).toBe(3);
    await settle();
    expect(updates.received).toHaveLength(3);
    await updates.close();

    // Caught up later, the same occurrences have the same ids.
    const again = await subscribeWs(
      kit,
      'subscription ($cardId: ID, $after: String) { cardStatusChanged(cardId: $cardId, after: $after) { event { id } } }',
      { cardId, after: received[0].event.cursor },
    );
    expect((await again.next(2)).map((r) => r.data.cardStatusChanged.event.id)).toEqual([received[1].event.id, received[2].event.id]);
    await again.close();
  });

  it('delivers an account suspended, activated and suspended again as three updates', async () => {
    await deliverToGateway(kit, ['account.suspended', 'account.active']);
    const updates = await subscribeWs(kit, 'subscription { accountStatusChanged { status event { id upstreamId } } }');
    for (const name of ['account.suspended', 'account.active', 'account.suspended']) {
      await kit.control('POST', 'events', { name });
      await advanceOneSecond();
    }
    const received = (await updates.next(3)).map((r) => r.data.accountStatusChanged);
    expect(received.map((u) => u.status)).toEqual(['SUSPENDED', 'ACTIVE', 'SUSPENDED']);
    // One transition twice: the same bank id, two occurrences with ids of their own.
    expect(received[0].event.upstreamId).toBe(received[2].event.upstreamId);
    expect(received[0].event.id).not.toBe(received[2].event.id);
    await updates.close();
  });

  it('drops a redelivered occurrence: none extra', async () => {
    await deliverToGateway(kit, ['issuing.card.active', 'issuing.card.blocked']);
    const cardId = encodeGlobalID('Card', 'crd_demo_ava_v');
    const updates = await subscribeWs(kit, 'subscription { cardStatusChanged { status event { id } } }');
    // A reset puts the sandbox clock back: another minute keeps this block apart from the first test's.
    await kit.control('POST', 'clock/advance', { minutes: 1 });
    await kit.execute(CardUpdateDocument, { input: { cardId, status: 'INACTIVE', updatedBy: 'Jane Doe' } });
    await updates.next(1);

    const redelivered = (await kit.control('POST', 'deliveries/redeliver', { eventId: 'crd_demo_ava_v_issuing.card.blocked' })) as {
      deliveries: number;
    };
    expect(redelivered.deliveries).toBe(1);
    // The sandbox's redelivery reached the gateway, which answered "duplicate".
    await expect
      .poll(() =>
        kit.sandbox
          .deliveries()
          .filter((d) => d.eventId === 'crd_demo_ava_v_issuing.card.blocked')
          .map((d) => d.status),
      )
      .toEqual([202, 200]);
    await settle();
    expect(updates.received).toHaveLength(1);
    await updates.close();
  });

  it('tells occurrences apart by created_at, and without created_at by the whole body', async () => {
    const subscriber = await subscribeWs(kit, 'subscription { bankEvents(names: ["account.suspended"]) { id occurredAt } }');
    const first = bankEvent('acct_x_account.suspended', 'account.suspended', { status: 'SUSPENDED' });
    const later = { ...first, created_at: '2026-11-21T10:00:01+0000' };
    // The same instant written another way is the same occurrence.
    const sameInstant = { ...first, created_at: '2026-11-21T10:00:00Z' };
    const undated = { ...first, created_at: undefined, data: { status: 'SUSPENDED', note: 'a' } };
    const undatedOther = { ...undated, data: { status: 'SUSPENDED', note: 'b' } };
    const statuses = [];
    for (const body of [first, later, first, sameInstant, undated, undated, undatedOther])
      statuses.push((await deliverEvent(kit.baseUrl, body)).body.status);
    expect(statuses).toEqual(['accepted', 'accepted', 'duplicate', 'duplicate', 'accepted', 'duplicate', 'accepted']);
    await subscriber.next(4);
    await settle();
    expect(subscriber.received.map((r) => r.data.bankEvents.occurredAt.slice(0, 19))).toEqual([
      '2026-11-21T10:00:00',
      '2026-11-21T10:00:01',
      expect.any(String),
      expect.any(String),
    ]);
    await subscriber.close();
  });
});
