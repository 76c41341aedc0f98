import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { useJwtKit } from '../helpers/jwt-kit.ts';
import { subscribeSse, subscribeWs } from '../helpers/subscribe.ts';

/**
 * The mobile card app: a caller bound to one cardholder (a JWT's cardholder_id claim) sees that
 * cardholder's record, cards, wallets, card transactions and KYC state, may freeze, unfreeze and
 * activate its own cards, and receives its own events; everyone else's records answer as records
 * that do not exist, and no cardholder is ever answered from another's cached reads.
 */

// The record cache stays on, as npm start ships it: bound callers must never share its answers.
const { kit, bearer } = useJwtKit({
  listen: true,
  reconcileWebhooks: true,
  webhooks: { agentCode: 'AG-CH', subagentCode: 'SUB-CH', companyCode: 'CO-CH' },
  freshEachTest: true,
});

const ava = () => bearer('ava-phone', { roles: ['cardholder'], cardholder_id: 'chd_demo_ava' });
const ops = () => bearer('ops-phone', { roles: 'cardholder', cardholder_id: 'chd_demo_ops' });
const admin = () => bearer('admin', { roles: ['admin'] });

const run = async (query: string, headers: Record<string, string>, variables: Record<string, unknown> = {}) =>
  kit.execute(parse(query) as TypedDocumentNode<Record<string, any>, Record<string, unknown>>, variables, headers);

/** A card of the finance desk's (DELEGATE): someone else's card for Ava. */
async function opsCard(): Promise<string> {
  const created = await run(
    `mutation { cardCreate(input: {cardholderId: "chd_demo_ops", type: VIRTUAL, personalized: false, allowedTransactionCount: MULTIPLE, limitCurrency: "USD", limits: [{interval: MONTHLY, amount: "500"}], createdBy: "Jane Doe"}) { __typename ... on CardCreateSuccess { card { upstreamId } } ... on MutationError { message } } }`,
    await admin(),
  );
  expect(created.data!.cardCreate.__typename).toBe('CardCreateSuccess');
  return created.data!.cardCreate.card.upstreamId;
}

const cardIds = (result: { data?: Record<string, any> | null }, path: string[]) =>
  (path.reduce((value, key) => value?.[key], result.data as any).nodes as { upstreamId: string }[]).map((card) => card.upstreamId);

