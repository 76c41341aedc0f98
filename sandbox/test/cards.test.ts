import { describe, expect, it } from 'vitest';
import {
  CARD_PATH,
  cardDetail,
  createCard,
  doneEnvelope,
  envelopeError,
  nextRequestId,
  readyCardholder,
  sandboxDay,
  useSandbox,
  virtualCardBody,
  DEMO_PHYSICAL_CARD,
} from './helpers.ts';

const t = useSandbox();

const DEMO_CARD = 'crd_demo_ava_v';
// Ava's seeded physical card: assigned yesterday, INACTIVE until activated.
const PHYSICAL = DEMO_PHYSICAL_CARD;
const MASKED = /^428839\*{6}\d{4}$/;
const MILLIS_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+0000$/;

const post = (body: Record<string, unknown>, headers: Record<string, string> = {}) => t.api.send('POST', CARD_PATH, { body, headers });
const patch = (id: string, body: Record<string, unknown>) => t.api.send('PATCH', CARD_PATH, { query: { id }, body });
const listIds = async (query: Record<string, string | number> = {}) =>
  (await t.api.get(CARD_PATH, { query })).body.data.map((card: { cardHashId: string }) => card.cardHashId);

describe('POST /svc/api/v1/card', () => {
  it('issues an ACTIVE virtual card to a READY, verified cardholder: data is an object { id }', async () => {
    const holder = await readyCardholder(t.sandbox, t.api);
    const response = await holder.api.send('POST', CARD_PATH, { body: virtualCardBody(holder.id) });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      code: 200,
      status: 'success',
      message: 'Card created successfully',
      data: { id: expect.stringMatching(/^crd_[0-9a-f]{16}$/) },
    });
    const list = await holder.api.get(CARD_PATH, { query: { cardholder_id: holder.id } });
    expect(list.body.data).toEqual([
      {
        cardHashId: response.body.data.id,
        cardStatus: 'ACTIVE',
        maskedCardNumber: expect.stringMatching(MASKED),
        cardholderId: holder.id,
        createdAt: expect.stringMatching(MILLIS_TIME),
        updatedAt: expect.stringMatching(MILLIS_TIME),
        nameOnCard: 'Noah Kim',
        cardType: 'VIRTUAL',
        currency: 'USD',
      },
    ]);
  });

  it('refuses a cardholder that is not READY, unknown, or without eKYC', async () => {
    expect((await post(virtualCardBody('chd_demo_new'))).body).toEqual(envelopeError(400, 'Cardholder chd_demo_new is not READY'));
    expect((await post(virtualCardBody('chd_ghost'))).body).toEqual(envelopeError(400, 'Cardholder chd_ghost not found'));
    const holder = await readyCardholder(t.sandbox, t.api, { kyc: false });
    const response = await holder.api.send('POST', CARD_PATH, { body: virtualCardBody(holder.id) });
    expect(response.body).toEqual(envelopeError(400, 'eKYC must be completed before card issuance'));
  });

  it('is idempotent on request_id: the same request twice makes one card', async () => {
    const body = virtualCardBody('chd_demo_ava');
    const first = await post(body);
    const second = await post(body, { 'x-request-id': nextRequestId() });
    expect(second.body.data).toEqual(first.body.data);
    expect([...t.sandbox.store.cards.values()].filter((card) => card.cardholderId === 'chd_demo_ava')).toHaveLength(3);
    const other = await post({ ...body, is_personalized: false }, { 'x-request-id': nextRequestId() });
    expect(other.body).toEqual(envelopeError(400, `request_id ${String(body.request_id)} was already used for a different card request`));
  });

  it('puts the business name on a DELEGATE card, which cannot be personalized', async () => {
    const personalized = await post(virtualCardBody('chd_demo_ops'));
    expect(personalized.body).toEqual(envelopeError(400, 'Cardholder chd_demo_ops is a DELEGATE and can hold only non-personalized cards'));
    const id = await createCard(t.api, virtualCardBody('chd_demo_ops', { is_personalized: false }));
    expect(await cardDetail(t.api, id)).toMatchObject({ name_on_card: 'Acme Trading Ltd', is_personalized: false, personalized: false });
  });

  const limitsOf = (limits: unknown[], currency = 'USD') => ({
    authorization_controls: { allowed_transaction_count: 'MULTIPLE', transaction_limits: { currency, limits } },
  });
  const LIMITS = 'authorization_controls.transaction_limits.limits';

  it.each([
    [limitsOf([{ amount: 0, interval: 'DAILY' }]), `${LIMITS}[0].amount must be greater than 0`],
    [limitsOf([{ amount: -5, interval: 'DAILY' }]), `${LIMITS}[0].amount must be greater than 0`],
    [
      limitsOf([{ amount: 10, interval: 'YEARLY' }]),
      `${LIMITS}[0].interval must be one of PER_TRANSACTION, DAILY, WEEKLY, MONTHLY, ALL_TIME`,
    ],
    [
      limitsOf([
        { amount: 10, interval: 'DAILY' },
        { amount: 20, interval: 'DAILY' },
      ]),
      `${LIMITS}[1] repeats the interval DAILY`,
    ],
    [limitsOf([{ amount: 10.005, interval: 'DAILY' }]), `${LIMITS}[0].amount must have at most 2 decimal place(s) for USD`],
    [limitsOf([], 'usd'), 'authorization_controls.transaction_limits.currency must be a 3-letter ISO-4217 code in capitals'],
    [
      { authorization_controls: { allowed_transaction_count: 'TWICE', transaction_limits: { currency: 'USD', limits: [] } } },
      'authorization_controls.allowed_transaction_count must be one of SINGLE, MULTIPLE',
    ],
    [{ program: { purpose: 'PERSONAL' } }, 'program.purpose must be COMMERCIAL'],
    [{ card_issuance_action: 'RENEW' }, 'card_issuance_action must be one of NEW, REPLACEMENT'],
    [{ card_type: 'METAL' }, 'card_type must be one of VIRTUAL, PHYSICAL'],
    [{ request_id: undefined }, 'request_id is required'],
    [{ is_personalized: 'yes' }, 'is_personalized must be a boolean'],
  ])('refuses %j: %s', async (overrides, message) => {
    const response = await post(virtualCardBody('chd_demo_ava', overrides));
    expect(response.status).toBe(400);
    expect(response.body).toEqual(envelopeError(400, message));
  });
});

