import { describe, expect, it } from 'vitest';
import { TOKEN_ERROR, WALLET_PATH, call, envelopeError, issuingHeaders, readyCardholder, sandboxDay, useSandbox } from './helpers.ts';

const t = useSandbox();

const API_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/;

const getWallet = (cardholderId: string, overrides: Record<string, string | undefined> = {}) =>
  call(t.sandbox, WALLET_PATH, { headers: issuingHeaders('wallet', cardholderId, overrides) });
const createWallet = (cardholderId: string, body: unknown, overrides: Record<string, string | undefined> = {}) =>
  call(t.sandbox, WALLET_PATH, { method: 'POST', headers: issuingHeaders('wallet', cardholderId, overrides), body });
const history = (query: Record<string, string | number> = {}, walletId = 'wal_demo_ava', cardholderId = 'chd_demo_ava') =>
  call(t.sandbox, `${WALLET_PATH}/history`, { query, headers: issuingHeaders('wallet', cardholderId, { 'x-wallet-id': walletId }) });

describe('wallet headers (section 4.3)', () => {
  it('need no Authorization and no x-user-id', async () => {
    expect((await getWallet('chd_demo_ava')).status).toBe(200);
  });

  it('accept a valid bearer token and refuse an invalid one', async () => {
    expect((await getWallet('chd_demo_ava', { authorization: `Bearer ${t.api.token}` })).status).toBe(200);
    const bad = await getWallet('chd_demo_ava', { authorization: 'Bearer not-a-token' });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual(TOKEN_ERROR);
  });

  it.each(['x-api-key', 'x-product-id', 'x-cardholder-id', 'x-request-id', 'Content-Type'])('name a missing %s', async (name) => {
    const response = await getWallet('chd_demo_ava', { [name.toLowerCase()]: undefined });
    expect(response.body).toEqual(envelopeError(400, `${name} is a required header and is missing`));
  });

  it('check the t.api key and product id, and take x-client-id as optional', async () => {
    expect((await getWallet('chd_demo_ava', { 'x-api-key': 'other' })).status).toBe(401);
    expect((await getWallet('chd_demo_ava', { 'x-product-id': 'other' })).body).toEqual(envelopeError(400, 'x-product-id is invalid'));
    expect((await getWallet('chd_demo_ava', { 'x-client-id': 'any-client' })).status).toBe(200);
  });

  it('need x-wallet-id for the history', async () => {
    const response = await call(t.sandbox, `${WALLET_PATH}/history`, { headers: issuingHeaders('wallet', 'chd_demo_ava') });
    expect(response.body).toEqual(envelopeError(400, 'x-wallet-id is a required header and is missing'));
  });
});

describe('POST /issuing/api/v1/wallet', () => {
  it('creates one ACTIVE wallet for a READY, verified cardholder: data [Wallet]', async () => {
    const holder = await readyCardholder(t.sandbox, t.api);
    const response = await createWallet(holder.id, { currency: 'EUR' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      code: 200,
      status: 'success',
      message: 'Wallet created successfully',
      data: [
        {
          id: expect.stringMatching(/^wal_[0-9a-f]{16}$/),
          currency: 'EUR',
          amount: 0,
          holdingCurrency: 'EUR',
          holdingAmount: 0,
          dailyLimitAmount: 0,
          weeklyLimitAmount: 0,
          monthlyLimitAmount: 0,
          yearlyLimitAmount: 0,
          totalLimitAmount: 0,
          status: 'ACTIVE',
          createdAt: expect.stringMatching(API_TIME),
        },
      ],
    });
    expect((await createWallet(holder.id, { currency: 'EUR' })).body).toEqual(
      envelopeError(400, `Cardholder ${holder.id} already has a wallet in EUR`),
    );
    expect((await getWallet(holder.id)).body.data).toEqual(response.body.data);
    // Create Wallet takes a currency and Get Wallet answers an array: a second currency is a second wallet.
    const usd = await createWallet(holder.id, { currency: 'USD' });
    expect(usd.body.data).toEqual([expect.objectContaining({ currency: 'USD', status: 'ACTIVE' })]);
    expect((await getWallet(holder.id)).body.data).toEqual([...response.body.data, ...usd.body.data]);
  });

  it('replays the same x-request-id instead of refusing a second wallet', async () => {
    const holder = await readyCardholder(t.sandbox, t.api);
    const first = await createWallet(holder.id, { currency: 'USD' }, { 'x-request-id': 'wallet-once' });
    const again = await createWallet(holder.id, { currency: 'USD' }, { 'x-request-id': 'wallet-once' });
    expect(again.body).toEqual(first.body);
  });

  it('refuses a PENDING, unknown or unverified cardholder and a bad currency', async () => {
    expect((await createWallet('chd_demo_new', { currency: 'USD' })).body).toEqual(
      envelopeError(400, 'Cardholder chd_demo_new is not READY'),
    );
    expect((await createWallet('chd_ghost', { currency: 'USD' })).body).toEqual(envelopeError(400, 'Cardholder chd_ghost not found'));
    expect((await createWallet('chd_demo_ops', { currency: 'usd' })).body).toEqual(
      envelopeError(400, 'currency must be a 3-letter ISO-4217 code in capitals'),
    );
    expect((await createWallet('chd_demo_ops', {})).body).toEqual(envelopeError(400, 'currency is required'));
    const holder = await readyCardholder(t.sandbox, t.api, { kyc: false });
    expect((await createWallet(holder.id, { currency: 'USD' })).body).toEqual(
      envelopeError(400, 'eKYC must be completed before wallet creation'),
    );
  });
});

