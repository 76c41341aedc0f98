import { encodeGlobalID } from '@pothos/plugin-relay';
import { describe, expect, it } from 'vitest';
import { ensureWebhookSubscriptions } from '../../src/events/webhook-reconciler.ts';
import { CardCreateDocument } from '../generated/graphql.ts';
import { KIT_WEBHOOKS, useKit } from '../helpers/kit.ts';
import { subscribeSse, subscribeWs } from '../helpers/subscribe.ts';

/**
 * End to end: the sandbox emits events on state changes and delivers them, signed, to the gateway's
 * /webhooks (subscribed at start the way `npm start` does it); subscribers over graphql-ws and SSE
 * receive each once, with linked fields read through the graph.
 */
const CODES = { agentCode: 'AG-EVT', subagentCode: 'SUB-EVT', companyCode: 'CO-EVT' };
const kit = useKit({ listen: true, webhooks: CODES });

async function subscribeGatewayToEvents() {
  return ensureWebhookSubscriptions({
    upstream: kit.gateway.upstream,
    programCode: kit.upstreamConfig.productId,
    webhooks: { ...CODES, apiKey: KIT_WEBHOOKS.apiKey, publicUrl: kit.baseUrl },
  });
}

describe('bank events as subscriptions', () => {
  it('subscribes the gateway to every catalogue event once: a second run changes nothing', async () => {
    const first = await subscribeGatewayToEvents();
    expect(first.created).toContain('issuing.card.active');
    const again = await subscribeGatewayToEvents();
    expect(again.created).toEqual([]);
    expect(again.updated).toEqual([]);
    expect(again.unchanged.length).toBeGreaterThan(10);
  });

  it('delivers a card activation over graphql-ws and a deposit over SSE, once each, with linked fields resolved', async () => {
    await subscribeGatewayToEvents();
    const cards = await subscribeWs(
      kit,
      'subscription { cardStatusChanged { status event { upstreamId name } card { upstreamId status maskedNumber cardholder { email } } } }',
    );
    const deposits = await subscribeSse(
      kit,
      'subscription { depositUpdated { status depositId amount { amount currency } event { id } account { upstreamId } } }',
    );

    const created = await kit.execute(CardCreateDocument, {
      input: {
        cardholderId: encodeGlobalID('Cardholder', 'chd_demo_ava'),
        type: 'VIRTUAL',
        personalized: true,
        allowedTransactionCount: 'MULTIPLE',
        limitCurrency: 'USD',
        limits: [{ interval: 'MONTHLY', amount: '1000' }],
        createdBy: 'Jane Doe',
      },
    });
    if (created.data!.cardCreate.__typename !== 'CardCreateSuccess') throw new Error(JSON.stringify(created));
    const card = created.data!.cardCreate.card;
    const deposit = (await kit.control('POST', 'deposits', { currency: 'USD', amount: 1250, payer_name: 'Globex' })) as {
      depositId: string;
    };

    const [activation] = await cards.next(1);
    expect(activation).toEqual({
      data: {
        cardStatusChanged: {
          status: 'ACTIVE',
          event: { upstreamId: `${card.upstreamId}_issuing.card.active`, name: 'issuing.card.active' },
          card: {
            upstreamId: card.upstreamId,
            status: 'ACTIVE',
            maskedNumber: card.maskedNumber,
            cardholder: { email: expect.stringContaining('@') },
          },
        },
      },
    });
    // ga.new NEW, PENDING, SETTLED, then deposit.settled and balance.ga.top_up.
    const updates = (await deposits.next(5)).map((r) => r.data.depositUpdated);
    expect(updates.map((u) => u.status)).toEqual(['NEW', 'PENDING', 'SETTLED', 'SETTLED', 'TOPPED_UP']);
    for (const update of updates) {
      expect(update.depositId).toBe(deposit.depositId);
      expect(update.amount).toEqual({ amount: '1250', currency: 'USD' });
      expect(update.account?.upstreamId).toMatch(/^acc_/);
    }
    expect(new Set(updates.map((u) => u.event.id)).size).toBe(5);

    // The sandbox redelivers; subscribers still have each event once.
    await kit.control('POST', 'deliveries/redeliver', { eventId: `${card.upstreamId}_issuing.card.active` });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(cards.received).toHaveLength(1);
    expect(deposits.received).toHaveLength(5);
    await cards.close();
    await deposits.close();
  });

  it('narrows deposits to one account: ga.new, which names the account by number only, included', async () => {
    await subscribeGatewayToEvents();
    const usd = await subscribeSse(
      kit,
      'subscription { depositUpdated(accountId: "acc_demo_usd") { status depositId account { upstreamId } } }',
    );
    const eur = await subscribeSse(kit, 'subscription { depositUpdated(accountId: "acc_demo_eur") { status depositId } }');
    const deposit = (await kit.control('POST', 'deposits', { currency: 'USD', amount: 300, payer_name: 'Globex' })) as {
      depositId: string;
    };
    const updates = (await usd.next(5)).map((r) => r.data.depositUpdated);
    expect(updates.map((u) => u.status)).toEqual(['NEW', 'PENDING', 'SETTLED', 'SETTLED', 'TOPPED_UP']);
    for (const update of updates) expect(update).toMatchObject({ depositId: deposit.depositId, account: { upstreamId: 'acc_demo_usd' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(eur.received).toHaveLength(0);
    await usd.close();
    await eur.close();
  });
});
