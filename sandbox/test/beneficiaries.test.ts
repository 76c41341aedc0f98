import { describe, expect, it } from 'vitest';
import { ADDRESS_ONLY_COUNTRIES, BANK_COUNTRIES, CURRENCIES, US_STATES, US_SWIFT_RULE_ROWS } from './fixtures/document-1.ts';
import { envelopeError, gbLocalBody, TRANSFER_PATH, usBody, useSandbox } from './helpers.ts';

const t = useSandbox();

const CREATE_PATH = `${TRANSFER_PATH}/beneficiary`;
const SCHEMA_PATH = `${TRANSFER_PATH}/beneficiaryschema`;
const LIST_PATH = `${TRANSFER_PATH}/beneficiarylist`;

type Body = Record<string, any>;

/** A copy of `body` with the value at a dotted path replaced (undefined removes it). */
function withValue(body: Body, path: string, value: unknown): Body {
  const copy = structuredClone(body);
  const keys = path.split('.');
  const last = keys.pop() as string;
  const parent = keys.reduce((node, key) => node[key], copy);
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  return copy;
}

const create = (body: unknown) => t.api.send('POST', CREATE_PATH, { body });
const update = (id: string, body: unknown) => t.api.send('PATCH', `${CREATE_PATH}/${id}`, { body });
const readOne = (id: string) => t.api.get(`${LIST_PATH}/${id}`);
const schema = (query: Record<string, string>) => t.api.get(SCHEMA_PATH, { query });

const US_SWIFT = { account_currency: 'USD', bank_country_code: 'US', entity_type: 'COMPANY', transfer_method: 'SWIFT' };