describe('GET /svc/api/v1/card', () => {
  it('filters by cardholder_id, id and status; CLOSED cards only without a status', async () => {
    const opsCard = await createCard(t.api, virtualCardBody('chd_demo_ops', { is_personalized: false }));
    expect(await listIds()).toEqual([opsCard, PHYSICAL, DEMO_CARD]);
    expect(await listIds({ cardholder_id: 'chd_demo_ava' })).toEqual([PHYSICAL, DEMO_CARD]);
    expect(await listIds({ id: opsCard })).toEqual([opsCard]);
    await patch(opsCard, { card_status: 'INACTIVE', updated_by: 'Jordan Miles' });
    expect(await listIds({ status: 'INACTIVE' })).toEqual([opsCard, PHYSICAL]);
    expect(await listIds({ status: 'ACTIVE' })).toEqual([DEMO_CARD]);
    await patch(opsCard, { card_status: 'CLOSED', updated_by: 'Jordan Miles' });
    expect(await listIds({ status: 'INACTIVE' })).toEqual([PHYSICAL]);
    expect(await listIds()).toEqual([opsCard, PHYSICAL, DEMO_CARD]);
    expect(await listIds({ page_num: 2, page_size: 1 })).toEqual([PHYSICAL]);
  });

  it('refuses status CLOSED as a filter', async () => {
    expect((await t.api.get(CARD_PATH, { query: { status: 'CLOSED' } })).body).toEqual(
      envelopeError(400, 'status must be one of ACTIVE, INACTIVE'),
    );
  });
});

