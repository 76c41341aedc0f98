import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { parse } from 'graphql';
import { afterEach, describe, expect, it } from 'vitest';
import type { LiveQueryConfig } from '../../src/settings/index.ts';
import { useJwtKit } from '../helpers/jwt-kit.ts';
import { metric } from '../helpers/observe.ts';
import { until } from '../helpers/wait.ts';
import { subscribeSse, subscribeWs, type Subscription } from '../helpers/subscribe.ts';

/**
 * Live queries under load on one instance: many dashboards each get every deposit, however soon it
 * follows the last push; and cardholder-bound live card lists stay each their own across 200
 * interleaved events about both cardholders' cards.
 */

/** A gateway in service mode for one describe block, with what its tests open closed after each. */
function useLiveKit(agentCode: string, liveQueries?: Partial<LiveQueryConfig>) {
  const { kit, bearer } = useJwtKit({
    listen: true,
    reconcileWebhooks: true,
    webhooks: { agentCode, subagentCode: `SUB-${agentCode}`, companyCode: `CO-${agentCode}` },
    liveQueries,
    freshEachTest: true,
  });
  const disposals: (() => unknown)[] = [];
  afterEach(async () => {
    for (const dispose of disposals.splice(0)) await dispose();
    await until('every live query to be let go', () => kit.gateway.live.stats().open === 0, { timeoutMs: 5_000 });
  });
  return {
    kit,
    bearer,
    disposals,
    admin: () => bearer('admin', { roles: ['admin'] }),
    run: async (query: string, headers: Record<string, string>) =>
      kit.execute(parse(query) as TypedDocumentNode<Record<string, any>, Record<string, never>>, {}, headers),
  };
}

describe('live dashboards on one instance', () => {
  const { kit, admin, disposals } = useLiveKit('AG-LIVE-S');
  const DASHBOARD = 'query Dashboard @live { balances { currency available { amount } } }';
  // 50 dashboards of one caller, each on a WebSocket of its own: within LIVE_QUERY_MAX_PER_CALLER
  // (100), src/settings/index.ts's default.
  const DASHBOARDS = 50;
  const DEPOSITS = 5;
  // The target is 1 s from the deposit's answer to the last push; the bound leaves room for a busy machine.
  const PUSH_BOUND_MS = 3_000;

  type Balances = { data?: { balances: { currency: string; available: { amount: string } }[] }; errors?: unknown };
  const usd = (result: Balances | undefined) =>
    Number(result?.data?.balances.find((balance) => balance.currency === 'USD')?.available.amount);

  it('pushes each of 50 dashboards every deposit, each made as soon as the last was shown (inside the throttle interval)', async () => {
    const connectionParams = await admin();
    const screens = await Promise.all(
      Array.from({ length: DASHBOARDS }, () => subscribeWs<Balances>(kit, DASHBOARD, {}, connectionParams, { registered: false })),
    );
    for (const screen of screens) disposals.push(() => screen.close());
    await Promise.all(screens.map((screen) => screen.next(1)));
    let expected = usd(screens[0]!.received[0]);
    expect(screens.map((screen) => usd(screen.received[0]))).toEqual(screens.map(() => expected));

    // Each deposit follows the pushes of the one before within milliseconds, well inside
    // LIVE_QUERY_THROTTLE_MS (250): its re-run waits for the interval's end, and must still happen.
    for (let deposit = 1; deposit <= DEPOSITS; deposit += 1) {
      const amount = 100 + deposit;
      await kit.control('POST', 'deposits', { currency: 'USD', amount, payer_name: 'Initech' });
      const answeredAt = Date.now();
      expected += amount;
      const shown = () => screens.map((screen) => usd(screen.received.at(-1)));
      // Waited for, then compared: a dashboard left behind shows in the failure with the balance it kept.
      await until(`every dashboard to show deposit ${deposit}`, () => shown().every((balance) => balance === expected), {
        timeoutMs: 5_000,
      }).catch(() => {});
      expect(shown()).toEqual(screens.map(() => expected));
      // `until` looks every 100 ms: this is when the last push was seen, a little after it came.
      expect(Date.now() - answeredAt).toBeLessThan(PUSH_BOUND_MS);
    }
    // One push per deposit, none lost and none repeated.
    expect(screens.map((screen) => screen.received.length)).toEqual(screens.map(() => 1 + DEPOSITS));
  });
});