describe('GET /issuing/api/v1/wallet', () => {
  it("answers the cardholder's wallet as a one-element array", async () => {
    const response = await getWallet('chd_demo_ava');
    expect(response.body.message).toBe('Wallet retrieved successfully');
    expect(response.body.data).toEqual([
      expect.objectContaining({
        id: 'wal_demo_ava',
        currency: 'USD',
        amount: 500,
        holdingAmount: 500,
        holdingCurrency: 'USD',
        status: 'ACTIVE',
      }),
    ]);
  });

  it('answers a cardholder without a wallet with an empty array (data: [])', async () => {
    expect((await getWallet('chd_demo_ops')).body).toEqual({
      code: 200,
      status: 'success',
      message: 'No wallet found for the cardholder',
      data: [],
    });
  });
});

describe('GET /issuing/api/v1/wallet/history', () => {
  it('lists the entries of section 2.6, newest first', async () => {
    const response = await history();
    expect(response.body.message).toBe('Wallet history retrieved successfully');
    const entries = response.body.data;
    expect(
      entries.map((e: Record<string, unknown>) => [e.genericSlNo, e.txn_type, e.txn_direction, e.txn_amount, e.available_amount]),
    ).toEqual([
      [4, 'REFUND', 'CREDIT', 10, 500],
      [3, 'PURCHASE', 'DEBIT', 64.5, 490],
      [2, 'PURCHASE', 'DEBIT', 45.5, 554.5],
      [1, 'LOAD', 'CREDIT', 600, 600],
    ]);
    expect(entries[3]).toEqual({
      genericSlNo: 1,
      slNo: 'demo_ava-000001',
      wallet_id: 'wal_demo_ava',
      programCode: 'CARDS',
      txn_currency: 'USD',
      txn_amount: 600,
      available_amount: 600,
      available_currency: 'USD',
      acquirer_amount: '600.00',
      acquirer_currency: 'USD',
      txn_type: 'LOAD',
      txn_direction: 'CREDIT',
      txn_ref_id: expect.stringMatching(/^bh_[0-9a-f]{16}$/),
      txn_email: 'ava.chen@acme.example',
      txn_description: expect.stringMatching(/^Load to card 428839\*{6}\d{4}$/),
      txn_status: 'SUCCESS',
      card_acceptor_name: '',
      card_id: 'crd_demo_ava_v',
      initiated_by: 'BUSINESS',
      settle_amount: 600,
      settle_currency: 'USD',
      billing_amount: 600,
      billing_currency: 'USD',
      initiatedAt: `${sandboxDay(t.sandbox, -1)}T21:30:00+0000`,
      updatedAt: null,
    });
    expect(typeof entries[0].acquirer_amount).toBe('string');
    expect(entries[2].updatedAt).toBe(`${sandboxDay(t.sandbox, -1)}T23:30:00+0000`);
  });

  it('pages with page and size', async () => {
    const second = await history({ page: 2, size: 3 });
    expect(second.body.data.map((e: { genericSlNo: number }) => e.genericSlNo)).toEqual([1]);
    expect((await history({ size: 0 })).body).toEqual(envelopeError(400, 'size must be at least 1'));
  });

  it('filters by days or date-times, both bounds inclusive and given together', async () => {
    const yesterday = sandboxDay(t.sandbox, -1);
    expect((await history({ from_date: yesterday, to_date: yesterday })).body.data).toHaveLength(4);
    const window = await history({ from_date: `${yesterday}T22:00:00`, to_date: `${yesterday}T22:30:00` });
    expect(window.body.data.map((e: { genericSlNo: number }) => e.genericSlNo)).toEqual([3, 2]);
    expect((await history({ from_date: sandboxDay(t.sandbox), to_date: sandboxDay(t.sandbox) })).body.data).toEqual([]);
    // Either bound alone (Document 2, 4.3: all optional) leaves the other side open.
    expect((await history({ from_date: yesterday })).body.data.map((e: { genericSlNo: number }) => e.genericSlNo)).toEqual(
      (await history({ from_date: yesterday, to_date: sandboxDay(t.sandbox, 1) })).body.data.map(
        (e: { genericSlNo: number }) => e.genericSlNo,
      ),
    );
    expect((await history({ to_date: `${yesterday}T22:30:00` })).body.data.map((e: { genericSlNo: number }) => e.genericSlNo)).toEqual(
      expect.arrayContaining([3, 2]),
    );
    expect((await history({ to_date: `${yesterday}T22:30:00` })).body.data.every((e: { genericSlNo: number }) => e.genericSlNo <= 3)).toBe(
      true,
    );
    expect((await history({ from_date: sandboxDay(t.sandbox), to_date: yesterday })).body).toEqual(
      envelopeError(400, 'from_date must not be after to_date'),
    );
    expect((await history({ from_date: `${yesterday} 22:00`, to_date: yesterday })).body).toEqual(
      envelopeError(400, 'from_date must be a date YYYY-MM-DD or a date-time yyyy-MM-ddTHH:mm:ss'),
    );
  });

  it("needs the cardholder's own wallet", async () => {
    expect((await history({}, 'wal_other')).body).toEqual(envelopeError(400, 'Wallet wal_other not found for cardholder chd_demo_ava'));
    expect((await history({}, 'wal_demo_ava', 'chd_demo_ops')).body).toEqual(
      envelopeError(400, 'Wallet wal_demo_ava not found for cardholder chd_demo_ops'),
    );
  });
});