describe('a cardholder-bound caller reads', () => {
  it('only its own cards, from a list narrowed at the bank; another cardholder\u2019s answer exactly as records that do not exist', async () => {
    const theirs = await opsCard();
    await kit.resetCounts();
    const own = await run('{ cards(first: 20) { nodes { upstreamId cardholderUpstreamId } } }', await ava());
    expect(own.errors).toBeUndefined();
    expect(own.data!.cards.nodes.map((c: { cardholderUpstreamId: string }) => c.cardholderUpstreamId)).toEqual([
      'chd_demo_ava',
      'chd_demo_ava',
    ]);
    expect(kit.calls('/svc/api/v1/card').map((c) => c.query.cardholder_id)).toEqual(['chd_demo_ava']);

    const other = (id: string) =>
      `{ cardholder(id: "${id}") { email } card(id: "${id === 'chd_demo_ops' ? theirs : 'crd_nobody'}") { upstreamId } cards(cardholderId: "${id}") { nodes { upstreamId } } }`;
    const theirsAnswer = await run(other('chd_demo_ops'), await ava());
    const nobodysAnswer = await run(other('chd_nobody'), await ava());
    expect(theirsAnswer).toEqual({ data: { cardholder: null, card: null, cards: { nodes: [] } } });
    expect(nobodysAnswer).toEqual(theirsAnswer);

    const [mine, theirsId, nobody] = ['crd_demo_ava_v', theirs, 'crd_nobody'].map((id) => encodeGlobalID('Card', id));
    const nodes = await run(`{ node(id: "${theirsId}") { id } nodes(ids: ["${mine}", "${theirsId}", "${nobody}"]) { id } }`, await ava());
    expect(nodes).toEqual({ data: { node: null, nodes: [{ id: mine }, null, null] } });

    const holders = await run(
      '{ cardholders(first: 10) { nodes { upstreamId } } cardholder(id: "chd_demo_ava") { cards { nodes { upstreamId } } } }',
      await ava(),
    );
    expect(holders.data!.cardholders.nodes).toEqual([{ upstreamId: 'chd_demo_ava' }]);
    expect(cardIds(holders, ['cardholder', 'cards']).sort()).toEqual(['crd_demo_ava_p', 'crd_demo_ava_v']);
  });

  it('its own wallet, wallet history, card transactions and KYC state, and who it is', async () => {
    const result = await run(
      `{ me { name roles permissions mutations cardholderUpstreamId cardholder { email } }
         cardholder(id: "chd_demo_ava") { kyc { status } wallets { upstreamId history(first: 5) { nodes { type } } } }
         card(id: "crd_demo_ava_v") { transactions(first: 5) { nodes { upstreamId } } } }`,
      await ava(),
    );
    expect(result.errors).toBeUndefined();
    expect(result.data!.me).toEqual({
      name: 'ava-phone',
      roles: ['cardholder'],
      permissions: ['cards:read', 'cards:control', 'cardholders:read', 'wallets:read'],
      mutations: ['cardActivate', 'cardPinReset', 'cardUpdate'],
      cardholderUpstreamId: 'chd_demo_ava',
      cardholder: { email: expect.stringContaining('@') },
    });
    expect(result.data!.cardholder.kyc.status).toEqual(expect.any(String));
    expect(result.data!.cardholder.wallets).toEqual([
      { upstreamId: 'wal_demo_ava', history: { nodes: expect.arrayContaining([expect.objectContaining({ type: expect.any(String) })]) } },
    ]);
    expect(result.data!.card.transactions.nodes.length).toBeGreaterThan(0);
  });

  it('nothing of the business: accounts, balances and payouts are FORBIDDEN, on their fields alone', async () => {
    const result = await run(
      '{ cards(first: 5) { nodes { upstreamId } } balances { currency } accounts(first: 5) { nodes { id } } upcomingPayouts(first: 5) { nodes { id } } }',
      await ava(),
    );
    expect(result.data!.cards.nodes.length).toBe(2);
    expect(result.data).toMatchObject({ balances: null, accounts: null, upcomingPayouts: null });
    expect(result.errors!.map((e) => [e.path, e.extensions])).toEqual([
      [['balances'], { code: 'FORBIDDEN', permission: 'accounts:read' }],
      [['accounts'], { code: 'FORBIDDEN', permission: 'accounts:read' }],
      [['upcomingPayouts'], { code: 'FORBIDDEN', permission: 'payouts:read' }],
    ]);
  });
});

