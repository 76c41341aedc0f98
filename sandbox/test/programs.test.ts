import { beforeEach, describe, expect, it } from 'vitest';
import {
  BALANCE_PATH,
  CARD_PATH,
  HISTORY_PATH,
  HOME_ADDRESS,
  KYC_PATH,
  WALLET_PATH,
  call,
  cardDetail,
  cents,
  control,
  createCard,
  doneEnvelope,
  envelopeError,
  issuingHeaders,
  readyCardholder,
  simulate,
  startTestSandbox,
  useSandbox,
  virtualCardBody,
  newEmails,
} from './helpers.ts';

const t = useSandbox();

const useProgram = (program: string) => control(t.sandbox, 'PUT', '/program', { program });
const physicalBody = (cardholderId: string, overrides: Record<string, unknown> = {}) =>
  virtualCardBody(cardholderId, { card_type: 'PHYSICAL', postal_address: HOME_ADDRESS, ...overrides });
const usdBalance = async (): Promise<number> =>
  (await t.api.get(BALANCE_PATH, { query: { currency: 'USD' } })).body.data[0].available_balance;

describe('the program setting', () => {
  it('is CARDS by default, changed with PUT /sandbox/program and restored by a reset', async () => {
    expect((await control(t.sandbox, 'GET', '/program')).body).toEqual({ program: 'CARDS' });
    expect((await useProgram('BANKING')).body).toEqual({ program: 'BANKING' });
    expect((await control(t.sandbox, 'GET', '/program')).body).toEqual({ program: 'BANKING' });
    await control(t.sandbox, 'POST', '/reset');
    expect((await control(t.sandbox, 'GET', '/program')).body).toEqual({ program: 'CARDS' });
  });

  it('refuses an unknown program', async () => {
    const response = await useProgram('RETAIL');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'program must be one of CARDS, BANKING' });
  });

  it('starts from the option, which a reset returns to', async () => {
    const banking = await startTestSandbox({ program: 'BANKING' });
    try {
      expect((await control(banking, 'GET', '/program')).body).toEqual({ program: 'BANKING' });
      await control(banking, 'PUT', '/program', { program: 'CARDS' });
      banking.reset();
      expect((await control(banking, 'GET', '/program')).body).toEqual({ program: 'BANKING' });
    } finally {
      await banking.close();
    }
  });
});

describe('the Cards program', () => {
  it('creates virtual cards only: physical ones come from Assign Card', async () => {
    const response = await t.api.send('POST', CARD_PATH, { body: physicalBody('chd_demo_ava') });
    expect(response.body).toEqual(envelopeError(400, 'Physical card creation is not supported for the CARDS program'));
    // Said before the body's own rules, which a Cards client cannot meet anyway.
    const bare = await t.api.send('POST', CARD_PATH, { body: { card_type: 'PHYSICAL' } });
    expect(bare.body.message).toBe('Physical card creation is not supported for the CARDS program');
  });

  it('shows the wallet amount as available_balance', async () => {
    expect((await cardDetail(t.api, 'crd_demo_ava_v')).available_balance).toBe(500);
  });
});