describe('GET /svc/api/v1/card/detail', () => {
  it('answers every field of section 2.2 for the demo card', async () => {
    const response = await t.api.get(`${CARD_PATH}/detail`, { query: { id: DEMO_CARD } });
    expect(response.body.message).toBe('Card details retrieved successfully');
    expect(response.body.data).toHaveLength(1);
    // Yesterday's 45.50 and 64.50 count against this month's limit unless today is the 1st.
    const monthlySpent = sandboxDay(t.sandbox).slice(0, 7) === sandboxDay(t.sandbox, -1).slice(0, 7) ? 110 : 0;
    expect(response.body.data[0]).toEqual({
      personalized: true,
      is_personalized: true,
      card_id: DEMO_CARD,
      card_bin: null,
      mode_type: null,
      card_product_id: null,
      available_balance: 500,
      no_pin_payment_amount: null,
      risk_controls: null,
      purpose: 'COMMERCIAL',
      created_at: null,
      card_scheme: 'VISA',
      brand: 'VISA',
      card_currency: 'USD',
      card_number: expect.stringMatching(MASKED),
      form_factor: 'VIRTUAL',
      card_limit: 2000,
      cardholder: {
        cardholder_id: 'chd_demo_ava',
        email: 'ava.chen@acme.example',
        number_of_cards: 2,
        first_name: 'Ava',
        last_name: 'Chen',
        create_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/),
        cardholder_status: 'READY',
        date_of_birth: '1988-03-14',
        country_code: 'US',
        phone_number: '+14155550123',
      },
      spending_controls: [
        { interval: 'PER_TRANSACTION', amount: 500, remaining: 500 },
        { interval: 'MONTHLY', amount: 2000, remaining: 2000 - monthlySpent },
      ],
      authorization_controls: { active_from: null, active_to: null, allowed_currencies: [], allowed_merchant_categories: [] },
      metadata: {},
      card_status: 'ACTIVE',
      cardholder_id: 'chd_demo_ava',
      created_by: 'Jordan Miles',
      name_on_card: 'Ava Chen',
      nick_name: expect.stringMatching(/^Virtual card \d{4}$/),
      program: { purpose: 'COMMERCIAL', type: 'DEBIT' },
      delivery_details: {
        delivery_mode: null,
        delivery_vendor: null,
        status: null,
        tracked: false,
        tracking_link: null,
        tracking_number: null,
        updated_at: null,
      },
      postal_address: null,
    });
  });

  it('needs an id and knows only existing cards', async () => {
    expect((await t.api.get(`${CARD_PATH}/detail`)).body).toEqual(envelopeError(400, 'id is a required parameter and is missing'));
    expect((await t.api.get(`${CARD_PATH}/detail`, { query: { id: 'crd_nope' } })).body).toEqual(
      envelopeError(400, 'Card crd_nope not found'),
    );
  });
});

