import { encodeGlobalID } from '@pothos/plugin-relay';
import { describe, expect, it } from 'vitest';
import {
  BeneficiariesDocument,
  BeneficiaryCreateDocument,
  BeneficiaryDeleteDocument,
  BeneficiaryDocument,
  BeneficiaryNodeDocument,
  BeneficiarySchemaDocument,
  BeneficiaryUpdateDocument,
  type BeneficiaryCreateInput,
  type BeneficiaryCreateMutation,
  type BeneficiaryUpdateMutation,
} from '../generated/graphql.ts';
import { ADDRESS_ONLY_COUNTRIES, BANK_COUNTRIES, CURRENCIES, US_SWIFT_RULE_ROWS } from '../../sandbox/test/fixtures/document-1.ts';
import { rawUpstream, useKit, type Kit } from '../helpers/kit.ts';

// These tests count the bank calls of reads that repeat from test to test: the record cache (test/integration/cache.test.ts) stays off.
const kit = useKit({ cache: false });

const LIST_PATH = '/svc/api/v1/transfer/beneficiarylist';
const WRITE_PATH = '/svc/api/v1/transfer/beneficiary';
const SCHEMA_PATH = '/svc/api/v1/transfer/beneficiaryschema';
const DEMO_US = 'ben_demo_us';

const POSTCODE = '^\\d{5}(-\\d{4})?$';
const SWIFT_US = '^[A-Z]{4}US[A-Z0-9]{2}([A-Z0-9]{3})?$';
const STREET = '^(?!\\d+$).{5,200}$';
const EMAIL = '^\\S*@\\S*$';

const US_SUPPLIER: BeneficiaryCreateInput = {
  nickname: 'Widgets NY',
  transferMethods: ['SWIFT'],
  beneficiary: {
    entityType: 'COMPANY',
    companyName: 'Acme Widgets Inc.',
    address: { streetAddress: '350 Fifth Avenue', city: 'New York', postcode: '10118-0110', state: 'US-NY', countryCode: 'US' },
    bankDetails: {
      bankCountryCode: 'US',
      accountCurrency: 'USD',
      accountName: 'Acme Widgets Inc.',
      accountNumber: '000123456789',
      bankName: 'JPMorgan Chase Bank',
      swiftCode: 'CHASUS33',
    },
    additionalInfo: { personalEmail: 'ap@acme-widgets.example' },
  },
};

type Created = Extract<BeneficiaryCreateMutation['beneficiaryCreate'], { __typename: 'BeneficiaryCreateSuccess' }>['beneficiary'];
type Updated = Extract<BeneficiaryUpdateMutation['beneficiaryUpdate'], { __typename: 'BeneficiaryUpdateSuccess' }>['beneficiary'];

async function create(input: BeneficiaryCreateInput = US_SUPPLIER, idempotencyKey?: string, on: Kit = kit): Promise<Created> {
  const result = await on.execute(BeneficiaryCreateDocument, { input, idempotencyKey });
  const outcome = result.data?.beneficiaryCreate;
  if (outcome?.__typename !== 'BeneficiaryCreateSuccess') throw new Error(`create failed: ${JSON.stringify(result)}`);
  return outcome.beneficiary;
}

/** Query strings the sandbox saw on `path` (the kit's `calls` leaves them out). */
function queries(path: string, on: Kit = kit): Record<string, string>[] {
  return on.sandbox
    .requests()
    .filter((r) => r.path === path)
    .map((r) => r.query);
}

async function rawList(query = 'limit=100'): Promise<any[]> {
  const raw = await rawUpstream(kit, 'GET', `${LIST_PATH}?${query}`);
  expect(raw.status).toBe(200);
  return raw.body.data;
}

