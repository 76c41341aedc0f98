import { describe, expect, it } from 'vitest';
import { brokenRule, camelCase, checkRules, inputPathOf, type FieldRule } from './upstream-rules.ts';

const rule = (key: string, path: string, required: boolean, pattern: string | null = null): FieldRule => ({ key, path, required, pattern });

const RULES: FieldRule[] = [
  rule('entity_type', 'beneficiary.entity_type', true, '^(COMPANY|PERSONAL)$'),
  rule('transfer_method', 'transfer_method', true, '^(LOCAL|SWIFT)$'),
  rule('account_routing_type1', 'beneficiary.bank_details.account_routing_type1', false, '^aba$'),
  rule('postcode', 'beneficiary.address.postcode', true, '^\\d{5}(-\\d{4})?$'),
  rule('street_address', 'beneficiary.address.street_address', true, '^(?!\\d+$).{5,200}$'),
  rule('nickname', 'nickname', false),
  rule('personal_email', 'beneficiary.additional_info.personal_email', false, '^[^\\s@]*@[^\\s@]*$'),
];
const ALIASES = { transfer_method: 'transfer_methods' };

const valid = {
  nickname: 'Acme',
  transferMethods: ['SWIFT'],
  beneficiary: {
    entityType: 'COMPANY',
    address: { postcode: '10001-1234', streetAddress: '350 Fifth Avenue' },
    additionalInfo: { personalEmail: 'ap@acme.example' },
  },
};

describe('rule paths', () => {
  it('maps a dotted upstream path to the camelCase input path, digits and aliases included', () => {
    expect(camelCase('account_routing_type1')).toBe('accountRoutingType1');
    expect(inputPathOf('beneficiary.bank_details.swift_code')).toEqual(['beneficiary', 'bankDetails', 'swiftCode']);
    expect(inputPathOf('beneficiary.bank_details.account_routing_value1')).toEqual(['beneficiary', 'bankDetails', 'accountRoutingValue1']);
    expect(inputPathOf('transfer_method', ALIASES)).toEqual(['transferMethods']);
    expect(inputPathOf('nickname', ALIASES)).toEqual(['nickname']);
  });
});

describe('brokenRule', () => {
  it('requires a value where the rule says so, treating null and empty text as absent', () => {
    const postcode = RULES[3]!;
    for (const absent of [undefined, null, '']) expect(brokenRule(postcode, absent)).toBe('postcode is required');
    expect(brokenRule(RULES[5]!, undefined)).toBeNull();
    expect(brokenRule(RULES[6]!, null)).toBeNull();
  });

  it('checks a given value against the pattern, optional or not', () => {
    expect(brokenRule(RULES[3]!, '1000')).toBe('postcode must match ^\\d{5}(-\\d{4})?$');
    expect(brokenRule(RULES[3]!, '10001')).toBeNull();
    expect(brokenRule(RULES[4]!, '12345')).toBe('street_address must match ^(?!\\d+$).{5,200}$');
    expect(brokenRule(RULES[6]!, 'no at sign')).toBe('personal_email must match ^[^\\s@]*@[^\\s@]*$');
    expect(brokenRule(RULES[5]!, 'anything at all')).toBeNull();
    expect(brokenRule(RULES[3]!, 10001)).toBe('postcode must match ^\\d{5}(-\\d{4})?$');
  });
});

describe('checkRules', () => {
  it('finds nothing wrong with a value that follows every rule', () => {
    expect(checkRules(RULES, valid, { at: ['input'], aliases: ALIASES })).toEqual([]);
  });

  it('reports each broken rule with its input path, a message naming the rule and the upstream path, in rule order', () => {
    const broken = {
      transferMethods: ['SWIFT', 'WIRE'],
      beneficiary: { address: { postcode: 'ABC', streetAddress: '350 Fifth Avenue' }, bankDetails: { accountRoutingType1: 'iban' } },
    };
    expect(checkRules(RULES, broken, { at: ['input'], aliases: ALIASES })).toEqual([
      { path: ['input', 'beneficiary', 'entityType'], message: 'entity_type is required', upstreamPath: 'beneficiary.entity_type' },
      { path: ['input', 'transferMethods', 1], message: 'transfer_method must match ^(LOCAL|SWIFT)$', upstreamPath: 'transfer_method' },
      {
        path: ['input', 'beneficiary', 'bankDetails', 'accountRoutingType1'],
        message: 'account_routing_type1 must match ^aba$',
        upstreamPath: 'beneficiary.bank_details.account_routing_type1',
      },
      {
        path: ['input', 'beneficiary', 'address', 'postcode'],
        message: 'postcode must match ^\\d{5}(-\\d{4})?$',
        upstreamPath: 'beneficiary.address.postcode',
      },
    ]);
  });

  it('applies a rule through an array to each item, and reports an empty or absent array once', () => {
    const methods = [rule('transfer_method', 'transfer_method', true, '^(LOCAL|SWIFT)$')];
    expect(checkRules(methods, { transferMethods: ['X', 'LOCAL', 'Y'] }, { aliases: ALIASES }).map((i) => i.path)).toEqual([
      ['transferMethods', 0],
      ['transferMethods', 2],
    ]);
    expect(checkRules(methods, { transferMethods: [] }, { aliases: ALIASES })).toEqual([
      { path: ['transferMethods'], message: 'transfer_method is required', upstreamPath: 'transfer_method' },
    ]);
    expect(checkRules(methods, {}, { aliases: ALIASES })).toHaveLength(1);
  });

  it('reports a missing parent object at the full path of each required member', () => {
    const issues = checkRules(RULES, { ...valid, beneficiary: { entityType: 'COMPANY', address: null } }, { aliases: ALIASES });
    expect(issues.map((i) => i.path)).toEqual([
      ['beneficiary', 'address', 'postcode'],
      ['beneficiary', 'address', 'streetAddress'],
    ]);
  });

  it('reports a rule repeated by several rule sets once', () => {
    const postcode = RULES[3]!;
    const issues = checkRules([postcode, { ...postcode }, postcode], { beneficiary: { address: { postcode: 'x' } } });
    expect(issues).toHaveLength(1);
  });
});
