import { describe, expect, it } from 'vitest';
import { ACCOUNT_PATH, BALANCE_PATH, envelopeError, useSandbox } from './helpers.ts';

const t = useSandbox();

const ACCOUNT_KEYS = [
  'account_holder_name',
  'account_number',
  'account_type',
  'country_code',
  'iban',
  'id',
  'institution',
  'label',
  'required_features',
  'status',
  'supported_features',
  'swift_code',
];

const gbpBody = {
  type: 'virtual_account',
  country: 'GB',
  currency: 'GBP',
  label: 'Payroll UK',
  required_features: [
    { currency: 'GBP', transfer_method: 'LOCAL' },
    { currency: 'GBP', transfer_method: 'SWIFT' },
  ],
};

const create = (body: unknown) => t.api.send('POST', ACCOUNT_PATH, { body });

function ibanIsValid(iban: string): boolean {
  const rearranged = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  return [...rearranged].reduce((remainder, digit) => (remainder * 10 + Number(digit)) % 97, 0) === 1;
}

describe('POST /svc/api/v1/account', () => {
  it('opens an ACTIVE account with every field of section 2.3', async () => {
    const response = await create(gbpBody);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ code: 200, status: 'success', message: 'Account created successfully' });
    expect(response.body.data).toHaveLength(1);
    const account = response.body.data[0];

    expect(Object.keys(account).sort()).toEqual(ACCOUNT_KEYS);
    expect(account.id).toMatch(/^acc_[0-9a-f]{16}$/);
    expect(account).toMatchObject({
      status: 'ACTIVE',
      account_holder_name: 'Acme Trading Ltd',
      label: 'Payroll UK',
      account_type: 'virtual_account',
      country_code: 'GB',
      swift_code: 'TCBKGB2L',
      required_features: gbpBody.required_features,
    });
    expect(account.account_number).toMatch(/^\d{8}$/);
    expect(account.institution).toEqual({ name: 'Thames Clearing Bank plc', address: '1 Poultry', city: 'London', zip_code: 'EC2R 8EJ' });
    expect(account.supported_features).toEqual([
      {
        currency: 'GBP',
        local_clearing_system: 'BANK_TRANSFER',
        transfer_method: 'LOCAL',
        type: 'DEPOSIT',
        routing_codes: [{ type: 'bank_code', value: '990012' }],
      },
      {
        currency: 'GBP',
        local_clearing_system: null,
        transfer_method: 'SWIFT',
        type: 'DEPOSIT',
        routing_codes: [{ type: 'swift', value: 'TCBKGB2L' }],
      },
    ]);
    expect(account.iban).toMatch(new RegExp(`^GB\\d{2}TCBK990012${account.account_number}$`));
    expect(ibanIsValid(account.iban)).toBe(true);

    const listed = await t.api.get(ACCOUNT_PATH, { query: { id: account.id } });
    expect(listed.body.data).toEqual([account]);
  });

  it('gives a LOCAL-only SGD account FAST with bank and branch codes, no SWIFT code, no IBAN, an empty label', async () => {
    const response = await create({
      type: 'virtual_account',
      country: 'SG',
      currency: 'SGD',
      required_features: [{ currency: 'SGD', transfer_method: 'LOCAL' }],
    });
    const account = response.body.data[0];
    expect(account).toMatchObject({ label: '', swift_code: null, iban: null, country_code: 'SG' });
    expect(account.supported_features).toEqual([
      {
        currency: 'SGD',
        local_clearing_system: 'FAST',
        transfer_method: 'LOCAL',
        type: 'DEPOSIT',
        routing_codes: [
          { type: 'bank_code', value: '7999' },
          { type: 'branch_code', value: '001' },
        ],
      },
    ]);
  });

  it('opens a zero balance for a new currency and uses the fallback institution for other countries', async () => {
    const response = await create({
      type: 'virtual_account',
      country: 'NZ',
      currency: 'NZD',
      required_features: [{ currency: 'NZD', transfer_method: 'SWIFT' }],
    });
    expect(response.body.data[0].institution.name).toBe('Sandbox International Bank S.A.');
    const balance = await t.api.get(BALANCE_PATH, { query: { currency: 'NZD' } });
    expect(balance.body.data).toEqual([{ currency: 'NZD', available_balance: 0, pending_amount: 0, reserved_amount: 0 }]);
  });

  it('rejects any other type with the documented message', async () => {
    const response = await create({ ...gbpBody, type: 'global_account' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(envelopeError(400, 'Invalid account type: must be virtual_account'));
  });

  it.each([
    [{ ...gbpBody, currency: undefined }, 'currency is required'],
    [{ ...gbpBody, currency: 'gbp' }, 'currency must be a 3-letter ISO-4217 code in capitals'],
    [{ ...gbpBody, country: 'GBR' }, 'country must be a 2-letter country code in capitals'],
    [{ ...gbpBody, type: undefined }, 'type is required'],
    [{ ...gbpBody, label: 7 }, 'label must be a string'],
    [{ ...gbpBody, required_features: [] }, 'required_features must contain at least 1 item(s)'],
    [{ ...gbpBody, required_features: 'LOCAL' }, 'required_features must be an array'],
    [
      { ...gbpBody, required_features: [{ currency: 'GBP', transfer_method: 'WIRE' }] },
      'required_features[0].transfer_method must be one of LOCAL, SWIFT',
    ],
    [
      { ...gbpBody, required_features: [{ currency: 'GBP', transfer_method: 'LOCAL' }, { transfer_method: 'SWIFT' }] },
      'required_features[1].currency is required',
    ],
  ])('names the field and the rule: %j', async (body, message) => {
    const response = await create(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(envelopeError(400, message));
  });

  it('reports every invalid field at once', async () => {
    const response = await create({ type: 'virtual_account', required_features: [] });
    expect(response.body.message).toBe('country is required; currency is required; required_features must contain at least 1 item(s)');
  });

  it('rejects a body that is not JSON', async () => {
    const response = await t.api.send('POST', ACCOUNT_PATH, { rawBody: '{"type": "virtual_account",' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(envelopeError(400, 'request body is not valid JSON'));
  });
});

describe('GET /svc/api/v1/account', () => {
  const ids = (response: { body: { data: { id: string }[] } }) => response.body.data.map((account) => account.id);

  it('lists the demo accounts in opening order', async () => {
    const response = await t.api.get(ACCOUNT_PATH);
    expect(response.body).toMatchObject({ code: 200, status: 'success', message: 'Accounts retrieved successfully' });
    expect(ids(response)).toEqual(['acc_demo_usd', 'acc_demo_eur', 'acc_demo_gbp', 'acc_demo_sgd', 'acc_demo_hkd']);
  });

  it('filters by id, currency and status', async () => {
    expect(ids(await t.api.get(ACCOUNT_PATH, { query: { id: 'acc_demo_sgd' } }))).toEqual(['acc_demo_sgd']);
    expect(ids(await t.api.get(ACCOUNT_PATH, { query: { currency: 'EUR' } }))).toEqual(['acc_demo_eur']);
    expect(ids(await t.api.get(ACCOUNT_PATH, { query: { status: 'CLOSED' } }))).toEqual(['acc_demo_hkd']);
    expect(ids(await t.api.get(ACCOUNT_PATH, { query: { status: 'ACTIVE', currency: 'HKD' } }))).toEqual([]);
  });

  it('answers an empty list for an unknown id', async () => {
    const response = await t.api.get(ACCOUNT_PATH, { query: { id: 'acc_unknown' } });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
  });

  it('rejects an unknown status', async () => {
    const response = await t.api.get(ACCOUNT_PATH, { query: { status: 'FROZEN' } });
    expect(response.body).toEqual(envelopeError(400, 'status must be one of ACTIVE, INACTIVE, CLOSED'));
  });

  it('shows the demo EUR account with LOCAL and SWIFT features and a valid German IBAN', async () => {
    const [eur] = (await t.api.get(ACCOUNT_PATH, { query: { id: 'acc_demo_eur' } })).body.data;
    expect(eur.swift_code).toBe('RHHBDEBB');
    expect(eur.iban).toMatch(/^DE\d{20}$/);
    expect(ibanIsValid(eur.iban)).toBe(true);
    expect(eur.supported_features.map((feature: { transfer_method: string }) => feature.transfer_method)).toEqual(['LOCAL', 'SWIFT']);
  });
});

describe('DELETE /svc/api/v1/account', () => {
  const close = (accountId: string | undefined) => t.api.send('DELETE', ACCOUNT_PATH, { headers: { 'x-account-id': accountId } });

  it('requires x-account-id with the documented message', async () => {
    const response = await close(undefined);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(envelopeError(400, 'x-account-id is a required header and is missing'));
  });

  it('answers not found for an unknown account', async () => {
    expect((await close('acc_nope')).body).toEqual(envelopeError(400, 'Account acc_nope not found'));
  });

  it('closes an account for good', async () => {
    const closed = await close('acc_demo_gbp');
    expect(closed.status).toBe(200);
    expect(closed.body).toEqual({ code: 200, status: 'success', message: 'Account closed successfully', data: null });

    expect((await close('acc_demo_gbp')).body).toEqual(envelopeError(400, 'Account acc_demo_gbp is already closed'));
    const listed = await t.api.get(ACCOUNT_PATH, { query: { id: 'acc_demo_gbp' } });
    expect(listed.body.data[0].status).toBe('CLOSED');
    const closedList = await t.api.get(ACCOUNT_PATH, { query: { status: 'CLOSED' } });
    expect(closedList.body.data.map((account: { id: string }) => account.id)).toEqual(['acc_demo_gbp', 'acc_demo_hkd']);
  });

  it('refuses the demo account that is already closed', async () => {
    expect((await close('acc_demo_hkd')).body.message).toBe('Account acc_demo_hkd is already closed');
  });
});