describe('beneficiaries: reads', () => {
  it('lists the beneficiaries as the bank lists them, newest first, mapped field by field', async () => {
    const raw = await rawList();
    expect(raw.map((b) => b.beneficiaryId).sort()).toEqual(['ben_demo_de', 'ben_demo_gb', 'ben_demo_sg', 'ben_demo_us']);
    await kit.resetCounts();

    const result = await kit.execute(BeneficiariesDocument, { first: 50 });
    expect(result.errors).toBeUndefined();
    const nodes = result.data!.beneficiaries!.edges.map((e) => e.node);
    expect(nodes.map((n) => n.upstreamId)).toEqual(raw.map((b) => b.beneficiaryId));
    for (const [i, node] of nodes.entries()) {
      const entry = raw[i];
      expect(node.id).toBe(encodeGlobalID('Beneficiary', entry.beneficiaryId));
      expect(node.companyName).toBe(entry.fullName);
      expect(node.nickname).toBe(entry.nickname);
      const bank = entry.bankDetails;
      expect(node.bankDetails).toEqual({
        accountCurrency: bank.account_currency,
        accountName: bank.account_name,
        accountNumber: bank.account_number,
        bankCountryCode: bank.bank_country_code,
        bankName: bank.bank_name,
        swiftCode: bank.swift_code,
        localClearingSystem: bank.local_clearing_system,
        accountRoutingType1: bank.account_routing_type1,
        accountRoutingValue1: bank.account_routing_value1,
        accountRoutingType2: bank.account_routing_type2,
        accountRoutingValue2: bank.account_routing_value2,
        bankBranch: bank.bank_branch,
      });
    }
    expect(result.data!.beneficiaries!.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
    // One list call: the page and one look-ahead item.
    expect(queries(LIST_PATH)).toEqual([{ limit: '51', offset: '0' }]);
  });

  it('pages with limit and offset, one call per page, matching the upstream order', async () => {
    const raw = await rawList();
    await kit.resetCounts();
    const page1 = await kit.execute(BeneficiariesDocument, { first: 2 });
    const conn1 = page1.data!.beneficiaries!;
    expect(conn1.edges.map((e) => e.node.upstreamId)).toEqual(raw.slice(0, 2).map((b) => b.beneficiaryId));
    expect(conn1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });

    const page2 = await kit.execute(BeneficiariesDocument, { first: 2, after: conn1.pageInfo.endCursor });
    const conn2 = page2.data!.beneficiaries!;
    expect(conn2.edges.map((e) => e.node.upstreamId)).toEqual(raw.slice(2, 4).map((b) => b.beneficiaryId));
    expect(conn2.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });

    // One look-ahead item tells whether a next page exists.
    expect(queries(LIST_PATH)).toEqual([
      { limit: '3', offset: '0' },
      { limit: '3', offset: '2' },
    ]);
    expect(kit.calls(LIST_PATH).map((c) => c.status)).toEqual([200, 200]);

    await kit.resetCounts();
    const all = await kit.execute(BeneficiariesDocument, { first: 100 });
    expect(all.data!.beneficiaries!.edges).toHaveLength(raw.length);
    // 100 plus the look-ahead item exceeds the bank's maximum: the first call asks for 100, and a short answer ends it.
    expect(queries(LIST_PATH)).toEqual([{ limit: '100', offset: '0' }]);
  });

  it('filters by the currency of the bank account, upstream', async () => {
    const raw = await rawList('limit=100&currency=GBP');
    expect(raw.length).toBeGreaterThan(0);
    await kit.resetCounts();
    const result = await kit.execute(BeneficiariesDocument, { currency: 'GBP' });
    const nodes = result.data!.beneficiaries!.edges.map((e) => e.node);
    expect(nodes.map((n) => n.upstreamId)).toEqual(raw.map((b) => b.beneficiaryId));
    expect(new Set(nodes.map((n) => n.bankDetails!.accountCurrency))).toEqual(new Set(['GBP']));
    expect(queries(LIST_PATH)).toEqual([{ limit: '21', offset: '0', currency: 'GBP' }]);
  });

  it('reads one beneficiary in full by the bank id, by global ID and through node, one upstream call each', async () => {
    const raw = (await rawUpstream(kit, 'GET', `${LIST_PATH}/${DEMO_US}`)).body.data[0];
    await kit.resetCounts();

    const byBankId = await kit.execute(BeneficiaryDocument, { id: DEMO_US });
    expect(byBankId.errors).toBeUndefined();
    const b = byBankId.data!.beneficiary!;
    const details = raw.beneficiary;
    expect(b).toEqual({
      id: encodeGlobalID('Beneficiary', DEMO_US),
      upstreamId: DEMO_US,
      nickname: raw.nickname,
      transferMethods: raw.transfer_methods,
      entityType: details.entity_type,
      companyName: details.company_name,
      payerEntityType: raw.payer_entity_type,
      address: {
        streetAddress: details.address.street_address,
        city: details.address.city,
        postcode: details.address.postcode,
        state: details.address.state,
        countryCode: details.address.country_code,
      },
      bankDetails: {
        accountCurrency: details.bank_details.account_currency,
        accountName: details.bank_details.account_name,
        accountNumber: details.bank_details.account_number,
        bankCountryCode: details.bank_details.bank_country_code,
        bankName: details.bank_details.bank_name,
        swiftCode: details.bank_details.swift_code,
        localClearingSystem: null,
        accountRoutingType1: details.bank_details.account_routing_type1 ?? null,
        accountRoutingValue1: details.bank_details.account_routing_value1 ?? null,
        accountRoutingType2: null,
        accountRoutingValue2: null,
        bankBranch: null,
      },
      additionalInfo: details.additional_info ? { personalEmail: details.additional_info.personal_email ?? null } : null,
    });
    expect(b).toMatchObject({ transferMethods: ['SWIFT'], entityType: 'COMPANY', payerEntityType: 'COMPANY' });
    expect(b.bankDetails).toMatchObject({ bankCountryCode: 'US', accountCurrency: 'USD' });
    expect(kit.calls(`${LIST_PATH}/${DEMO_US}`)).toHaveLength(1);

    const byGlobal = await kit.execute(BeneficiaryDocument, { id: b.id });
    expect(byGlobal.data!.beneficiary).toEqual(b);
    expect(kit.calls(`${LIST_PATH}/${DEMO_US}`)).toHaveLength(2);

    const node = await kit.execute(BeneficiaryNodeDocument, { id: b.id });
    expect(node.data!.node).toEqual({ __typename: 'Beneficiary', id: b.id, upstreamId: DEMO_US, companyName: b.companyName });
    expect(kit.calls(`${LIST_PATH}/${DEMO_US}`)).toHaveLength(3);
    expect(kit.calls(LIST_PATH)).toHaveLength(0);
  });

  it('answers null for a beneficiary that does not exist', async () => {
    const result = await kit.execute(BeneficiaryDocument, { id: 'ben_does_not_exist' });
    expect(result.errors).toBeUndefined();
    expect(result.data!.beneficiary).toBeNull();
    const node = await kit.execute(BeneficiaryNodeDocument, { id: encodeGlobalID('Beneficiary', 'ben_nope') });
    expect(node.errors).toBeUndefined();
    expect(node.data!.node).toBeNull();
    expect(kit.calls(`${LIST_PATH}/ben_does_not_exist`).map((c) => c.status)).toEqual([400]);
  });
});

