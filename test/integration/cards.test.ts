import { encodeGlobalID } from '@pothos/plugin-relay';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  CardAssignDocument,
  CardCreateDocument,
  CardFullDocument,
  CardRechargeDocument,
  CardsDocument,
  CardSummaryDocument,
  CardTransactionsDocument,
  CardUpdateDocument,
  type CardCreateInput,
} from '../generated/graphql.ts';
import { rawUpstream, useKit } from '../helpers/kit.ts';

// These tests count the bank calls of reads that repeat from test to test: the record cache (test/integration/cache.test.ts) stays off.
const kit = useKit({ cache: false });

const AVA = encodeGlobalID('Cardholder', 'chd_demo_ava');
const AVA_CARD = 'crd_demo_ava_v';
const CARD_PATH = '/svc/api/v1/card';
const DETAIL_PATH = '/svc/api/v1/card/detail';

const virtualCard: CardCreateInput = {
  cardholderId: AVA,
  type: 'VIRTUAL',
  personalized: true,
  allowedTransactionCount: 'MULTIPLE',
  limitCurrency: 'USD',
  limits: [
    { interval: 'PER_TRANSACTION', amount: '200' },
    { interval: 'MONTHLY', amount: '2000' },
  ],
  createdBy: 'Jane Doe',
};

