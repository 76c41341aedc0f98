import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { camelCase, camelObject, viewMaker, type CamelCase } from './camel-case.ts';

describe('camelCase', () => {
  it('renames at run time as the type does', () => {
    const keys = [
      'card_product_id',
      'account_routing_type1',
      'address_line1',
      'three_dsecure_outcome',
      'currency',
      'genericSlNo',
      'a__b',
    ] as const;
    expect(keys.map(camelCase)).toEqual([
      'cardProductId',
      'accountRoutingType1',
      'addressLine1',
      'threeDsecureOutcome',
      'currency',
      'genericSlNo',
      'aB',
    ]);
    expectTypeOf<CamelCase<(typeof keys)[number]>>().toEqualTypeOf<
      'cardProductId' | 'accountRoutingType1' | 'addressLine1' | 'threeDsecureOutcome' | 'currency' | 'genericSlNo' | 'aB'
    >();
  });
});

describe('camelObject', () => {
  const model = camelObject({ card_id: z.string(), nick_name: z.string().nullable().default(null), tracked: z.boolean().optional() });

  it("reads the bank's fields into their camelCase view, each field once, nothing else", () => {
    expect(model.parse({ card_id: 'crd_1', tracked: true, unknown_field: 1 })).toStrictEqual({
      cardId: 'crd_1',
      nickName: null,
      tracked: true,
    });
    expect(model.safeParse({ cardId: 'crd_1' }).success).toBe(false);
  });

  it('gives the view its type: every key renamed, optional ones still optional', () => {
    expectTypeOf<z.output<typeof model>>().toEqualTypeOf<{ cardId: string; nickName: string | null; tracked?: boolean | undefined }>();
  });
});

describe('viewMaker', () => {
  it('copies the same view whether compiled or looped (where code may not be generated)', () => {
    const pairs = [
      ['card_id', 'cardId'],
      ['a"b', 'aB'],
      ['plain', 'plain'],
    ] as const;
    const fields = { card_id: 'crd_1', 'a"b': 2, plain: null, other: 'left out' };
    const compiled = viewMaker<typeof fields, unknown>(pairs, true)(fields);
    expect(compiled).toStrictEqual({ cardId: 'crd_1', aB: 2, plain: null });
    expect(viewMaker<typeof fields, unknown>(pairs, false)(fields)).toStrictEqual(compiled);
  });
});