describe('beneficiarySchema', () => {
  it('returns the 15 documented rules of US/USD/COMPANY/SWIFT in order', async () => {
    const result = await kit.execute(BeneficiarySchemaDocument, {
      bankCountry: 'US',
      currency: 'USD',
      entityType: 'COMPANY',
      transferMethod: 'SWIFT',
    });
    expect(result.errors).toBeUndefined();
    const rules = result.data!.beneficiarySchema;
    expect(rules!.map((r) => [r.key, r.path, r.required])).toEqual(US_SWIFT_RULE_ROWS);
    const byKey = Object.fromEntries(rules!.map((r) => [r.key, r]));
    expect(byKey.entity_type!.pattern).toBe('^(COMPANY|PERSONAL)$');
    expect(byKey.transfer_method!.pattern).toBe('^(LOCAL|SWIFT)$');
    expect(byKey.company_name!.pattern).toBe('^.{1,100}$');
    expect(byKey.swift_code!.pattern).toBe(SWIFT_US);
    expect(byKey.account_number!.pattern).toBe('^[A-Za-z0-9]{1,26}$');
    expect(byKey.account_name!.pattern).toBe('^.{2,200}$');
    expect(byKey.postcode!.pattern).toBe(POSTCODE);
    expect(byKey.street_address!.pattern).toBe(STREET);
    expect(byKey.city!.pattern).toBe('^.{1,50}$');
    expect(byKey.nickname!.pattern).toBeNull();
    expect(byKey.personal_email!.pattern).toBe(EMAIL);

    const matches = (key: string, value: string) => new RegExp(byKey[key]!.pattern!).test(value);
    for (const code of BANK_COUNTRIES) expect(matches('bank_country_code', code), code).toBe(true);
    for (const code of [...BANK_COUNTRIES, ...ADDRESS_ONLY_COUNTRIES]) expect(matches('country_code', code), code).toBe(true);
    for (const code of ADDRESS_ONLY_COUNTRIES) expect(matches('bank_country_code', code), code).toBe(false);
    for (const code of CURRENCIES) expect(matches('account_currency', code), code).toBe(true);
    expect(matches('account_currency', 'XYZ')).toBe(false);
    expect(matches('state', 'US-NY')).toBe(true);
    expect(matches('state', 'NY')).toBe(false);

    // Forms find the input field of each rule.
    expect(byKey.transfer_method!.inputPath).toEqual(['transferMethods']);
    expect(byKey.swift_code!.inputPath).toEqual(['beneficiary', 'bankDetails', 'swiftCode']);
    expect(byKey.personal_email!.inputPath).toEqual(['beneficiary', 'additionalInfo', 'personalEmail']);
  });
});