describe('a cardholder-bound caller writes', () => {
  const freeze = (cardId: string, status = 'INACTIVE') =>
    `mutation { cardUpdate(input: {cardId: "${cardId}", status: ${status}, updatedBy: "Ava Chen"}) { __typename ... on CardUpdateSuccess { card { status } } ... on Forbidden { permission } ... on ValidationError { issues { path message } } } }`;

  it('freezes and unfreezes its own card; another\u2019s card answers as a card that does not exist, with no write sent', async () => {
    const theirs = await opsCard();
    await kit.resetCounts();
    expect((await run(freeze('crd_demo_ava_v'), await ava())).data).toEqual({
      cardUpdate: { __typename: 'CardUpdateSuccess', card: { status: 'INACTIVE' } },
    });
    expect((await run(freeze('crd_demo_ava_v', 'ACTIVE'), await ava())).data).toEqual({
      cardUpdate: { __typename: 'CardUpdateSuccess', card: { status: 'ACTIVE' } },
    });
    const notOwn = await run(freeze(theirs), await ava());
    expect(notOwn.data).toEqual({
      cardUpdate: { __typename: 'ValidationError', issues: [{ path: ['input', 'cardId'], message: 'names no card of this cardholder' }] },
    });
    expect(await run(freeze('crd_nobody'), await ava())).toEqual(notOwn);
    expect(kit.calls('/svc/api/v1/card', 'PATCH')).toHaveLength(2);
    expect(kit.audit().map((r) => [r.caller.name, r.cardholder, r.targets.cardId, r.outcome, r.detail])).toEqual([
      ['ava-phone', 'chd_demo_ava', 'crd_demo_ava_v', 'success', null],
      ['ava-phone', 'chd_demo_ava', 'crd_demo_ava_v', 'success', null],
      ['ava-phone', 'chd_demo_ava', theirs, 'typed_error', 'ValidationError'],
      ['ava-phone', 'chd_demo_ava', 'crd_nobody', 'typed_error', 'ValidationError'],
    ]);
  });

  it('may not raise its own limits, close its card, or send a payout: Forbidden, nothing sent', async () => {
    await kit.resetCounts();
    const limits = await run(
      'mutation { cardUpdate(input: {cardId: "crd_demo_ava_v", currency: "USD", limits: [{interval: DAILY, amount: "99999"}], updatedBy: "Ava Chen"}) { __typename ... on Forbidden { permission } } }',
      await ava(),
    );
    expect(limits.data).toEqual({ cardUpdate: { __typename: 'Forbidden', permission: 'cards:write' } });
    expect((await run(freeze('crd_demo_ava_v', 'CLOSED'), await ava())).data).toEqual({
      cardUpdate: { __typename: 'Forbidden', permission: 'cards:write' },
    });
    const payout = await run(
      'mutation { payoutCreate(input: {beneficiaryId: "ben_demo_de", quoteId: "quo_demo_payout", sourceCurrency: "USD", destinationCurrency: "EUR", sourceAmount: "1000", destinationCountry: "DE", feeType: OUR, transferMethod: SWIFT, reference: "x", sourceOfFunds: "Revenue"}) { __typename ... on Forbidden { permission } } }',
      await ava(),
    );
    expect(payout.data).toEqual({ payoutCreate: { __typename: 'Forbidden', permission: 'payouts:write' } });
    expect(kit.calls()).toEqual([]);
    expect(kit.audit().map((r) => [r.field, r.outcome, r.permission])).toEqual([
      ['cardUpdate', 'forbidden', 'cards:write'],
      ['cardUpdate', 'forbidden', 'cards:write'],
      ['payoutCreate', 'forbidden', 'payouts:write'],
    ]);
  });
});

