import { describe, expect, it } from 'vitest';
import { inputPathOf } from '../schema/upstream-rules.ts';
import {
  BENEFICIARY_RULE_ALIASES,
  beneficiaryListEntryModel,
  beneficiaryModel,
  beneficiaryRuleModel,
  beneficiaryWriteBody,
  beneficiaryWriteResultModel,
  mergeBeneficiaryUpdate,
  ruleSetCombinations,
  type Beneficiary,
  type BeneficiaryWriteRequest,
} from './beneficiaries.ts';

const readBack = {
  id: 'ben_demo_us',
  nickname: 'Acme US',
  payer_entity_type: 'COMPANY',
  transfer_methods: ['SWIFT'],
  beneficiary: {
    entity_type: 'COMPANY',
    company_name: 'Acme Corp',
    address: { city: 'New York', country_code: 'US', postcode: '10001', state: 'US-NY', street_address: '350 Fifth Avenue' },
    bank_details: {
      account_currency: 'USD',
      account_name: 'Acme Corp',
      account_number: '000123456789',
      bank_country_code: 'US',
      bank_name: 'Chase',
      swift_code: 'CHASUS33',
      account_routing_type1: 'aba',
      account_routing_value1: '021000021',
    },
    additional_info: { personal_email: 'ap@acme.example' },
  },
};

const NO_LIST_ONLY = {
  localClearingSystem: null,
  accountRoutingType2: null,
  accountRoutingValue2: null,
  bankBranch: null,
};

const demo: Beneficiary = {
  id: 'ben_demo_us',
  nickname: 'Acme US',
  transferMethods: ['SWIFT'],
  payerEntityType: 'COMPANY',
  entityType: 'COMPANY',
  companyName: 'Acme Corp',
  address: { streetAddress: '350 Fifth Avenue', city: 'New York', postcode: '10001', state: 'US-NY', countryCode: 'US' },
  bankDetails: {
    accountCurrency: 'USD',
    accountName: 'Acme Corp',
    accountNumber: '000123456789',
    bankCountryCode: 'US',
    bankName: 'Chase',
    swiftCode: 'CHASUS33',
    accountRoutingType1: 'aba',
    accountRoutingValue1: '021000021',
    ...NO_LIST_ONLY,
  },
  additionalInfo: { personalEmail: 'ap@acme.example' },
};

describe('beneficiary models: three upstream shapes, one domain shape', () => {
  it('reads the record by id in full; fields only lists carry are null', () => {
    expect(beneficiaryModel.parse(readBack)).toEqual(demo);
  });

  it('reads a list entry: fullName is the company name, what the list lacks is null', () => {
    const entry = {
      beneficiaryId: 'ben_demo_gb',
      fullName: 'Brit Ltd',
      nickname: null,
      bankDetails: {
        account_currency: 'gbp',
        account_name: 'Brit Ltd',
        account_number: '31926819',
        bank_country_code: 'GB',
        bank_name: 'Barclays',
        swift_code: null,
        local_clearing_system: 'BANK_TRANSFER',
        account_routing_type1: 'sort_code',
        account_routing_value1: '200000',
        account_routing_type2: null,
        account_routing_value2: null,
        bank_branch: null,
      },
    };
    expect(beneficiaryListEntryModel.parse(entry)).toEqual({
      id: 'ben_demo_gb',
      nickname: null,
      transferMethods: null,
      payerEntityType: null,
      entityType: null,
      companyName: 'Brit Ltd',
      address: null,
      bankDetails: {
        accountCurrency: 'GBP',
        accountName: 'Brit Ltd',
        accountNumber: '31926819',
        bankCountryCode: 'GB',
        bankName: 'Barclays',
        swiftCode: null,
        localClearingSystem: 'BANK_TRANSFER',
        accountRoutingType1: 'sort_code',
        accountRoutingValue1: '200000',
        accountRoutingType2: null,
        accountRoutingValue2: null,
        bankBranch: null,
      },
      additionalInfo: null,
    });
  });

  it('reads a write result: only the id (and the bank details it may carry)', () => {
    const result = beneficiaryWriteResultModel.parse({ id: 'ben_1', beneficiary_account_currency: null, beneficiary_account_number: null });
    expect(result).toMatchObject({ id: 'ben_1', companyName: null, bankDetails: null, transferMethods: null });
    const withAccount = beneficiaryWriteResultModel.parse({
      id: 'ben_1',
      beneficiary_account_currency: 'USD',
      beneficiary_account_number: '42',
    });
    expect(withAccount.bankDetails).toMatchObject({ accountCurrency: 'USD', accountNumber: '42', swiftCode: null });
  });

  it('refuses payloads that break the contract', () => {
    expect(beneficiaryModel.safeParse({ ...readBack, transfer_methods: ['WIRE'] }).success).toBe(false);
    expect(beneficiaryModel.safeParse({ ...readBack, beneficiary: undefined }).success).toBe(false);
    expect(beneficiaryListEntryModel.safeParse({ fullName: 'x' }).success).toBe(false);
  });

  it('reads a schema entry; nickname has no rule, and a pattern that does not compile breaks the contract', () => {
    expect(
      beneficiaryRuleModel.parse({
        key: 'postcode',
        path: 'beneficiary.address.postcode',
        required: true,
        rule: { type: 'string', pattern: '^\\d{5}$' },
      }),
    ).toEqual({
      key: 'postcode',
      path: 'beneficiary.address.postcode',
      required: true,
      pattern: '^\\d{5}$',
    });
    expect(beneficiaryRuleModel.parse({ key: 'nickname', path: 'nickname', required: false }).pattern).toBeNull();
    expect(beneficiaryRuleModel.safeParse({ key: 'x', path: 'x', required: true, rule: { type: 'string', pattern: '([' } }).success).toBe(
      false,
    );
  });
});