describe('beneficiaryCreate', () => {
  it('creates a beneficiary that follows the rules and returns it in full, read back by id', async () => {
    await kit.resetCounts();
    const created = await create();
    const b = US_SUPPLIER.beneficiary;
    expect(created.upstreamId).toMatch(/^ben_[0-9a-f]+$/);
    expect(created).toMatchObject({
      id: encodeGlobalID('Beneficiary', created.upstreamId),
      nickname: US_SUPPLIER.nickname,
      transferMethods: ['SWIFT'],
      entityType: 'COMPANY',
      companyName: b.companyName,
      payerEntityType: 'COMPANY',
      address: b.address,
      bankDetails: { ...b.bankDetails, accountRoutingType1: null, accountRoutingValue1: null, localClearingSystem: null },
      additionalInfo: b.additionalInfo,
    });
    expect(kit.calls(WRITE_PATH, 'POST').map((c) => c.status)).toEqual([200]);
    expect(kit.calls(`${LIST_PATH}/${created.upstreamId}`)).toHaveLength(1);

    const raw = (await rawUpstream(kit, 'GET', `${LIST_PATH}/${created.upstreamId}`)).body.data[0];
    expect(raw.beneficiary.address.postcode).toBe('10118-0110');
    expect(raw.beneficiary.bank_details.swift_code).toBe('CHASUS33');
    expect((await rawList()).map((e) => e.beneficiaryId)).toContain(created.upstreamId);
  });

  it('refuses input that breaks the rules with a ValidationError naming every broken rule, and sends nothing', async () => {
    await kit.resetCounts();
    const b = US_SUPPLIER.beneficiary;
    const result = await kit.execute(BeneficiaryCreateDocument, {
      input: {
        ...US_SUPPLIER,
        beneficiary: {
          ...b,
          companyName: '',
          address: { streetAddress: '12345', city: 'New York', postcode: 'NY 10118', countryCode: 'US' },
          bankDetails: { ...b.bankDetails, swiftCode: 'CHASGB33' },
          additionalInfo: { personalEmail: 'accounts payable' },
        },
      },
    });
    expect(result.errors).toBeUndefined();
    const outcome = result.data!.beneficiaryCreate;
    expect(outcome.__typename).toBe('ValidationError');
    expect(outcome).toMatchObject({
      issues: [
        { path: ['input', 'beneficiary', 'companyName'], message: 'company_name is required', upstreamPath: 'beneficiary.company_name' },
        {
          path: ['input', 'beneficiary', 'bankDetails', 'swiftCode'],
          message: `swift_code must match ${SWIFT_US}`,
          upstreamPath: 'beneficiary.bank_details.swift_code',
        },
        {
          path: ['input', 'beneficiary', 'address', 'postcode'],
          message: `postcode must match ${POSTCODE}`,
          upstreamPath: 'beneficiary.address.postcode',
        },
        {
          path: ['input', 'beneficiary', 'address', 'streetAddress'],
          message: `street_address must match ${STREET}`,
          upstreamPath: 'beneficiary.address.street_address',
        },
        { path: ['input', 'beneficiary', 'address', 'state'], message: 'state is required', upstreamPath: 'beneficiary.address.state' },
        {
          path: ['input', 'beneficiary', 'additionalInfo', 'personalEmail'],
          message: `personal_email must match ${EMAIL}`,
          upstreamPath: 'beneficiary.additional_info.personal_email',
        },
      ],
    });
    expect((outcome as { issues: unknown[] }).issues).toHaveLength(6);
    expect(kit.calls(WRITE_PATH, 'POST')).toHaveLength(0);
  });

  it('refuses an empty list of transfer methods before asking for any rule set', async () => {
    await kit.resetCounts();
    const result = await kit.execute(BeneficiaryCreateDocument, { input: { ...US_SUPPLIER, transferMethods: [] } });
    expect(result.data!.beneficiaryCreate).toMatchObject({
      __typename: 'ValidationError',
      issues: [{ path: ['input', 'transferMethods'], message: 'must list at least one transfer method', upstreamPath: null }],
    });
    expect(kit.calls()).toHaveLength(0);
  });

  it('applies a create once when the same idempotency key is replayed', async () => {
    const before = (await rawList()).length;
    const key = `ben-${crypto.randomUUID()}`;
    await kit.resetCounts();
    const first = await create(US_SUPPLIER, key);
    const second = await create(US_SUPPLIER, key);
    expect(second.upstreamId).toBe(first.upstreamId);
    expect((await rawList()).length).toBe(before + 1);
    const posts = kit.calls(WRITE_PATH, 'POST');
    expect(new Set(posts.map((c) => c.requestId))).toEqual(new Set([key]));
    expect(posts.filter((c) => c.status === 200)).toHaveLength(2);
  });
});

