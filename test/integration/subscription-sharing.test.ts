import { describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS } from '@banking-gateway/sandbox';
import { bankEvent, deliverEvent } from '../helpers/deliver.ts';
import { AccessTokenCreateDocument } from '../generated/graphql.ts';
import { useKit, type Kit } from '../helpers/kit.ts';
import { subscribeWs, type Subscription } from '../helpers/subscribe.ts';

/**
 * An event is resolved once per selection and bank identity, not once per subscriber: five
 * subscribers on the same operation cost the bank one read of the linked card, and each still gets
 * the whole answer. Different selections, or callers with their own bank tokens, are resolved apart.
 */
const CARD = 'subscription { cardStatusChanged { status card { upstreamId status } } }';
const CARD_WITH_HOLDER = 'subscription { cardStatusChanged { status card { upstreamId cardholder { email } } } }';

/** One occurrence of the demo card being blocked, at `createdAt`. */
const blocked = (createdAt: string) => ({
  ...bankEvent('crd_demo_ava_v_issuing.card.blocked', 'issuing.card.blocked', { card_id: 'crd_demo_ava_v', card_status: 'INACTIVE' }),
  created_at: createdAt,
});

async function closeAll(subscriptions: Subscription[]) {
  for (const subscription of subscriptions) await subscription.close();
}

/** Upstream calls made while the event was resolved, by path. */
function readsByPath(kit: Kit): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const call of kit.calls()) counts[call.path] = (counts[call.path] ?? 0) + 1;
  return counts;
}

describe('one execution per event and selection', () => {
  // These tests count the bank calls of reads that repeat from test to test: the record cache (test/integration/cache.test.ts) stays off.
  const kit = useKit({ cache: false, listen: true });

  it('reads the linked card once for five subscribers on one operation, and once more for another selection', async () => {
    const same = await Promise.all([1, 2, 3, 4, 5].map(() => subscribeWs(kit, CARD)));
    const other = await subscribeWs(kit, CARD_WITH_HOLDER);
    await kit.resetCounts();
    expect((await deliverEvent(kit.baseUrl, blocked('2026-11-24T10:00:00+0000'))).status).toBe(202);

    for (const subscriber of same) {
      expect(await subscriber.next(1)).toEqual([
        { data: { cardStatusChanged: { status: 'INACTIVE', card: { upstreamId: 'crd_demo_ava_v', status: 'ACTIVE' } } } },
      ]);
    }
    const [withHolder] = await other.next(1);
    expect(withHolder.data.cardStatusChanged.card.cardholder.email).toContain('@');

    // One card read per selection (the cardholder selection adds its own cardholder read).
    const reads = readsByPath(kit);
    const cardReads = Object.entries(reads).filter(([path]) => path.includes('/card') && !path.includes('cardholder'));
    expect(cardReads.reduce((sum, [, n]) => sum + n, 0)).toBe(2);
    await closeAll([...same, other]);
  });
});

describe('no sharing across bank identities (passthrough)', () => {
  const kit = useKit({ cache: false, listen: true, auth: { mode: 'passthrough', apiKeys: [], jwt: undefined, allowedOrigins: [] } });

  async function login(target: Kit): Promise<string> {
    const result = await target.execute(AccessTokenCreateDocument, {
      input: { clientKey: DEMO_CREDENTIALS.clientKey, clientSecret: DEMO_CREDENTIALS.clientSecret, email: DEMO_CREDENTIALS.email },
    });
    const outcome = result.data?.accessTokenCreate;
    if (outcome?.__typename !== 'AccessTokenCreateSuccess') throw new Error(JSON.stringify(result));
    return outcome.token.accessToken;
  }

  it('resolves the event once per caller token: two tokens, two card reads, each with its own token', async () => {
    const [first, second] = [await login(kit), await login(kit)];
    expect(first).not.toBe(second);
    const subscribers = [
      await subscribeWs(kit, CARD, {}, { authorization: `Bearer ${first}` }),
      await subscribeWs(kit, CARD, {}, { authorization: `Bearer ${first}` }),
      await subscribeWs(kit, CARD, {}, { authorization: `Bearer ${second}` }),
    ];
    await kit.resetCounts();
    expect((await deliverEvent(kit.baseUrl, blocked('2026-11-24T11:00:00+0000'))).status).toBe(202);
    for (const subscriber of subscribers) await subscriber.next(1);
    const cardReads = kit.calls().filter((call) => call.path.includes('/card') && !call.path.includes('cardholder'));
    expect(cardReads).toHaveLength(2);
    await closeAll(subscribers);
  });
});