const fullRequest: BeneficiaryWriteRequest = {
  nickname: 'Acme US',
  transferMethods: ['SWIFT'],
  beneficiary: {
    entityType: 'COMPANY',
    companyName: 'Acme Corp',
    address: { streetAddress: '350 Fifth Avenue', city: 'New York', postcode: '10001', state: 'US-NY', countryCode: 'US' },
    bankDetails: {
      accountCurrency: 'USD',
      accountName: 'Acme Corp',
      accountNumber: '000123456789',
      bankCountryCode: 'US',
      bankName: 'Chase',
      swiftCode: 'CHASUS33',
      accountRoutingType1: 'aba',
      accountRoutingValue1: '021000021',
    },
    additionalInfo: { personalEmail: 'ap@acme.example' },
  },
};

function at(value: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value);
}

describe('write bodies', () => {
  it('nests the body as the request, each member renamed to its snake_case twin', () => {
    const body = beneficiaryWriteBody(fullRequest);
    expect(body).toEqual({ ...readBack, id: undefined, payer_entity_type: undefined });
    // Every documented rule path (and the routing members LOCAL adds) finds in the body what the input holds there.
    const paths = [
      'beneficiary.entity_type',
      'beneficiary.bank_details.bank_country_code',
      'beneficiary.bank_details.account_currency',
      'transfer_method',
      'beneficiary.company_name',
      'beneficiary.bank_details.swift_code',
      'beneficiary.bank_details.account_number',
      'beneficiary.bank_details.account_name',
      'beneficiary.address.country_code',
      'beneficiary.address.postcode',
      'beneficiary.address.street_address',
      'beneficiary.address.city',
      'beneficiary.address.state',
      'nickname',
      'beneficiary.additional_info.personal_email',
      'beneficiary.bank_details.account_routing_type1',
      'beneficiary.bank_details.account_routing_value1',
    ];
    for (const path of paths) {
      const bodyPath = (BENEFICIARY_RULE_ALIASES[path] ?? path).split('.');
      expect(at(body, bodyPath), path).toEqual(at(fullRequest, inputPathOf(path, BENEFICIARY_RULE_ALIASES)));
      expect(at(body, bodyPath), path).toBeDefined();
    }
  });

  it('leaves out what was not given, so a partial update sends only its changes', () => {
    expect(
      beneficiaryWriteBody({ nickname: 'New', transferMethods: null, beneficiary: { address: null, companyName: undefined } }),
    ).toEqual({
      nickname: 'New',
      beneficiary: {},
    });
    expect(beneficiaryWriteBody({ beneficiary: { address: { postcode: '10002', city: null } } })).toEqual({
      beneficiary: { address: { postcode: '10002' } },
    });
  });
});

describe('mergeBeneficiaryUpdate', () => {
  it('keeps what the patch omits and replaces address, bank details and additional info as a whole', () => {
    const merged = mergeBeneficiaryUpdate(demo, { nickname: null, beneficiary: { address: { postcode: '94105', city: 'San Francisco' } } });
    expect(merged).toEqual({
      ...fullRequest,
      beneficiary: { ...fullRequest.beneficiary, address: { postcode: '94105', city: 'San Francisco' } },
    });
    expect(mergeBeneficiaryUpdate(demo, {})).toEqual(fullRequest);
    expect(mergeBeneficiaryUpdate(demo, { transferMethods: ['LOCAL'], nickname: 'x' })).toMatchObject({
      transferMethods: ['LOCAL'],
      nickname: 'x',
    });
  });
});

describe('ruleSetCombinations', () => {
  it('selects one rule set per distinct transfer method', () => {
    expect(ruleSetCombinations({ ...fullRequest, transferMethods: ['SWIFT', 'LOCAL', 'SWIFT'] })).toEqual({
      combinations: [
        { bankCountry: 'US', currency: 'USD', entityType: 'COMPANY', transferMethod: 'SWIFT' },
        { bankCountry: 'US', currency: 'USD', entityType: 'COMPANY', transferMethod: 'LOCAL' },
      ],
      missing: [],
    });
  });

  it('names the selectors a record lacks by their upstream paths', () => {
    expect(ruleSetCombinations({ transferMethods: [], beneficiary: { entityType: 'PERSONAL' } })).toEqual({
      combinations: [],
      missing: ['beneficiary.bank_details.bank_country_code', 'beneficiary.bank_details.account_currency', 'transfer_methods'],
    });
  });
});