describe('the Banking program', () => {
  beforeEach(async () => {
    await useProgram('BANKING');
  });

  it.each([
    ['Assign Card', 'POST', `${CARD_PATH}/assign`, {}],
    ['Reset PIN', 'POST', `${CARD_PATH}/pin`, { id: 'crd_demo_ava_v' }],
    ['Load Card', 'POST', `${CARD_PATH}/recharge`, { id: 'crd_demo_ava_v' }],
  ])('does not offer %s', async (operation, method, path, query) => {
    const response = await t.api.send(method, path, { query, body: {} });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(envelopeError(400, `${operation} is not supported for the BANKING program`));
  });

  it.each([
    ['Create Wallet', 'POST', WALLET_PATH, 'wallet'],
    ['Get Wallet Details', 'GET', WALLET_PATH, 'wallet'],
    ['Wallet history', 'GET', `${WALLET_PATH}/history`, 'wallet'],
    ['Get Cardholder KYC', 'GET', KYC_PATH, 'kyc'],
    ['Get RFI Details', 'GET', `${KYC_PATH}/rfi`, 'kyc'],
    ['Respond to RFI', 'GET', `${KYC_PATH}/rfi/respond`, 'kyc'],
  ] as const)('does not offer %s', async (operation, method, path, family) => {
    const headers = issuingHeaders(family, 'chd_demo_ava', { 'x-wallet-id': 'wal_demo_ava' });
    const response = await call(t.sandbox, path, { method, headers, ...(method === 'POST' ? { body: { currency: 'USD' } } : {}) });
    expect(response.body).toEqual(envelopeError(400, `${operation} is not supported for the BANKING program`));
  });

  it('creates physical cards: INACTIVE, shipped, with an activation e-mail', async () => {
    const id = await createCard(t.api, physicalBody('chd_demo_ava'));
    const card = await cardDetail(t.api, id);
    expect(card).toMatchObject({
      form_factor: 'PHYSICAL',
      card_status: 'INACTIVE',
      available_balance: null,
      postal_address: { ...HOME_ADDRESS, line2: null },
      delivery_details: {
        delivery_mode: 'COURIER',
        delivery_vendor: 'Sandbox Express',
        status: 'PRINTED',
        tracked: true,
        tracking_number: expect.stringMatching(/^SBX\d{10}$/),
      },
    });
    expect(card.delivery_details.tracking_link).toBe(`https://track.sandbox.example/${card.delivery_details.tracking_number}`);
    const emails = await newEmails(t.sandbox);
    expect(emails).toEqual([expect.objectContaining({ to: 'ava.chen@acme.example', kind: 'card_activation', cardId: id })]);
    expect((await t.api.get(CARD_PATH, { query: { id } })).body.data[0].cardType).toBe('PHY');
  });

  it('activates a created physical card without code or PIN, but checks a code that is sent', async () => {
    const first = await createCard(t.api, physicalBody('chd_demo_ava'));
    expect((await t.api.send('POST', `${CARD_PATH}/activate`, { query: { id: first }, body: {} })).body).toEqual(
      doneEnvelope('Card activated successfully'),
    );
    expect((await cardDetail(t.api, first)).card_status).toBe('ACTIVE');
    const second = await createCard(t.api, physicalBody('chd_demo_ava'));
    const code = (await newEmails(t.sandbox))[1]!.activationCode as string;
    const wrong = code === '000000' ? '111111' : '000000';
    const refused = await t.api.send('POST', `${CARD_PATH}/activate`, { query: { id: second }, body: { activation_code: wrong } });
    expect(refused.body).toEqual(envelopeError(400, 'activation_code is incorrect'));
    const accepted = await t.api.send('POST', `${CARD_PATH}/activate`, {
      query: { id: second },
      body: { activation_code: code, pin: '246810' },
    });
    expect(accepted.status).toBe(200);
  });

  it.each([
    [{ postal_address: undefined }, 'postal_address is required for a PHYSICAL card'],
    [{ is_personalized: false }, 'Only personalized cards can be physical'],
    [{ postal_address: { ...HOME_ADDRESS, line1: undefined } }, 'postal_address.line1 is required'],
  ])('refuses the physical card %j: %s', async (overrides, message) => {
    expect((await t.api.send('POST', CARD_PATH, { body: physicalBody('chd_demo_ava', overrides) })).body).toEqual(
      envelopeError(400, message),
    );
  });

  it('has no eKYC gate', async () => {
    const holder = await readyCardholder(t.sandbox, t.api, { kyc: false });
    const response = await holder.api.send('POST', CARD_PATH, { body: virtualCardBody(holder.id) });
    expect(response.status).toBe(200);
  });

  it('spends the business balance: purchase and refund in the balance history', async () => {
    const before = await usdBalance();
    const purchase = (await simulate(t.sandbox, 'crd_demo_ava_v', { kind: 'authorization', amount: 42.1 })).body.transaction;
    expect(purchase).toMatchObject({ status: 'APPROVED', billing_amount: 42.1 });
    expect(cents(await usdBalance())).toBe(cents(before) - 4_210);
    const debit = (await t.api.get(HISTORY_PATH)).body.data[0];
    expect(debit).toMatchObject({ amount: -42.1, currency: 'USD', source_type: 'CARD', transaction_type: 'CARD_PURCHASE' });
    expect(debit.description).toMatch(/^Card purchase at Sandbox Coffee Roasters \(428839\*{6}\d{4}\)$/);

    await simulate(t.sandbox, 'crd_demo_ava_v', { kind: 'refund', amount: 2.1, transaction_id: purchase.transaction_id });
    expect(cents(await usdBalance())).toBe(cents(before) - 4_000);
    expect((await t.api.get(HISTORY_PATH)).body.data[0]).toMatchObject({
      amount: 2.1,
      source_type: 'CARD',
      transaction_type: 'CARD_REFUND',
    });
    // The wallet is not touched.
    expect(t.sandbox.store.wallets.get('wal_demo_ava')?.amount).toBe(500);
  });

  it('declines for insufficient funds when the business holds none of the card currency', async () => {
    const jpyLimits = { allowed_transaction_count: 'MULTIPLE', transaction_limits: { currency: 'JPY', limits: [] } };
    const id = await createCard(t.api, virtualCardBody('chd_demo_ava', { authorization_controls: jpyLimits }));
    const declined = (await simulate(t.sandbox, id, { kind: 'authorization', amount: 1000 })).body.transaction;
    expect(declined).toMatchObject({ status: 'DECLINED', failure_reason: 'INSUFFICIENT_FUNDS', billing_currency: 'JPY' });
  });
});