describe('GET /svc/api/v1/transfer/beneficiaryschema', () => {
  it('returns the 15 documented rows for US/USD/COMPANY/SWIFT, in order, with their patterns', async () => {
    const response = await schema(US_SWIFT);
    expect(response.body).toMatchObject({ code: 200, status: 'success', message: 'Beneficiary schema retrieved successfully' });
    const rows = response.body.data as { key: string; path: string; required: boolean; rule?: { type: string; pattern: string } }[];
    expect(rows.map((row) => [row.key, row.path, row.required])).toEqual(US_SWIFT_RULE_ROWS);
    const pattern = Object.fromEntries(rows.map((row) => [row.key, row.rule?.pattern]));
    expect(pattern).toMatchObject({
      entity_type: '^(COMPANY|PERSONAL)$',
      transfer_method: '^(LOCAL|SWIFT)$',
      company_name: '^.{1,100}$',
      swift_code: '^[A-Z]{4}US[A-Z0-9]{2}([A-Z0-9]{3})?$',
      account_number: '^[A-Za-z0-9]{1,26}$',
      account_name: '^.{2,200}$',
      postcode: '^\\d{5}(-\\d{4})?$',
      street_address: '^(?!\\d+$).{5,200}$',
      city: '^.{1,50}$',
      personal_email: '^\\S*@\\S*$',
    });
    for (const row of rows.filter((candidate) => candidate.key !== 'nickname')) expect(row.rule?.type).toBe('string');
    expect(rows.find((row) => row.key === 'nickname')).toEqual({ key: 'nickname', path: 'nickname', required: false });

    const listOf = (key: string) => (pattern[key] as string).slice(2, -2).split('|');
    expect(listOf('bank_country_code')).toEqual(BANK_COUNTRIES);
    expect(listOf('country_code')).toEqual([...BANK_COUNTRIES, ...ADDRESS_ONLY_COUNTRIES]);
    expect(listOf('account_currency')).toEqual(CURRENCIES);
    expect(listOf('state')).toEqual(US_STATES);
  });

  it('generates country rules for other combinations: GB LOCAL adds the sort code, swift_code and state are optional', async () => {
    const response = await schema({ account_currency: 'GBP', bank_country_code: 'GB', entity_type: 'PERSONAL', transfer_method: 'LOCAL' });
    const rows = response.body.data as { key: string; required: boolean; rule?: { pattern: string } }[];
    expect(rows.map((row) => row.key)).toEqual([
      'entity_type',
      'bank_country_code',
      'account_currency',
      'transfer_method',
      'company_name',
      'swift_code',
      'account_number',
      'account_name',
      'account_routing_type1',
      'account_routing_value1',
      'country_code',
      'postcode',
      'street_address',
      'city',
      'state',
      'nickname',
      'personal_email',
    ]);
    const byKey = Object.fromEntries(rows.map((row) => [row.key, { required: row.required, pattern: row.rule?.pattern }]));
    expect(byKey).toMatchObject({
      company_name: { required: true, pattern: '^.{1,100}$' },
      swift_code: { required: false, pattern: '^[A-Z]{4}GB[A-Z0-9]{2}([A-Z0-9]{3})?$' },
      account_number: { required: true, pattern: '^\\d{8}$' },
      account_routing_type1: { required: true, pattern: '^sort_code$' },
      account_routing_value1: { required: true, pattern: '^\\d{6}$' },
      postcode: { required: true, pattern: '^[A-Z]{1,2}\\d[A-Z\\d]? ?\\d[A-Z]{2}$' },
      state: { required: false, pattern: '^.{1,50}$' },
    });
  });

  it('uses the ABA routing number for US LOCAL and the IBAN for German SWIFT', async () => {
    const usLocal = (await schema({ ...US_SWIFT, transfer_method: 'LOCAL' })).body.data as { key: string; rule?: { pattern: string } }[];
    expect(usLocal.filter((row) => row.key.startsWith('account_routing')).map((row) => row.rule?.pattern)).toEqual(['^aba$', '^\\d{9}$']);
    const de = (await schema({ account_currency: 'EUR', bank_country_code: 'DE', entity_type: 'COMPANY', transfer_method: 'SWIFT' })).body
      .data as { key: string; required: boolean; rule?: { pattern: string } }[];
    expect(de.find((row) => row.key === 'account_number')?.rule?.pattern).toBe('^DE\\d{2}[A-Z0-9]{11,30}$');
    expect(de.find((row) => row.key === 'swift_code')).toMatchObject({
      required: true,
      rule: { pattern: '^[A-Z]{4}DE[A-Z0-9]{2}([A-Z0-9]{3})?$' },
    });
    expect(de.some((row) => row.key.startsWith('account_routing'))).toBe(false);
  });

  it.each([
    [{ account_currency: undefined }, 'account_currency is required'],
    [{ account_currency: 'XYZ' }, 'account_currency is not a supported account currency'],
    [{ account_currency: 'usd' }, 'account_currency must be a 3-letter ISO-4217 code in capitals'],
    [{ bank_country_code: 'QQ' }, 'bank_country_code is not a supported bank country'],
    [{ entity_type: 'TRUST' }, 'entity_type must be one of COMPANY, PERSONAL'],
    [{ transfer_method: undefined }, 'transfer_method is required'],
  ])('rejects %j', async (change, message) => {
    const query = Object.fromEntries(
      Object.entries({ ...US_SWIFT, ...change }).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    expect((await schema(query)).body).toEqual(envelopeError(400, message));
  });
});

describe('POST /svc/api/v1/transfer/beneficiary', () => {
  it('creates a beneficiary that reads back in full', async () => {
    const response = await create(usBody());
    expect(response.body).toMatchObject({ code: 200, status: 'success', message: 'Beneficiary created successfully' });
    expect(response.body.data).toEqual([
      { id: expect.stringMatching(/^ben_[0-9a-f]{16}$/), beneficiary_account_currency: null, beneficiary_account_number: null },
    ]);
    const id = response.body.data[0].id as string;
    const read = await readOne(id);
    expect(read.body).toMatchObject({ code: 200, status: 'success', message: 'Beneficiary retrieved successfully' });
    const expected = usBody();
    expect(read.body.data).toEqual([
      {
        id,
        nickname: 'Globex US',
        payer_entity_type: 'COMPANY',
        transfer_methods: ['SWIFT'],
        beneficiary: {
          ...expected.beneficiary,
          bank_details: { ...expected.beneficiary.bank_details, account_routing_type1: null, account_routing_value1: null },
        },
      },
    ]);
  });

  // One failing value per documented rule; each message names the dotted path and the rule.
  it.each([
    ['entity_type', 'beneficiary.entity_type', 'PARTNERSHIP', 'beneficiary.entity_type: must match ^(COMPANY|PERSONAL)$'],
    [
      'bank_country_code',
      'beneficiary.bank_details.bank_country_code',
      'XX',
      'beneficiary.bank_details.bank_country_code: must match ^(AD|AE|AG|',
    ],
    [
      'account_currency',
      'beneficiary.bank_details.account_currency',
      'XYZ',
      'beneficiary.bank_details.account_currency: must match ^(AED|AOA|',
    ],
    ['transfer_method', 'transfer_methods', ['WIRE'], 'transfer_method: must match ^(LOCAL|SWIFT)$'],
    ['company_name', 'beneficiary.company_name', 'x'.repeat(101), 'beneficiary.company_name: must match ^.{1,100}$'],
    [
      'swift_code',
      'beneficiary.bank_details.swift_code',
      'LSBKGB44',
      'beneficiary.bank_details.swift_code: must match ^[A-Z]{4}US[A-Z0-9]{2}([A-Z0-9]{3})?$',
    ],
    [
      'account_number',
      'beneficiary.bank_details.account_number',
      'GLX-001',
      'beneficiary.bank_details.account_number: must match ^[A-Za-z0-9]{1,26}$',
    ],
    ['account_name', 'beneficiary.bank_details.account_name', 'G', 'beneficiary.bank_details.account_name: must match ^.{2,200}$'],
    ['country_code', 'beneficiary.address.country_code', 'ZZ', 'beneficiary.address.country_code: must match ^(AD|AE|AG|'],
    ['postcode', 'beneficiary.address.postcode', '7330', 'beneficiary.address.postcode: must match ^\\d{5}(-\\d{4})?$'],
    [
      'street_address',
      'beneficiary.address.street_address',
      '123456',
      'beneficiary.address.street_address: must match ^(?!\\d+$).{5,200}$',
    ],
    ['city', 'beneficiary.address.city', 'x'.repeat(51), 'beneficiary.address.city: must match ^.{1,50}$'],
    ['state', 'beneficiary.address.state', 'US-XX', 'beneficiary.address.state: must match ^(US-AK|US-AL|'],
    [
      'personal_email',
      'beneficiary.additional_info.personal_email',
      'ap at globex',
      'beneficiary.additional_info.personal_email: must match ^\\S*@\\S*$',
    ],
  ])('enforces the %s rule', async (_key, path, value, message) => {
    const response = await create(withValue(usBody(), path, value));
    expect(response.status).toBe(400);
    const items = (response.body.message as string).split('; ');
    // A bad bank country also changes the swift_code pattern; every other value breaks one rule.
    expect(items.filter((item) => !item.startsWith('beneficiary.bank_details.swift_code') || path.endsWith('swift_code'))).toHaveLength(1);
    expect(items.some((item) => item.startsWith(message))).toBe(true);
    expect(response.body).toMatchObject({ code: 400, status: 'Error', data: null });
  });

  it('takes personal_email as Document 1, 2.8 words it: text containing an at sign, no whitespace', async () => {
    const path = 'beneficiary.additional_info.personal_email';
    expect((await create(withValue(usBody(), path, 'ap@billing@globex.example'))).status).toBe(200);
    for (const refused of ['ap at globex', 'ap @globex.example', 'ap@globex.example\t']) {
      const response = await create(withValue(usBody(), path, refused));
      expect(response.status, refused).toBe(400);
      expect(response.body.message).toContain(`${path}: must match ^\\S*@\\S*$`);
    }
  });

  it('accepts any nickname (the rule set has none) and no optional fields', async () => {
    const bare = withValue(withValue(usBody(), 'nickname', 'n'.repeat(300)), 'beneficiary.additional_info', undefined);
    expect((await create(bare)).status).toBe(200);
  });

  it('reports every missing required field in one message', async () => {
    const body = withValue(withValue(usBody(), 'beneficiary.company_name', undefined), 'beneficiary.address.state', '');
    expect((await create(body)).body).toEqual(
      envelopeError(400, 'beneficiary.company_name: is required; beneficiary.address.state: is required'),
    );
  });

  it('checks the shape first: objects, text and at least one transfer method', async () => {
    const body = { transfer_methods: [], beneficiary: { entity_type: 'COMPANY', address: 'Main Street', bank_details: { bank_name: 7 } } };
    expect((await create(body)).body).toEqual(
      envelopeError(
        400,
        'transfer_methods: must contain at least 1 item(s); beneficiary.address: must be an object; beneficiary.bank_details.bank_name: must be a string',
      ),
    );
    expect((await create(undefined)).body).toEqual(envelopeError(400, 'request body must be a JSON object'));
    expect((await create(withValue(usBody(), 'beneficiary.bank_details.bank_name', undefined))).body).toEqual(
      envelopeError(400, 'beneficiary.bank_details.bank_name: is required'),
    );
  });

  it('validates another combination by its own rules: GB LOCAL needs a sort code, no state, no SWIFT code', async () => {
    expect((await create(gbLocalBody())).status).toBe(200);
    const wrong = withValue(
      withValue(gbLocalBody(), 'beneficiary.bank_details.account_routing_type1', 'aba'),
      'beneficiary.address.postcode',
      '90210',
    );
    expect((await create(wrong)).body.message).toBe(
      'beneficiary.bank_details.account_routing_type1: must match ^sort_code$; beneficiary.address.postcode: must match ^[A-Z]{1,2}\\d[A-Z\\d]? ?\\d[A-Z]{2}$',
    );
    const noRouting = withValue(gbLocalBody(), 'beneficiary.bank_details.account_routing_value1', undefined);
    expect((await create(noRouting)).body.message).toBe('beneficiary.bank_details.account_routing_value1: is required');
  });

  it('applies the rules of each of its transfer methods', async () => {
    const both = withValue(gbLocalBody(), 'transfer_methods', ['LOCAL', 'SWIFT']);
    expect((await create(both)).body.message).toBe(
      'beneficiary.bank_details.swift_code: is required; beneficiary.bank_details.account_number: must match ^GB\\d{2}[A-Z0-9]{11,30}$',
    );
  });
});

describe('PATCH /svc/api/v1/transfer/beneficiary/{id}', () => {
  it('changes only the fields given', async () => {
    const before = (await readOne('ben_demo_us')).body.data[0];
    const response = await update('ben_demo_us', { nickname: 'Northwind (main)' });
    expect(response.body).toEqual({
      code: 200,
      status: 'success',
      message: 'Beneficiary updated successfully',
      data: [{ id: 'ben_demo_us', beneficiary_account_currency: null, beneficiary_account_number: null }],
    });
    expect((await readOne('ben_demo_us')).body.data[0]).toEqual({ ...before, nickname: 'Northwind (main)' });
  });

  it('replaces a supplied address whole and keeps the rest', async () => {
    const before = (await readOne('ben_demo_us')).body.data[0];
    const address = { city: 'Boston', country_code: 'US', postcode: '02110', state: 'US-MA', street_address: '1 Federal Street' };
    expect((await update('ben_demo_us', { beneficiary: { address } })).status).toBe(200);
    const after = (await readOne('ben_demo_us')).body.data[0];
    expect(after).toEqual({ ...before, beneficiary: { ...before.beneficiary, address } });
  });

  it('validates the merged record: a replaced address needs its required members', async () => {
    const address = { city: 'Boston', country_code: 'US', postcode: '02110', street_address: '1 Federal Street' };
    expect((await update('ben_demo_us', { beneficiary: { address } })).body).toEqual(
      envelopeError(400, 'beneficiary.address.state: is required'),
    );
  });

  it('re-validates under a new transfer method, and keeps bank_name when a new bank_details omits it', async () => {
    const toLocal = await update('ben_demo_us', { transfer_methods: ['LOCAL'] });
    expect(toLocal.body.message).toBe(
      'beneficiary.bank_details.account_routing_type1: is required; beneficiary.bank_details.account_routing_value1: is required',
    );
    const bank_details = {
      account_currency: 'USD',
      account_name: 'Northwind Supplies Inc.',
      account_number: '483920175502',
      bank_country_code: 'US',
      swift_code: null,
      account_routing_type1: 'aba',
      account_routing_value1: '026009593',
    };
    expect((await update('ben_demo_us', { transfer_methods: ['LOCAL'], beneficiary: { bank_details } })).status).toBe(200);
    const after = (await readOne('ben_demo_us')).body.data[0];
    expect(after.transfer_methods).toEqual(['LOCAL']);
    expect(after.beneficiary.bank_details).toEqual({ ...bank_details, bank_name: 'Lakeshore National Bank' });
  });

  it('accepts an empty update of every demo beneficiary: the demo data passes its own rules', async () => {
    for (const id of ['ben_demo_us', 'ben_demo_gb', 'ben_demo_de', 'ben_demo_sg']) {
      expect((await update(id, {})).status).toBe(200);
    }
  });

  it('answers an unknown id with not found', async () => {
    expect((await update('ben_nope', { nickname: 'x' })).body).toEqual(envelopeError(400, 'Beneficiary ben_nope not found'));
    expect((await readOne('ben_nope')).body).toEqual(envelopeError(400, 'Beneficiary ben_nope not found'));
  });
});

describe('GET /svc/api/v1/transfer/beneficiarylist', () => {
  const ids = (response: { body: { data: { beneficiaryId: string }[] } }) => response.body.data.map((entry) => entry.beneficiaryId);

  it('lists the demo beneficiaries newest first, as list entries', async () => {
    const response = await t.api.get(LIST_PATH);
    expect(response.body).toMatchObject({ code: 200, status: 'success', message: 'Beneficiaries retrieved successfully' });
    expect(ids(response)).toEqual(['ben_demo_sg', 'ben_demo_de', 'ben_demo_gb', 'ben_demo_us']);
    expect(response.body.data[0]).toEqual({
      beneficiaryId: 'ben_demo_sg',
      fullName: 'Tailspin Freight Pte Ltd',
      nickname: 'Tailspin SG',
      bankDetails: {
        account_currency: 'SGD',
        account_name: 'Tailspin Freight Pte Ltd',
        account_number: '0123456789',
        bank_country_code: 'SG',
        bank_name: 'Straits Merchant Bank Ltd',
        swift_code: null,
        local_clearing_system: 'FAST',
        account_routing_type1: 'bank_code',
        account_routing_value1: '7171',
        account_routing_type2: null,
        account_routing_value2: null,
        bank_branch: null,
      },
    });
    expect(response.body.data[1].bankDetails.local_clearing_system).toBeNull();
  });

  it('puts a new beneficiary first, pages with limit and offset and filters by currency', async () => {
    const created = (await create(usBody())).body.data[0].id as string;
    expect(ids(await t.api.get(LIST_PATH))[0]).toBe(created);
    expect(ids(await t.api.get(LIST_PATH, { query: { limit: 2, offset: 1 } }))).toEqual(['ben_demo_sg', 'ben_demo_de']);
    expect(ids(await t.api.get(LIST_PATH, { query: { offset: 5 } }))).toEqual([]);
    expect(ids(await t.api.get(LIST_PATH, { query: { currency: 'USD' } }))).toEqual([created, 'ben_demo_us']);
    expect(ids(await t.api.get(LIST_PATH, { query: { currency: 'JPY' } }))).toEqual([]);
  });

  it.each([
    [{ limit: 0 }, 'limit must be at least 1'],
    [{ limit: 101 }, 'limit must be at most 100'],
    [{ limit: 'ten' }, 'limit must be an integer'],
    [{ offset: -1 }, 'offset must be at least 0'],
    [{ currency: 'usd' }, 'currency must be a 3-letter ISO-4217 code in capitals'],
  ])('rejects %j', async (query, message) => {
    expect((await t.api.get(LIST_PATH, { query })).body).toEqual(envelopeError(400, message));
  });
});

describe('DELETE /svc/api/v1/transfer/beneficiary/{id}', () => {
  it('deletes, answering data null; the id is then unknown', async () => {
    const response = await t.api.send('DELETE', `${CREATE_PATH}/ben_demo_us`);
    expect(response.body).toEqual({ code: 200, status: 'success', message: 'Beneficiary deleted successfully', data: null });
    expect((await readOne('ben_demo_us')).body).toEqual(envelopeError(400, 'Beneficiary ben_demo_us not found'));
    expect((await t.api.send('DELETE', `${CREATE_PATH}/ben_demo_us`)).body).toEqual(
      envelopeError(400, 'Beneficiary ben_demo_us not found'),
    );
  });

  it('refuses while a payout to the beneficiary is pending', async () => {
    const blocked = await t.api.send('DELETE', `${CREATE_PATH}/ben_demo_gb`);
    expect(blocked.body).toEqual(envelopeError(400, 'Beneficiary ben_demo_gb has pending payouts'));
    await t.api.send('PATCH', `${TRANSFER_PATH}/cancelpayout`, { body: { id: 'pay_demo_1' } });
    expect((await t.api.send('DELETE', `${CREATE_PATH}/ben_demo_gb`)).status).toBe(200);
  });
});