describe('cards', () => {
  it('reads list fields without calling the detail endpoint', async () => {
    const result = await kit.execute(CardSummaryDocument, { id: AVA_CARD });
    expect(result.errors).toBeUndefined();
    expect(result.data!.card).toMatchObject({ upstreamId: AVA_CARD, status: 'ACTIVE', type: 'VIRTUAL', currency: 'USD' });
    expect(result.data!.card!.maskedNumber).toMatch(/^\d{6}\*+\d{4}$/);
    expect(kit.calls(CARD_PATH, 'GET')).toHaveLength(1);
    expect(kit.calls(DETAIL_PATH)).toHaveLength(0);
  });

  it('fetches the detail once, only when a detail field is asked for', async () => {
    const result = await kit.execute(CardFullDocument, { id: AVA_CARD });
    expect(result.errors).toBeUndefined();
    const card = result.data!.card!;
    expect(card.spendingControls!.length).toBeGreaterThan(0);
    expect(card.program).toMatchObject({ purpose: 'COMMERCIAL' });
    expect(card.cardholder!.upstreamId).toBe('chd_demo_ava');
    expect(kit.calls(DETAIL_PATH)).toHaveLength(1);
  });

  it('lists cards by cardholder and status, masked', async () => {
    const result = await kit.execute(CardsDocument, { first: 20, cardholderId: AVA, status: 'ACTIVE' });
    const cards = result.data!.cards!.nodes;
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) {
      expect(card.status).toBe('ACTIVE');
      expect(card.maskedNumber).toMatch(/^\d{6}\*+\d{4}$/);
    }
    // One list call, filtered by the bank: the cardholder's own id and the status went upstream.
    const lists = kit.sandbox.requests().filter((r) => r.path === CARD_PATH && r.method === 'GET');
    expect(lists).toHaveLength(1);
    expect(lists[0]!.query).toMatchObject({ cardholder_id: 'chd_demo_ava', status: 'ACTIVE' });
  });

  it('refuses CLOSED as a list filter before any call (Document 2, 4.1 allows ACTIVE or INACTIVE), on both card lists', async () => {
    for (const query of [
      '{ cards(first: 5, status: CLOSED) { nodes { id } } }',
      `{ cardholder(id: "${AVA}") { ... on Cardholder { cards(first: 5, status: CLOSED) { nodes { id } } } } }`,
    ]) {
      const result = await kit.execute(parse(query));
      expect(result.data).toBeUndefined();
      expect(result.errors?.[0]?.message).toMatch(/"CLOSED" does not exist in "CardStatusFilter" enum/);
    }
    expect(kit.calls(CARD_PATH)).toHaveLength(0);
  });

  it('lists CLOSED cards when no status filter is given', async () => {
    const closed = await kit.execute(CardUpdateDocument, {
      input: { cardId: encodeGlobalID('Card', AVA_CARD), status: 'CLOSED', updatedBy: 'Jane Doe' },
    });
    expect(closed.data?.cardUpdate.__typename).toBe('CardUpdateSuccess');
    const result = await kit.execute(parse('{ cards(first: 100) { nodes { upstreamId status } } }'));
    const nodes = (result.data as { cards: { nodes: { upstreamId: string; status: string }[] } }).cards.nodes;
    expect(nodes.find((card) => card.upstreamId === AVA_CARD)?.status).toBe('CLOSED');
    const lists = kit.calls(CARD_PATH).filter((call) => call.method === 'GET');
    expect(lists.length).toBeGreaterThan(0);
    for (const call of kit.sandbox.requests().filter((r) => r.path === CARD_PATH && r.method === 'GET'))
      expect(call.query.status).toBeUndefined();
  });

  it("passes the detail's risk_controls through as riskControls, null as null", async () => {
    const plain = await kit.execute(parse(`{ card(id: "${AVA_CARD}") { riskControls } }`));
    expect(plain.data).toEqual({ card: { riskControls: null } });
    const detail = await rawUpstream(kit, 'GET', `${DETAIL_PATH}?id=${AVA_CARD}`);
    const body = detail.body as { data: Record<string, unknown>[] };
    const riskControls = { velocity: [{ interval: 'DAILY', max_count: 20 }], blocked_mcc: ['7995'] };
    await kit.control('POST', 'faults', {
      kind: 'contract',
      method: 'GET',
      path: DETAIL_PATH,
      body: { ...body, data: [{ ...body.data[0], risk_controls: riskControls }] },
    });
    const result = await kit.execute(parse(`{ card(id: "${AVA_CARD}") { riskControls } }`));
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ card: { riskControls } });
  });

  it('pages card transactions and filters them by a date range', async () => {
    const page = await kit.execute(CardTransactionsDocument, { id: AVA_CARD, first: 2 });
    expect(page.errors).toBeUndefined();
    const connection = page.data!.card!.transactions!;
    expect(connection.nodes.length).toBeGreaterThan(0);
    const today = new Date().toISOString().slice(0, 10);
    const ranged = await kit.execute(CardTransactionsDocument, {
      id: AVA_CARD,
      first: 50,
      dateRange: { from: '2000-01-01', to: '2000-01-31' },
    });
    expect(ranged.data!.card!.transactions!.nodes).toEqual([]);
    const recent = await kit.execute(CardTransactionsDocument, { id: AVA_CARD, first: 50, dateRange: { from: '2000-01-01', to: today } });
    expect(recent.data!.card!.transactions!.nodes.length).toBeGreaterThan(0);
  });

  it('checks a physical card for its address and personalisation before sending', async () => {
    const result = await kit.execute(CardCreateDocument, { input: { ...virtualCard, type: 'PHYSICAL', personalized: false } });
    expect(result.data!.cardCreate).toMatchObject({
      __typename: 'ValidationError',
      issues: [
        { path: ['input', 'postalAddress'], message: 'is required for a physical card' },
        { path: ['input', 'personalized'], message: 'must be true: only personalized cards can be physical' },
      ],
    });
    const zeroLimit = await kit.execute(CardCreateDocument, { input: { ...virtualCard, limits: [{ interval: 'DAILY', amount: '0' }] } });
    expect(zeroLimit.data!.cardCreate).toMatchObject({ __typename: 'ValidationError', issues: [{ message: 'must be greater than 0' }] });
    expect(kit.calls(CARD_PATH, 'POST')).toHaveLength(0);
  });

  it('issues one card for a retried create with the same idempotency key (request_id too)', async () => {
    const first = await kit.execute(CardCreateDocument, { input: virtualCard, idempotencyKey: 'ava-card-2' });
    const second = await kit.execute(CardCreateDocument, { input: virtualCard, idempotencyKey: 'ava-card-2' });
    const id = (r: typeof first) => (r.data!.cardCreate.__typename === 'CardCreateSuccess' ? r.data!.cardCreate.card.upstreamId : r);
    expect(typeof id(first)).toBe('string');
    expect(id(second)).toBe(id(first));
    expect(kit.calls(CARD_PATH, 'POST').map((c) => c.requestId)).toEqual(['ava-card-2', 'ava-card-2']);
  });

  it('validates updates: merchant codes, currencies with limits, time order', async () => {
    const cardId = encodeGlobalID('Card', AVA_CARD);
    const bad = await kit.execute(CardUpdateDocument, {
      input: {
        cardId,
        updatedBy: 'Jane Doe',
        limits: [{ interval: 'DAILY', amount: '50' }],
        authorizationControls: {
          allowedMerchantCategories: ['54111'],
          activeFrom: '2026-12-01T00:00:00Z',
          activeTo: '2026-11-01T00:00:00Z',
        },
      },
    });
    const outcome = bad.data!.cardUpdate;
    expect(outcome.__typename).toBe('ValidationError');
    const paths = (outcome as { issues: { path: string[] }[] }).issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['input.authorizationControls.allowedMerchantCategories.0']));
    expect(kit.calls(CARD_PATH, 'PATCH')).toHaveLength(0);

    const good = await kit.execute(CardUpdateDocument, {
      input: {
        cardId,
        updatedBy: 'Jane Doe',
        currency: 'USD',
        limits: [{ interval: 'DAILY', amount: '75' }],
        authorizationControls: { allowedMerchantCategories: ['5411', '5812'], allowedCurrencies: ['USD'] },
      },
    });
    if (good.data!.cardUpdate.__typename !== 'CardUpdateSuccess') throw new Error(JSON.stringify(good));
    const controls = good.data!.cardUpdate.card.spendingControls!;
    expect(controls.map((c) => [c.interval, c.limit])).toEqual([['DAILY', { amount: '75', currency: 'USD' }]]);
    expect(Number(controls[0]!.remaining!.amount)).toBeLessThanOrEqual(75);
    expect(good.data!.cardUpdate.card.authorizationControls).toMatchObject({
      allowedMerchantCategories: ['5411', '5812'],
      allowedCurrencies: ['USD'],
    });
  });

  it('refuses a recharge of 0 before calling upstream', async () => {
    const result = await kit.execute(CardRechargeDocument, { input: { cardId: encodeGlobalID('Card', AVA_CARD), amount: '0' } });
    expect(result.data!.cardRecharge).toMatchObject({ __typename: 'ValidationError', issues: [{ path: ['input', 'amount'] }] });
    expect(kit.calls('/svc/api/v1/card/recharge')).toHaveLength(0);
  });

  it('says so, typed, when the program does not offer an operation', async () => {
    await kit.control('PUT', 'program', { program: 'BANKING' });
    const result = await kit.execute(CardAssignDocument, {
      input: { cardholderId: AVA, cardNumber: '4000056655665556', currency: 'USD', createdBy: 'Jane Doe' },
    });
    expect(result.data!.cardAssign).toMatchObject({ __typename: 'ProgramNotSupported', program: 'BANKING' });
    expect((result.data!.cardAssign as { message: string }).message).toBe('Assign Card is not supported for the BANKING program');
  });

  it('answers null for an unknown card', async () => {
    const result = await kit.execute(CardSummaryDocument, { id: 'crd_missing' });
    expect(result.errors).toBeUndefined();
    expect(result.data!.card).toBeNull();
  });
});