describe('PATCH /svc/api/v1/card?id=', () => {
  it('changes the given parameters, answers without data, and leaves the rest', async () => {
    const response = await patch(DEMO_CARD, {
      transaction_limits: [{ type: 'DAILY', value: 75 }],
      authorization_controls: {
        allowed_merchant_categories: ['5411', '5812'],
        allowed_currencies: ['USD', 'EUR'],
        active_to: '2099-12-31T23:59:59Z',
      },
      updated_by: 'Jordan Miles',
    });
    expect(response.body).toEqual(doneEnvelope('Card updated successfully'));
    const card = await cardDetail(t.api, DEMO_CARD);
    // Yesterday's purchases are outside today's DAILY window.
    expect(card.spending_controls).toEqual([{ interval: 'DAILY', amount: 75, remaining: 75 }]);
    expect(card.card_limit).toBe(75);
    expect(card.authorization_controls).toEqual({
      active_from: null,
      active_to: '2099-12-31T23:59:59Z',
      allowed_currencies: ['USD', 'EUR'],
      allowed_merchant_categories: ['5411', '5812'],
    });
    expect(card.card_status).toBe('ACTIVE');

    await patch(DEMO_CARD, { authorization_controls: { active_to: null }, updated_by: 'Jordan Miles' });
    expect((await cardDetail(t.api, DEMO_CARD)).authorization_controls).toMatchObject({
      active_to: null,
      allowed_currencies: ['USD', 'EUR'],
    });
  });

  it('moves between ACTIVE and INACTIVE, and CLOSED is final', async () => {
    await patch(DEMO_CARD, { card_status: 'INACTIVE', updated_by: 'Jordan Miles' });
    expect((await cardDetail(t.api, DEMO_CARD)).card_status).toBe('INACTIVE');
    await patch(DEMO_CARD, { card_status: 'ACTIVE', updated_by: 'Jordan Miles' });
    expect((await cardDetail(t.api, DEMO_CARD)).card_status).toBe('ACTIVE');
    expect((await patch(DEMO_CARD, { card_status: 'CLOSED', updated_by: 'Jordan Miles' })).status).toBe(200);
    const reopen = await patch(DEMO_CARD, { card_status: 'ACTIVE', updated_by: 'Jordan Miles' });
    expect(reopen.body).toEqual(envelopeError(400, `Card ${DEMO_CARD} is closed`));
    expect((await patch(DEMO_CARD, { updated_by: 'Jordan Miles' })).body).toEqual(envelopeError(400, `Card ${DEMO_CARD} is closed`));
  });

  it('reads limits in another currency at the mid rate', async () => {
    await patch(DEMO_CARD, { currency: 'EUR', transaction_limits: [{ type: 'ALL_TIME', value: 920 }], updated_by: 'Jordan Miles' });
    // 45.50 + 64.50 USD spent = 101.20 EUR at 0.92.
    expect((await cardDetail(t.api, DEMO_CARD)).spending_controls).toEqual([{ interval: 'ALL_TIME', amount: 920, remaining: 818.8 }]);
  });

  it.each([
    [{ transaction_limits: [{ type: 'DAILY', value: 0 }] }, 'transaction_limits[0].value must be greater than 0'],
    [{ transaction_limits: [{ type: 'DAILY' }] }, 'transaction_limits[0].value is required'],
    [
      { transaction_limits: [{ amount: 5, interval: 'DAILY' }] },
      'transaction_limits[0].type is required; transaction_limits[0].value is required',
    ],
    [
      { transaction_limits: [{ type: 'YEARLY', value: 5 }] },
      'transaction_limits[0].type must be one of PER_TRANSACTION, DAILY, WEEKLY, MONTHLY, ALL_TIME',
    ],
    [{ transaction_limits: [{ type: 'DAILY', value: 5.555 }] }, 'transaction_limits[0].value must have at most 2 decimal place(s) for USD'],
    [
      { authorization_controls: { allowed_merchant_categories: ['54111'] } },
      'authorization_controls.allowed_merchant_categories[0] must be a 4-digit merchant category code',
    ],
    [
      { authorization_controls: { allowed_currencies: ['usd'] } },
      'authorization_controls.allowed_currencies[0] must be a 3-letter ISO-4217 code in capitals',
    ],
    [
      { authorization_controls: { active_from: '2026-12-01' } },
      'authorization_controls.active_from must be a date-time in the form YYYY-MM-DDTHH:mm:ssZ',
    ],
    [
      { authorization_controls: { active_from: '2026-02-30T00:00:00Z' } },
      'authorization_controls.active_from must be a date-time in the form YYYY-MM-DDTHH:mm:ssZ',
    ],
    [
      { authorization_controls: { active_from: '2026-12-01T00:00:00Z', active_to: '2026-11-01T00:00:00Z' } },
      'authorization_controls.active_from must not be after authorization_controls.active_to',
    ],
    [{ card_status: 'LOST' }, 'card_status must be one of ACTIVE, INACTIVE, CLOSED'],
    [{ currency: 'XYZ' }, 'currency XYZ has no exchange rate to the card currency USD'],
  ])('refuses %j: %s', async (body, message) => {
    const response = await patch(DEMO_CARD, { ...body, updated_by: 'Jordan Miles' });
    expect(response.body).toEqual(envelopeError(400, message));
  });

  it('requires updated_by and the id', async () => {
    expect((await patch(DEMO_CARD, {})).body).toEqual(envelopeError(400, 'updated_by is required'));
    const noId = await t.api.send('PATCH', CARD_PATH, { body: { updated_by: 'Jordan Miles' } });
    expect(noId.body).toEqual(envelopeError(400, 'id is a required parameter and is missing'));
  });
});

