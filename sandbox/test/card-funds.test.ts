import { describe, expect, it } from 'vitest';
import {
  BALANCE_PATH,
  CARD_PATH,
  HISTORY_PATH,
  WALLET_PATH,
  call,
  cardDetail,
  cents,
  createCard,
  doneEnvelope,
  envelopeError,
  issuingHeaders,
  readyCardholder,
  simulate,
  useSandbox,
  virtualCardBody,
} from './helpers.ts';

const t = useSandbox();

const CARD = 'crd_demo_ava_v';

const recharge = (id: string, body: Record<string, unknown>) => t.api.send('POST', `${CARD_PATH}/recharge`, { query: { id }, body });
const usdBalance = async (): Promise<number> =>
  (await t.api.get(BALANCE_PATH, { query: { currency: 'USD' } })).body.data[0].available_balance;
const latestHistory = async () => (await t.api.get(HISTORY_PATH)).body.data[0];
const wallet = async (cardholderId = 'chd_demo_ava') =>
  (await call(t.sandbox, WALLET_PATH, { headers: issuingHeaders('wallet', cardholderId) })).body.data[0];
const walletHistory = async (walletId = 'wal_demo_ava', cardholderId = 'chd_demo_ava') =>
  (await call(t.sandbox, `${WALLET_PATH}/history`, { headers: issuingHeaders('wallet', cardholderId, { 'x-wallet-id': walletId }) })).body
    .data;
const authorize = async (amount: number, extra: Record<string, unknown> = {}, card = CARD) => {
  const response = await simulate(t.sandbox, card, { kind: 'authorization', amount, ...extra });
  expect(response.status).toBe(200);
  return response.body.transaction;
};
const updateCard = (body: Record<string, unknown>, id = CARD) =>
  t.api.send('PATCH', CARD_PATH, { query: { id }, body: { updated_by: 'Jordan Miles', ...body } });

describe('POST /svc/api/v1/card/recharge?id=', () => {
  it('moves the amount from the business balance into the wallet, with history on both', async () => {
    const before = await usdBalance();
    const response = await recharge(CARD, { amount: 125.5 });
    expect(response.body).toEqual(doneEnvelope('Card recharged successfully'));
    expect(cents(await usdBalance())).toBe(cents(before) - 12_550);
    const entry = await latestHistory();
    expect(entry).toMatchObject({
      amount: -125.5,
      currency: 'USD',
      fee: 0,
      source_type: 'CARD',
      transaction_type: 'CARD_LOAD',
      balance: await usdBalance(),
    });
    expect(entry.description).toMatch(/^Card load to 428839\*{6}\d{4}$/);
    expect(await wallet()).toMatchObject({ amount: 625.5, holdingAmount: 625.5 });
    const [load] = await walletHistory();
    expect(load).toMatchObject({
      genericSlNo: 5,
      txn_type: 'LOAD',
      txn_direction: 'CREDIT',
      txn_status: 'SUCCESS',
      txn_amount: 125.5,
      available_amount: 625.5,
      acquirer_amount: '125.50',
      txn_ref_id: entry.id,
      card_id: CARD,
      initiated_by: 'BUSINESS',
    });
  });

  it.each([
    [{ amount: 0 }, 'amount must be greater than 0'],
    [{ amount: -1 }, 'amount must be greater than 0'],
    [{}, 'amount is required'],
    [{ amount: '10' }, 'amount must be a number'],
    [{ amount: 1.005 }, 'amount must have at most 2 decimal place(s) for USD'],
  ])('refuses %j: %s', async (body, message) => {
    expect((await recharge(CARD, body)).body).toEqual(envelopeError(400, message));
  });

  it('needs a wallet in the card currency and a balance that covers the amount', async () => {
    const opsCard = await createCard(t.api, virtualCardBody('chd_demo_ops', { is_personalized: false }));
    expect((await recharge(opsCard, { amount: 10 })).body).toEqual(envelopeError(400, 'Cardholder chd_demo_ops has no wallet in USD'));
    const before = await usdBalance();
    expect((await recharge(CARD, { amount: 99_000_000 })).body).toEqual(envelopeError(400, 'Insufficient funds in USD balance'));
    expect(await usdBalance()).toBe(before);
    expect((await wallet()).amount).toBe(500);
  });

  it('refuses a closed card and a missing id', async () => {
    await updateCard({ card_status: 'CLOSED' });
    expect((await recharge(CARD, { amount: 10 })).body).toEqual(envelopeError(400, `Card ${CARD} is closed`));
    const noId = await t.api.send('POST', `${CARD_PATH}/recharge`, { body: { amount: 10 } });
    expect(noId.body).toEqual(envelopeError(400, 'id is a required parameter and is missing'));
  });
});