describe('card reads by id in one operation', () => {
  async function cardsById(count: number): Promise<string[]> {
    for (let i = 0; i < count; i++) {
      await kit.execute(CardCreateDocument, { input: virtualCard });
    }
    const listed = await kit.execute(CardsDocument, { first: 50 });
    return listed.data!.cards!.nodes.slice(0, count).map((c) => c.upstreamId);
  }

  async function readAll(ids: string[]) {
    await kit.resetCounts();
    const query = `{ ${ids.map((id, i) => `c${i}: card(id: "${id}") { upstreamId }`).join(' ')} }`;
    const response = await kit.gateway.yoga.fetch('http://gateway.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    const body = (await response.json()) as { data: Record<string, { upstreamId: string }> };
    expect(Object.values(body.data).map((c) => c.upstreamId)).toEqual(ids);
    return kit.calls(CARD_PATH, 'GET');
  }

  it('reads a few cards one call each', async () => {
    const ids = await cardsById(3);
    expect(await readAll(ids)).toHaveLength(3);
  });

  it('reads many cards from one page of the card list instead', async () => {
    const ids = await cardsById(6);
    const calls = await readAll(ids);
    expect(calls).toHaveLength(1);
    expect(kit.sandbox.requests()[0]!.query).toMatchObject({ page_num: '1', page_size: '100' });
  });
});