describe('beneficiaryUpdate', () => {
  async function current(id: string) {
    const result = await kit.execute(BeneficiaryDocument, { id });
    return result.data!.beneficiary!;
  }

  it('changes only what the input gives and replaces the address as a whole', async () => {
    const before = await current(DEMO_US);
    const address = { streetAddress: '1 Market Street', city: 'San Francisco', postcode: '94105', state: 'US-CA', countryCode: 'US' };
    await kit.resetCounts();
    const result = await kit.execute(BeneficiaryUpdateDocument, {
      input: { beneficiaryId: before.id, nickname: 'West coast office', beneficiary: { address } },
    });
    const outcome = result.data!.beneficiaryUpdate;
    if (outcome.__typename !== 'BeneficiaryUpdateSuccess') throw new Error(`update failed: ${JSON.stringify(result)}`);
    const after: Updated = outcome.beneficiary;
    expect(after).toEqual({ ...before, nickname: 'West coast office', address });
    // Current record, the write, and the read-back.
    expect(kit.calls(`${WRITE_PATH}/${DEMO_US}`, 'PATCH').map((c) => c.status)).toEqual([200]);
    expect(kit.calls(`${LIST_PATH}/${DEMO_US}`)).toHaveLength(2);
    expect(await current(DEMO_US)).toEqual(after);
  });

  it('refuses a change that would break the rules, checking the merged record, and sends nothing', async () => {
    const before = await current(DEMO_US);
    await kit.resetCounts();
    const result = await kit.execute(BeneficiaryUpdateDocument, {
      input: {
        beneficiaryId: before.id,
        beneficiary: {
          // Replaced as a whole: the SWIFT beneficiary would lose its swift code.
          bankDetails: { bankCountryCode: 'US', accountCurrency: 'USD', accountName: 'Acme Corp', accountNumber: '99887766' },
          address: { streetAddress: '1 Main Street', city: 'Boston', postcode: '0211', countryCode: 'US' },
        },
      },
    });
    expect(result.data!.beneficiaryUpdate).toMatchObject({
      __typename: 'ValidationError',
      issues: [
        {
          path: ['input', 'beneficiary', 'bankDetails', 'swiftCode'],
          message: 'swift_code is required',
          upstreamPath: 'beneficiary.bank_details.swift_code',
        },
        {
          path: ['input', 'beneficiary', 'address', 'postcode'],
          message: `postcode must match ${POSTCODE}`,
          upstreamPath: 'beneficiary.address.postcode',
        },
        { path: ['input', 'beneficiary', 'address', 'state'], message: 'state is required', upstreamPath: 'beneficiary.address.state' },
      ],
    });
    expect((result.data!.beneficiaryUpdate as { issues: unknown[] }).issues).toHaveLength(3);
    expect(kit.calls(`${WRITE_PATH}/${DEMO_US}`, 'PATCH')).toHaveLength(0);
    expect(await current(DEMO_US)).toEqual(before);
  });

  it('refuses to update a beneficiary that does not exist', async () => {
    await kit.resetCounts();
    const result = await kit.execute(BeneficiaryUpdateDocument, {
      input: { beneficiaryId: encodeGlobalID('Beneficiary', 'ben_gone'), nickname: 'x' },
    });
    expect(result.data!.beneficiaryUpdate).toMatchObject({
      __typename: 'ValidationError',
      issues: [{ path: ['input', 'beneficiaryId'], message: 'no beneficiary has this id' }],
    });
    expect(kit.calls(`${WRITE_PATH}/ben_gone`, 'PATCH')).toHaveLength(0);
  });
});