describe('a cardholder-bound subscriber', () => {
  const CARD_EVENTS = 'subscription { cardStatusChanged { status cardUpstreamId event { name } } }';

  it('receives only its own cards\u2019 and its own cardholder\u2019s events, over graphql-ws and SSE', async () => {
    // Another test of this file blocks the same card: an occurrence is its id and created_at (whole
    // seconds), and the gateway drops a repeat, so this test's events happen a minute later.
    await kit.control('POST', 'clock/advance', { minutes: 1 });
    const theirs = await opsCard();
    const avaHeaders = await ava();
    const overWs = await subscribeWs(kit, CARD_EVENTS, {}, avaHeaders);
    const overSse = await subscribeSse(kit, CARD_EVENTS, {}, avaHeaders);
    const holders = await subscribeWs(kit, 'subscription { cardholderStatusChanged { cardholderUpstreamId status } }', {}, avaHeaders);
    const adminHeaders = await admin();
    // Someone else's card, then Ava's; then events that do not name the cardholder at all, of each.
    await run(
      `mutation { cardUpdate(input: {cardId: "${theirs}", status: INACTIVE, updatedBy: "Jane Doe"}) { __typename } }`,
      adminHeaders,
    );
    await run(
      'mutation { cardUpdate(input: {cardId: "crd_demo_ava_v", status: INACTIVE, updatedBy: "Jane Doe"}) { __typename } }',
      adminHeaders,
    );
    await kit.control('POST', 'events', {
      name: 'issuing.card.active',
      resource_id: theirs,
      data: { cardholder_id: null, card_id: theirs, card_status: 'ACTIVE' },
    });
    await kit.control('POST', 'events', {
      name: 'issuing.card.active',
      resource_id: 'crd_demo_ava_v',
      data: { cardholder_id: null, card_id: 'crd_demo_ava_v', card_status: 'ACTIVE' },
    });
    await kit.control('POST', 'events', { name: 'issuing.cardholder.ready', resource_id: 'chd_demo_ops' });
    await kit.control('POST', 'events', { name: 'issuing.cardholder.ready', resource_id: 'chd_demo_ava' });

    const expected = [
      { data: { cardStatusChanged: { status: 'INACTIVE', cardUpstreamId: 'crd_demo_ava_v', event: { name: 'issuing.card.blocked' } } } },
      { data: { cardStatusChanged: { status: 'ACTIVE', cardUpstreamId: 'crd_demo_ava_v', event: { name: 'issuing.card.active' } } } },
    ];
    expect(await overWs.next(2)).toEqual(expected);
    expect(await overSse.next(2)).toEqual(expected);
    expect(await holders.next(1)).toEqual([
      { data: { cardholderStatusChanged: { cardholderUpstreamId: 'chd_demo_ava', status: 'READY' } } },
    ]);
    // Whatever was coming has come: the others' events never do.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(overWs.received).toHaveLength(2);
    expect(overSse.received).toHaveLength(2);
    expect(holders.received).toHaveLength(1);
    await Promise.all([overWs.close(), overSse.close(), holders.close()]);
  });

  it('is refused the stream of every bank event when it starts', async () => {
    const refused = await subscribeWs(kit, 'subscription { bankEvents { name } }', {}, await ava(), { registered: false });
    const [result] = await refused.next(1);
    expect(result.errors.map((e: { extensions: unknown }) => e.extensions)).toEqual([{ code: 'FORBIDDEN', permission: 'events:read' }]);
    await refused.close();
  });
});

describe('two cardholders', () => {
  it('never see each other\u2019s cached reads: each reads the bank once, then its own reads from the cache', async () => {
    const theirs = await opsCard();
    await kit.resetCounts();
    const list = '{ cards(first: 20) { nodes { upstreamId } } }';
    const [avaHeaders, opsHeaders, adminHeaders] = [await ava(), await ops(), await admin()];
    expect(cardIds(await run(list, adminHeaders), ['cards']).sort()).toEqual(['crd_demo_ava_p', 'crd_demo_ava_v', theirs].sort());
    expect(cardIds(await run(list, avaHeaders), ['cards']).sort()).toEqual(['crd_demo_ava_p', 'crd_demo_ava_v']);
    expect(cardIds(await run(list, opsHeaders), ['cards'])).toEqual([theirs]);
    // Each view read the bank once; the same reads again come from each one's own cache.
    expect(cardIds(await run(list, avaHeaders), ['cards']).sort()).toEqual(['crd_demo_ava_p', 'crd_demo_ava_v']);
    expect(cardIds(await run(list, opsHeaders), ['cards'])).toEqual([theirs]);
    expect(kit.calls('/svc/api/v1/card').map((c) => c.query.cardholder_id ?? 'all')).toEqual(['all', 'chd_demo_ava', 'chd_demo_ops']);
    // A card read by id, kept for one, is no answer for the other.
    expect((await run(`{ card(id: "${theirs}") { upstreamId } }`, opsHeaders)).data).toEqual({ card: { upstreamId: theirs } });
    expect((await run(`{ card(id: "${theirs}") { upstreamId } }`, avaHeaders)).data).toEqual({ card: null });
  });
});
