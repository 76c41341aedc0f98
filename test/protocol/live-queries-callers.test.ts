import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { parse } from 'graphql';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JWT_AUDIENCE, JWT_ISSUER, startJwks, type Jwks } from '../helpers/jwks.ts';
import { startKit, type Kit } from '../helpers/kit.ts';
import { registerSecret } from '../helpers/leak-scan.ts';
import { until } from '../helpers/wait.ts';
import { subscribeSse, type Subscription } from '../helpers/subscribe.ts';

/**
 * A live query runs, and re-runs, as its caller: a cardholder-bound caller's live card list never
 * shows another cardholder's card, however many events about that card re-run it; a live query made
 * with a JWT ends with TOKEN_EXPIRED when the token does.
 */

let jwks: Jwks;
let kit: Kit;
beforeAll(async () => {
  jwks = await startJwks();
  kit = await startKit({
    listen: true,
    reconcileWebhooks: true,
    webhooks: { agentCode: 'AG-LIVE-CH', subagentCode: 'SUB-LIVE-CH', companyCode: 'CO-LIVE-CH' },
    auth: { mode: 'service', apiKeys: [], jwt: { jwksUrl: jwks.url, issuer: JWT_ISSUER, audience: JWT_AUDIENCE }, allowedOrigins: [] },
  });
});
afterAll(async () => {
  await kit.close();
  await jwks.close();
});

beforeEach(() => kit.fresh());

const open: Subscription[] = [];
afterEach(async () => {
  for (const live of open.splice(0)) await live.close();
  await until('every live query to be let go', () => kit.gateway.live.stats().open === 0, { timeoutMs: 5_000 });
});

async function bearer(subject: string, claims: Record<string, unknown>, expiresIn?: number): Promise<Record<string, string>> {
  const token = await jwks.sign({ subject, ...(expiresIn === undefined ? {} : { expiresIn }) }, claims);
  registerSecret('a caller JWT', token);
  return { authorization: `Bearer ${token}` };
}

const ava = (expiresIn?: number) => bearer('ava-phone', { roles: ['cardholder'], cardholder_id: 'chd_demo_ava' }, expiresIn);
const admin = () => bearer('admin', { roles: ['admin'] });

const run = async (query: string, headers: Record<string, string>) =>
  kit.execute(parse(query) as TypedDocumentNode<Record<string, any>, Record<string, never>>, {}, headers);

async function live(query: string, headers: Record<string, string>): Promise<Subscription> {
  const subscription = await subscribeSse(kit, query, {}, headers, { registered: false });
  open.push(subscription);
  return subscription;
}

async function setStatus(card: string, status: 'ACTIVE' | 'INACTIVE'): Promise<void> {
  const updated = await run(
    `mutation { cardUpdate(input: { cardId: "${encodeGlobalID('Card', card)}", status: ${status}, updatedBy: "Jane Doe" }) { __typename } }`,
    await admin(),
  );
  expect(updated.data?.cardUpdate.__typename).toBe('CardUpdateSuccess');
}

async function metric(name: string): Promise<number> {
  const text = await kit.gateway.metrics.registry.getSingleMetricAsString(name);
  return Number(/ (\d+)$/m.exec(text)?.[1] ?? 0);
}

type CardList = { data?: { cards: { nodes: { upstreamId: string; cardholderUpstreamId: string; status: string }[] } } };

describe('a live query as its caller', () => {
  it("never shows a cardholder-bound caller another cardholder's card, across re-runs after events about it", async () => {
    const created = await run(
      'mutation { cardCreate(input: {cardholderId: "chd_demo_ops", type: VIRTUAL, personalized: false, allowedTransactionCount: MULTIPLE, limitCurrency: "USD", limits: [{interval: MONTHLY, amount: "500"}], createdBy: "Jane Doe"}) { __typename ... on CardCreateSuccess { card { upstreamId } } } }',
      await admin(),
    );
    const theirs = created.data!.cardCreate.card.upstreamId as string;
    const screen = await live('query MyCards @live { cards(first: 20) { nodes { upstreamId cardholderUpstreamId status } } }', await ava());
    await screen.next(1);

    const rounds: ['INACTIVE' | 'ACTIVE', number][] = [
      ['INACTIVE', 2],
      ['ACTIVE', 3],
      ['INACTIVE', 4],
    ];
    for (const [status, pushes] of rounds) {
      // A second apart at the bank: a transition repeated within one second of it is taken for a redelivery.
      await kit.control('POST', 'clock/advance', { seconds: 1 });
      const reruns = await metric('gateway_live_query_reruns_total');
      await setStatus(theirs, status);
      // Her list re-ran for a change to their card (the event names a card, and her screen lists cards).
      await until('a re-run for their card', async () => (await metric('gateway_live_query_reruns_total')) > reruns);
      await setStatus('crd_demo_ava_v', status);
      await screen.next(pushes, 15_000);
    }

    const results = screen.received as CardList[];
    expect(results).toHaveLength(4);
    for (const result of results)
      expect(new Set(result.data!.cards.nodes.map((card) => card.cardholderUpstreamId))).toEqual(new Set(['chd_demo_ava']));
    expect(results.map((result) => result.data!.cards.nodes.find((card) => card.upstreamId === 'crd_demo_ava_v')?.status)).toEqual([
      'ACTIVE',
      'INACTIVE',
      'ACTIVE',
      'INACTIVE',
    ]);
  });

  it('ends with TOKEN_EXPIRED when the JWT it was made with expires', async () => {
    const screen = await live('query Card @live { card(id: "crd_demo_ava_v") { status } }', await ava(2));
    const [first] = await screen.next(1);
    expect(first).toMatchObject({ data: { card: { status: 'ACTIVE' } } });
    const [, ending] = await screen.next(2, 10_000);
    expect(ending).toMatchObject({ errors: [{ extensions: { code: 'TOKEN_EXPIRED' } }] });
    // The stream ended with it: the store's entry is let go without the client leaving.
    await until('the live query to end', () => kit.gateway.live.stats().open === 0, { timeoutMs: 5_000 });
    expect(kit.gateway.live.stats()).toEqual({ open: 0, groups: 0, tracked: 0, timers: 0 });
  });
});