describe('beneficiaryDelete', () => {
  it('deletes a beneficiary: it can no longer be read or listed, and a second delete is refused', async () => {
    const created = await create();
    const result = await kit.execute(BeneficiaryDeleteDocument, { input: { beneficiaryId: created.id } });
    expect(result.data!.beneficiaryDelete).toEqual({
      __typename: 'BeneficiaryDeleteSuccess',
      result: { deletedId: created.id, deletedBeneficiaryId: created.upstreamId },
    });
    expect(kit.calls(`${WRITE_PATH}/${created.upstreamId}`, 'DELETE').map((c) => c.status)).toEqual([200]);

    const read = await kit.execute(BeneficiaryDocument, { id: created.id });
    expect(read.errors).toBeUndefined();
    expect(read.data!.beneficiary).toBeNull();
    expect((await rawList()).map((e) => e.beneficiaryId)).not.toContain(created.upstreamId);

    const again = await kit.execute(BeneficiaryDeleteDocument, { input: { beneficiaryId: created.id } });
    expect(again.data!.beneficiaryDelete).toMatchObject({
      __typename: 'UpstreamRejection',
      upstreamStatus: 400,
      upstreamMessage: `Beneficiary ${created.upstreamId} not found`,
    });
  });
});

describe('beneficiary rule sets in the record cache', () => {
  // Rule sets are the bank's reference data, kept by the record cache (on, as shipped) for every create and update.
  const cached = useKit();

  it('caches the rule set of a combination across requests: two creates, one schema call', async () => {
    // The kit's fresh start dropped whatever was kept: the first create reads the rule set.
    const local: BeneficiaryCreateInput = {
      ...US_SUPPLIER,
      transferMethods: ['LOCAL'],
      beneficiary: {
        ...US_SUPPLIER.beneficiary,
        bankDetails: {
          ...US_SUPPLIER.beneficiary.bankDetails,
          swiftCode: null,
          accountRoutingType1: 'aba',
          accountRoutingValue1: '021000021',
        },
      },
    };
    await cached.resetCounts();
    const first = await create(local, undefined, cached);
    const second = await create({ ...local, nickname: 'Widgets NY (2)' }, undefined, cached);
    expect(first.upstreamId).not.toBe(second.upstreamId);
    expect(second.bankDetails).toMatchObject({ accountRoutingType1: 'aba', accountRoutingValue1: '021000021', swiftCode: null });
    expect(second.transferMethods).toEqual(['LOCAL']);
    expect(queries(SCHEMA_PATH, cached)).toEqual([
      { account_currency: 'USD', bank_country_code: 'US', entity_type: 'COMPANY', transfer_method: 'LOCAL' },
    ]);
    expect(cached.calls(WRITE_PATH, 'POST')).toHaveLength(2);
  });
});