describe('GET /svc/api/v1/card/transaction?id=', () => {
  const transactions = (query: Record<string, string | number>) =>
    t.api.get(`${CARD_PATH}/transaction`, { query: { id: DEMO_CARD, ...query } });

  it('answers a data object { has_more, items }, newest first', async () => {
    const response = await transactions({});
    expect(response.body.message).toBe('Card transactions retrieved successfully');
    expect(Array.isArray(response.body.data)).toBe(false);
    expect(response.body.data.has_more).toBe(false);
    const items = response.body.data.items;
    expect(items.map((t: Record<string, unknown>) => [t.transaction_type, t.status, t.failure_reason, t.billing_amount])).toEqual([
      ['REFUND', 'APPROVED', null, 10],
      ['PURCHASE', 'DECLINED', 'LIMIT_EXCEEDED', 750],
      ['PURCHASE', 'APPROVED', null, 64.5],
      ['PURCHASE', 'SETTLED', null, 45.5],
    ]);
    const coffee = items[3];
    expect(coffee).toEqual({
      acquiring_institution_identifier: expect.stringMatching(/^\d{6}$/),
      auth_code: expect.stringMatching(/^\d{6}$/),
      billing_amount: 45.5,
      billing_currency: 'USD',
      card_id: DEMO_CARD,
      card_nickname: expect.stringMatching(/^Virtual card \d{4}$/),
      client_data: null,
      digital_wallet_token_id: null,
      failure_reason: null,
      lifecycle_id: expect.stringMatching(/^lfc_[0-9a-f]{16}$/),
      masked_card_number: expect.stringMatching(MASKED),
      matched_authorizations: [],
      merchant: {
        name: 'Blue Bottle Coffee',
        category_code: '5814',
        city: 'San Francisco',
        country: 'US',
        identifier: 'MID100000001',
        postcode: '94105',
        state: 'CA',
      },
      network_transaction_id: expect.stringMatching(/^\d{15}$/),
      posted_date: `${sandboxDay(t.sandbox, -1)}T23:30:00+0000`,
      retrieval_ref: expect.stringMatching(/^\d{12}$/),
      risk_details: { risk_actions_performed: [], risk_factors: [], three_dsecure_outcome: null },
      status: 'SETTLED',
      transaction_amount: 45.5,
      transaction_currency: 'USD',
      transaction_date: `${sandboxDay(t.sandbox, -1)}T22:00:00+0000`,
      transaction_id: expect.stringMatching(/^ctx_[0-9a-f]{16}$/),
      transaction_type: 'PURCHASE',
    });
    expect(items[0]).toMatchObject({ matched_authorizations: [coffee.transaction_id], lifecycle_id: coffee.lifecycle_id });
    expect(items[1]).toMatchObject({ auth_code: null, risk_details: { risk_actions_performed: ['TRANSACTION_BLOCKED'] } });
  });

  it('pages with page_num and page_size', async () => {
    const first = await transactions({ page_size: 3 });
    expect(first.body.data).toMatchObject({ has_more: true });
    expect(first.body.data.items).toHaveLength(3);
    const second = await transactions({ page_size: 3, page_num: 2 });
    expect(second.body.data.has_more).toBe(false);
    expect(second.body.data.items.map((t: { transaction_type: string }) => t.transaction_type)).toEqual(['PURCHASE']);
  });

  it('filters by creation day with from_created_at and to_created_at, given together', async () => {
    const yesterday = sandboxDay(t.sandbox, -1);
    expect((await transactions({ from_created_at: yesterday, to_created_at: yesterday })).body.data.items).toHaveLength(4);
    expect((await transactions({ from_created_at: '2000-01-01', to_created_at: sandboxDay(t.sandbox) })).body.data.items).toHaveLength(4);
    expect(
      (await transactions({ from_created_at: sandboxDay(t.sandbox), to_created_at: sandboxDay(t.sandbox, 1) })).body.data.items,
    ).toEqual([]);
    expect((await transactions({ from_created_at: yesterday })).body).toEqual(
      envelopeError(400, 'from_created_at and to_created_at must be given together'),
    );
    expect((await transactions({ from_created_at: sandboxDay(t.sandbox), to_created_at: yesterday })).body).toEqual(
      envelopeError(400, 'from_created_at must not be after to_created_at'),
    );
    expect((await transactions({ from_created_at: '21-11-2026', to_created_at: yesterday })).body).toEqual(
      envelopeError(400, 'from_created_at must be a date in the form YYYY-MM-DD'),
    );
  });

  it('needs an id and knows only existing cards', async () => {
    expect((await t.api.get(`${CARD_PATH}/transaction`)).body).toEqual(envelopeError(400, 'id is a required parameter and is missing'));
    expect((await transactions({ id: 'crd_nope' })).body).toEqual(envelopeError(400, 'Card crd_nope not found'));
  });
});