describe('card activity simulation (Cards program: the wallet pays)', () => {
  it('approves an authorization: wallet debited at once, limits reduced', async () => {
    await updateCard({
      transaction_limits: [
        { type: 'PER_TRANSACTION', value: 500 },
        { type: 'DAILY', value: 100 },
      ],
    });
    const transaction = await authorize(20, { merchant: { name: 'Corner Deli', category_code: '5411', city: 'Oakland', country: 'US' } });
    expect(transaction).toMatchObject({
      transaction_type: 'PURCHASE',
      status: 'APPROVED',
      failure_reason: null,
      transaction_amount: 20,
      billing_amount: 20,
      posted_date: null,
      merchant: {
        name: 'Corner Deli',
        category_code: '5411',
        city: 'Oakland',
        country: 'US',
        identifier: expect.stringMatching(/^MID\d{9}$/),
      },
    });
    expect((await wallet()).amount).toBe(480);
    expect((await walletHistory())[0]).toMatchObject({
      txn_type: 'PURCHASE',
      txn_direction: 'DEBIT',
      txn_status: 'APPROVED',
      txn_amount: 20,
      available_amount: 480,
      txn_ref_id: transaction.transaction_id,
      card_acceptor_name: 'Corner Deli',
      updatedAt: null,
    });
    expect((await cardDetail(t.api, CARD)).spending_controls).toEqual([
      { interval: 'PER_TRANSACTION', amount: 500, remaining: 500 },
      { interval: 'DAILY', amount: 100, remaining: 80 },
    ]);
    const listed = await t.api.get(`${CARD_PATH}/transaction`, { query: { id: CARD, page_size: 1 } });
    expect(listed.body.data.items).toEqual([transaction]);
  });

  it('settles an authorization: SETTLED with a posted date, no second debit', async () => {
    const authorization = await authorize(30);
    const response = await simulate(t.sandbox, CARD, { kind: 'settlement', transaction_id: authorization.transaction_id });
    expect(response.body.transaction).toMatchObject({
      transaction_id: authorization.transaction_id,
      status: 'SETTLED',
      posted_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/),
    });
    expect((await wallet()).amount).toBe(470);
    expect((await walletHistory())[0].updatedAt).toBe(response.body.transaction.posted_date);
    const again = await simulate(t.sandbox, CARD, { kind: 'settlement', transaction_id: authorization.transaction_id });
    expect(again.body).toEqual({ error: `Transaction ${authorization.transaction_id} is SETTLED: only APPROVED authorizations settle` });
  });

  it('refunds: a new APPROVED REFUND credited back, at most what was authorized', async () => {
    const authorization = await authorize(40);
    const response = await simulate(t.sandbox, CARD, { kind: 'refund', amount: 15, transaction_id: authorization.transaction_id });
    expect(response.body.transaction).toMatchObject({
      transaction_type: 'REFUND',
      status: 'APPROVED',
      transaction_amount: 15,
      matched_authorizations: [authorization.transaction_id],
      lifecycle_id: authorization.lifecycle_id,
      merchant: authorization.merchant,
    });
    expect((await wallet()).amount).toBe(475);
    expect((await walletHistory())[0]).toMatchObject({
      txn_type: 'REFUND',
      txn_direction: 'CREDIT',
      txn_status: 'APPROVED',
      txn_amount: 15,
    });
    const tooMuch = await simulate(t.sandbox, CARD, { kind: 'refund', amount: 25.01, transaction_id: authorization.transaction_id });
    expect(tooMuch.body).toEqual({ error: `amount exceeds what is left to refund of transaction ${authorization.transaction_id}` });
    expect((await simulate(t.sandbox, CARD, { kind: 'refund', amount: 5 })).body.transaction.matched_authorizations).toEqual([]);
  });

  it('declines for insufficient funds and moves nothing', async () => {
    await updateCard({ transaction_limits: [{ type: 'PER_TRANSACTION', value: 1000 }] });
    const transaction = await authorize(500.01);
    expect(transaction).toMatchObject({ status: 'DECLINED', failure_reason: 'INSUFFICIENT_FUNDS', auth_code: null });
    expect(transaction.risk_details.risk_actions_performed).toEqual([]);
    expect((await wallet()).amount).toBe(500);
    expect(await walletHistory()).toHaveLength(4);
    expect((await authorize(500)).status).toBe('APPROVED');
  });

  it('declines over a limit: per transaction, then what is left of the day', async () => {
    expect(await authorize(500.01)).toMatchObject({ status: 'DECLINED', failure_reason: 'LIMIT_EXCEEDED' });
    await updateCard({ transaction_limits: [{ type: 'DAILY', value: 50 }] });
    expect((await authorize(30)).status).toBe('APPROVED');
    expect(await authorize(20.01)).toMatchObject({
      status: 'DECLINED',
      failure_reason: 'LIMIT_EXCEEDED',
      risk_details: { risk_actions_performed: ['TRANSACTION_BLOCKED'] },
    });
    expect((await authorize(20)).status).toBe('APPROVED');
    expect((await cardDetail(t.api, CARD)).spending_controls).toEqual([{ interval: 'DAILY', amount: 50, remaining: 0 }]);
    expect((await wallet()).amount).toBe(450);
  });

  it('declines an inactive card, and outside the authorization controls', async () => {
    await updateCard({ card_status: 'INACTIVE' });
    expect((await authorize(5)).failure_reason).toBe('CARD_INACTIVE');
    await updateCard({
      card_status: 'ACTIVE',
      authorization_controls: { allowed_merchant_categories: ['5411'], allowed_currencies: ['USD'] },
    });
    expect((await authorize(5)).failure_reason).toBe('TRANSACTION_NOT_ALLOWED'); // the default merchant is a 5814
    const grocer = { name: 'Grocer', category_code: '5411', city: 'Oakland', country: 'US' };
    expect((await authorize(5, { merchant: grocer })).status).toBe('APPROVED');
    expect((await authorize(5, { merchant: grocer, currency: 'EUR' })).failure_reason).toBe('TRANSACTION_NOT_ALLOWED');
    await updateCard({ authorization_controls: { active_to: '2020-01-01T00:00:00Z' } });
    expect((await authorize(5, { merchant: grocer })).failure_reason).toBe('TRANSACTION_NOT_ALLOWED');
  });

  it('bills a foreign-currency purchase in the card currency', async () => {
    const transaction = await authorize(92, { currency: 'EUR' });
    expect(transaction).toMatchObject({
      status: 'APPROVED',
      transaction_amount: 92,
      transaction_currency: 'EUR',
      billing_amount: 100,
      billing_currency: 'USD',
    });
    expect((await walletHistory())[0]).toMatchObject({ txn_amount: 100, acquirer_amount: '92.00', acquirer_currency: 'EUR' });
  });

  it('allows one successful debit on a SINGLE card', async () => {
    const holder = await readyCardholder(t.sandbox, t.api);
    await call(t.sandbox, WALLET_PATH, { method: 'POST', headers: issuingHeaders('wallet', holder.id), body: { currency: 'USD' } });
    const single = virtualCardBody(holder.id, {
      authorization_controls: { allowed_transaction_count: 'SINGLE', transaction_limits: { currency: 'USD', limits: [] } },
    });
    const id = await createCard(holder.api, single);
    await holder.api.send('POST', `${CARD_PATH}/recharge`, { query: { id }, body: { amount: 50 } });
    expect((await authorize(60, {}, id)).failure_reason).toBe('INSUFFICIENT_FUNDS');
    expect((await authorize(10, {}, id)).status).toBe('APPROVED');
    expect(await authorize(10, {}, id)).toMatchObject({ status: 'DECLINED', failure_reason: 'CARD_USAGE_EXCEEDED' });
  });

  it.each([
    [{ kind: 'authorization' }, 'amount is required for authorization'],
    [{ kind: 'settlement' }, 'transaction_id is required for settlement'],
    [{ kind: 'chargeback', amount: 1 }, 'kind must be one of authorization, settlement, refund'],
    [{ kind: 'authorization', amount: 1, currency: 'XYZ' }, 'currency XYZ has no exchange rate to the card currency USD'],
    [
      { kind: 'authorization', amount: 1, merchant: { name: 'X', category_code: '58', city: 'Y', country: 'US' } },
      'merchant.category_code must be 4 digits',
    ],
    [{ kind: 'settlement', transaction_id: 'ctx_nope' }, `Transaction ctx_nope is not an authorization of card ${CARD}`],
  ])('refuses the simulation %j', async (body, error) => {
    const response = await simulate(t.sandbox, CARD, body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error });
  });

  it('knows only existing cards', async () => {
    expect((await simulate(t.sandbox, 'crd_nope', { kind: 'authorization', amount: 1 })).body).toEqual({
      error: 'Card crd_nope not found',
    });
  });
});
