import { describe, expect, it } from 'vitest';
import { useKit } from '../helpers/kit.ts';
import { apiClient, CARD_PATH } from '../../sandbox/test/helpers.ts';
import { subscribeSse } from '../helpers/subscribe.ts';

/**
 * The operation deadline starts when a query or mutation starts executing and never applies to a
 * subscription, whose context lives on: an event arriving long after the deadline would have
 * passed still has its linked fields read.
 */
const kit = useKit({
  listen: true,
  reconcileWebhooks: true,
  webhooks: { agentCode: 'AG-DL', subagentCode: 'SUB-DL', companyCode: 'CO-DL' },
  resilience: { operationDeadlineMs: 300 },
});

describe('the operation deadline', () => {
  it('leaves a subscription alone: an event after the deadline still reads its card', async () => {
    const changes = await subscribeSse(
      kit,
      'subscription { cardStatusChanged(cardId: "crd_demo_ava_v") { status card { upstreamId status } } }',
    );
    await new Promise((resolve) => setTimeout(resolve, 700));
    const bank = await apiClient(kit.sandbox);
    expect(
      (
        await bank.send('PATCH', CARD_PATH, {
          query: { id: 'crd_demo_ava_v' },
          body: { card_status: 'INACTIVE', updated_by: 'Jordan Miles' },
        })
      ).status,
    ).toBe(200);
    const [result] = await changes.next(1);
    expect(result).toEqual({
      data: { cardStatusChanged: { status: 'INACTIVE', card: { upstreamId: 'crd_demo_ava_v', status: 'INACTIVE' } } },
    });
    await changes.close();
  });

  it('still bounds a query: a bank that stalls past it ends the query with the deadline error', async () => {
    await kit.control('POST', 'faults', { method: 'GET', path: '/svc/api/v1/account/balance', count: 1, kind: 'stall', stallMs: 5_000 });
    const response = await fetch(`${kit.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query":"{ balances { currency } }"}',
    });
    const body = (await response.json()) as { errors?: { message: string }[] };
    expect(body.errors?.[0]?.message).toBe("The bank did not answer within 300 ms, this operation's deadline");
  });
});