describe("a cardholder's live card list", () => {
  // No throttle interval: every one of the 200 events re-runs the lists it touches on its own,
  // rather than a burst of them being one re-run, so each event's re-run is checked.
  const { kit, bearer, admin, disposals, run } = useLiveKit('AG-LIVE-SI', { throttleMs: 0 });
  const EVENTS = 200;
  type CardList = { data?: { cards: { nodes: { upstreamId: string; cardholderUpstreamId: string; status: string }[] } }; errors?: unknown };
  const MY_CARDS = 'query MyCards @live { cards(first: 50) { nodes { upstreamId cardholderUpstreamId status } } }';

  async function createCard(cardholder: string, headers: Record<string, string>): Promise<string> {
    const created = await run(
      `mutation { cardCreate(input: {cardholderId: "${cardholder}", type: VIRTUAL, personalized: false, allowedTransactionCount: MULTIPLE, limitCurrency: "USD", limits: [{interval: MONTHLY, amount: "500"}], createdBy: "Jane Doe"}) { __typename ... on CardCreateSuccess { card { upstreamId } } } }`,
      headers,
    );
    expect(created.data?.cardCreate.__typename).toBe('CardCreateSuccess');
    return created.data!.cardCreate.card.upstreamId as string;
  }

  async function setStatus(card: string, status: 'ACTIVE' | 'INACTIVE', headers: Record<string, string>): Promise<void> {
    const updated = await run(
      `mutation { cardUpdate(input: { cardId: "${encodeGlobalID('Card', card)}", status: ${status}, updatedBy: "Jane Doe" }) { __typename } }`,
      headers,
    );
    expect(updated.data?.cardUpdate.__typename).toBe('CardUpdateSuccess');
  }

  /** Every card of each cardholder, as the admin sees them: the sets each live list must equal. */
  async function cardsByHolder(headers: Record<string, string>): Promise<Map<string, Set<string>>> {
    const all = (await run('query { cards(first: 50) { nodes { upstreamId cardholderUpstreamId } } }', headers)) as CardList;
    const byHolder = new Map<string, Set<string>>();
    for (const card of all.data!.cards.nodes)
      byHolder.set(card.cardholderUpstreamId, (byHolder.get(card.cardholderUpstreamId) ?? new Set()).add(card.upstreamId));
    return byHolder;
  }

  it("never carries another cardholder's card across 200 interleaved events about both cardholders' cards", async () => {
    const headers = await admin();
    const holders = ['chd_demo_ava', 'chd_demo_ops'] as const;
    // Two ACTIVE cards to toggle for each: Ava's seeded virtual card and a new one, and two new ones for the delegate.
    const toggled = {
      chd_demo_ava: ['crd_demo_ava_v', await createCard('chd_demo_ava', headers)],
      chd_demo_ops: [await createCard('chd_demo_ops', headers), await createCard('chd_demo_ops', headers)],
    };
    const owned = await cardsByHolder(headers);
    for (const holder of holders) expect([...owned.get(holder)!]).toEqual(expect.arrayContaining(toggled[holder]));

    const screens: Record<(typeof holders)[number], Subscription<CardList>> = {
      chd_demo_ava: await subscribeSse<CardList>(
        kit,
        MY_CARDS,
        {},
        await bearer('ava-phone', { roles: ['cardholder'], cardholder_id: 'chd_demo_ava' }),
        { registered: false },
      ),
      chd_demo_ops: await subscribeSse<CardList>(
        kit,
        MY_CARDS,
        {},
        await bearer('ops-phone', { roles: ['cardholder'], cardholder_id: 'chd_demo_ops' }),
        { registered: false },
      ),
    };
    for (const screen of Object.values(screens)) disposals.push(() => screen.close());
    for (const screen of Object.values(screens)) await screen.next(1);
    const reruns = await metric(kit, 'gateway_live_query_reruns_total');

    // Events alternate between the two cardholders and, within each, between their two cards, so one
    // round of four touches every toggled card once. Each round is a second later at the bank: a
    // transition repeated within one second of it is taken for a redelivery of the first.
    const status = new Map<string, 'ACTIVE' | 'INACTIVE'>(
      [...toggled.chd_demo_ava, ...toggled.chd_demo_ops].map((card) => [card, 'ACTIVE']),
    );
    for (let event = 0; event < EVENTS; event += 1) {
      if (event % 4 === 0) await kit.control('POST', 'clock/advance', { seconds: 1 });
      const card = toggled[holders[event % 2]!][Math.floor(event / 2) % 2]!;
      status.set(card, status.get(card) === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE');
      await setStatus(card, status.get(card)!, headers);
    }

    const statusesOf = (result: CardList | undefined) =>
      Object.fromEntries((result?.data?.cards.nodes ?? []).map((card) => [card.upstreamId, card.status]));
    for (const holder of holders) {
      const screen = screens[holder];
      const shownLast = () => statusesOf(screen.received.at(-1));
      await until(
        `${holder}'s list to show the last status of each card`,
        () => toggled[holder].every((card) => shownLast()[card] === status.get(card)),
        { timeoutMs: 5_000 },
      );
      // Every push, not only the last: exactly this cardholder's cards, each saying whose it is.
      for (const result of screen.received) {
        expect(result.errors).toBeUndefined();
        expect(new Set(result.data!.cards.nodes.map((card) => card.upstreamId))).toEqual(owned.get(holder));
        expect(new Set(result.data!.cards.nodes.map((card) => card.cardholderUpstreamId))).toEqual(new Set([holder]));
      }
      // Each of the 100 events about its own cards changed it once; those about the other's cards
      // changed nothing in it. Re-runs overlapping on a busy machine may fold two changes into one push.
      expect(screen.received.length).toBeGreaterThan(1 + EVENTS / 4);
      expect(screen.received.length).toBeLessThanOrEqual(1 + EVENTS / 2);
    }
    // Every write re-ran both lists (a write invalidates by kind): each list re-ran after every
    // event about the other cardholder's cards too, and never took in one of them.
    expect((await metric(kit, 'gateway_live_query_reruns_total')) - reruns).toBeGreaterThanOrEqual(2 * EVENTS);
  });
});
