import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { camelKeys, camelObject, flattened } from './camel-case.ts';
import { beneficiaryModel } from './beneficiaries.ts';
import { cardEndpoints } from './cards.ts';
import { Broken, FAIL } from '../../test/helpers/lazy-reading.ts';
import { extended, readLazily } from './lazy-model.ts';
import { anyCaseEnum, fieldOf, orEmpty, orEmptyObject, orNull, single } from './models.ts';

/** A field model that counts its runs. */
function counted<T extends z.ZodType>(model: T) {
  const runs = { count: 0 };
  const counting = z.unknown().transform((value, ctx) => {
    runs.count += 1;
    const parsed = model.safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  });
  return { model: counting, runs };
}

describe('readLazily', () => {
  it('parses a field when it is first read, once, and no field that is not read', () => {
    const name = counted(z.string());
    const balance = counted(z.number());
    const model = camelObject({ account_name: name.model, available_balance: balance.model });
    const account = readLazily(model, { account_name: 'Main', available_balance: 12 }, FAIL);
    expect(name.runs.count + balance.runs.count).toBe(0);
    expect(account.accountName).toBe('Main');
    expect(account.accountName).toBe('Main');
    expect(name.runs.count).toBe(1);
    expect(balance.runs.count).toBe(0);
  });

  it('reads nested objects and arrays of objects lazily too, each element on its own', () => {
    const status = counted(z.enum(['ACTIVE', 'CLOSED']));
    const item = camelObject({ item_id: z.string(), item_status: status.model });
    const model = single(
      camelObject({ has_more: z.boolean(), items: z.array(item), owner: orNull(camelObject({ first_name: z.string() })) }),
    );
    const page = readLazily(
      model,
      [
        {
          has_more: false,
          items: [
            { item_id: 'a', item_status: 'ACTIVE' },
            { item_id: 'b', item_status: 'nope' },
          ],
          owner: { first_name: 'Ava' },
        },
      ],
      FAIL,
    );
    expect(page.items.map((i) => i.itemId)).toEqual(['a', 'b']);
    expect(status.runs.count).toBe(0);
    expect(page.items[0]!.itemStatus).toBe('ACTIVE');
    expect(() => page.items[1]!.itemStatus).toThrow('data[0].items[1].item_status: ');
    expect(page.owner?.firstName).toBe('Ava');
  });

  it('fails a broken field alone, when it is read, and again at every read, without parsing it again', () => {
    const amount = counted(z.number());
    const model = z.array(camelObject({ id: z.string(), amount: amount.model }));
    const [record] = readLazily(model, [{ id: 'x', amount: 'twelve' }], FAIL);
    expect(record!.id).toBe('x');
    const first = (() => {
      try {
        return record!.amount;
      } catch (error) {
        return error;
      }
    })();
    expect(first).toBeInstanceOf(Broken);
    expect((first as Broken).issues).toEqual([{ path: 'data[0].amount', message: expect.any(String) }]);
    expect(() => record!.amount).toThrow(first);
    expect(amount.runs.count).toBe(1);
  });

  it('checks the shape that holds the fields at once: an object that is not one, single() of two', () => {
    const model = single(camelObject({ id: z.string() }));
    expect(() => readLazily(model, [{ id: 'a' }, { id: 'b' }], FAIL)).toThrow('must hold exactly one element');
    expect(() => readLazily(z.array(camelObject({ id: z.string() })), { id: 'a' }, FAIL)).toThrow(/^data: /);
    const nested = readLazily(camelObject({ owner: camelObject({ id: z.string() }) }), { owner: 'Ava' }, FAIL);
    expect(() => nested.owner).toThrow(/^data\.owner: /);
  });

  it('reads absent values as their model does: null, an empty list, the object of nothing', () => {
    const model = camelObject({
      nick_name: orNull(z.string()),
      tags: orEmpty(z.string()),
      risk: orEmptyObject(camelObject({ factors: orEmpty(z.string()) })),
    });
    const record = readLazily(model, {}, FAIL);
    expect(record).toEqual({ nickName: null, tags: [], risk: { factors: [] } });
  });

  it('gives what the whole parse gives, to spread, Object.keys, JSON and equality alike', () => {
    const detail = {
      card_id: 'crd_1',
      card_currency: 'usd',
      is_personalized: true,
      personalized: false,
      card_number: '4242424242424242',
      spending_controls: [{ amount: '10.50', interval: 'DAILY' }],
      unknown_field: 1,
    };
    const whole = cardEndpoints.detail.data.parse([detail]);
    const lazy = readLazily(cardEndpoints.detail.data, [detail], FAIL);
    expect(lazy).toEqual(whole);
    expect({ ...lazy }).toStrictEqual({ ...whole });
    expect(Object.keys(lazy)).toEqual(Object.keys(whole));
    expect(JSON.parse(JSON.stringify(lazy))).toEqual(JSON.parse(JSON.stringify(whole)));
    // The one rule of the view: is_personalized, when sent, is the flag.
    expect(lazy.personalized).toBe(true);
    expect(lazy.cardNumber).toBe('424242******4242');
  });

  it('keeps what the graph sets on a record (Pothos marks the objects it resolves) beside its fields', () => {
    const mark = Symbol('type');
    const record = readLazily(camelObject({ id: z.string() }), { id: 'a' }, FAIL) as { id: string; [mark]?: string };
    record[mark] = 'Card';
    expect(record[mark]).toBe('Card');
    expect(record.id).toBe('a');
    expect('id' in record && mark in record).toBe(true);
  });

  it('reads a leaf that keeps its rule without zod, and one that breaks it by zod, which says why', () => {
    const status = anyCaseEnum(['ACTIVE', 'CLOSED']);
    const name = z.string();
    const parses = [vi.spyOn(status, 'safeParse'), vi.spyOn(name, 'safeParse')];
    const model = z.array(camelObject({ card_status: status, name_on_card: orNull(name) }));
    const [kept, broken] = readLazily(
      model,
      [
        { card_status: ' active', name_on_card: 'Ava' },
        { card_status: 'OPEN', name_on_card: 7 },
      ],
      FAIL,
    );
    expect([kept!.cardStatus, kept!.nameOnCard]).toEqual(['ACTIVE', 'Ava']);
    expect(parses.map((parse) => parse.mock.calls.length)).toEqual([0, 0]);
    expect(() => broken!.cardStatus).toThrow('data[1].card_status: Invalid option: expected one of "ACTIVE"|"CLOSED"');
    expect(() => broken!.nameOnCard).toThrow('data[1].name_on_card: Invalid input: expected string, received number');
    expect(parses.map((parse) => parse.mock.calls.length)).toEqual([1, 1]);
  });

  it('parses whole what it cannot read lazily: a transform of the whole object', () => {
    const model = z.object({ a: z.string(), b: z.string() }).transform((o) => ({ joined: `${o.a}${o.b}` }));
    expect(readLazily(model, { a: 'x', b: 'y' }, FAIL)).toEqual({ joined: 'xy' });
    expect(() => readLazily(model, { a: 'x' }, FAIL)).toThrow('data.b: ');
  });

  it('extends a view with fields of its own, reading the rest through, each parsed once per view at most', () => {
    const name = counted(z.string());
    const status = counted(z.enum(['NEW', 'SETTLED']));
    const model = z.array(camelObject({ mandate_id: name.model, status: status.model, amount: z.number() }));
    const [debit] = readLazily(model, [{ mandate_id: 'm1', status: 'nope', amount: 5 }], FAIL);
    expect(debit!.mandateId).toBe('m1');
    const acting = extended(debit!, { actingFor: null as string | null, amount: 7 });
    // What was read is not read again; the extra wins over the model's own field.
    expect([acting.mandateId, acting.actingFor, acting.amount, name.runs.count]).toEqual(['m1', null, 7, 1]);
    expect(() => acting.status).toThrow('data[0].status: ');
    expect({ ...extended(readLazily(model, [{ mandate_id: 'm2', status: 'NEW', amount: 1 }], FAIL)[0]!, { actingFor: 'acct' }) }).toEqual({
      mandateId: 'm2',
      status: 'NEW',
      amount: 1,
      actingFor: 'acct',
    });
    // The record itself is as it was.
    expect([debit!.amount, 'actingFor' in debit!]).toEqual([5, false]);
  });

  it('extends a record that is no view on an object whose prototype it is', () => {
    const plain = { id: 'x' };
    const more = extended(plain, { extra: 1 });
    expect([more.id, more.extra, Object.getPrototypeOf(more)]).toEqual(['x', 1, plain]);
  });

  it('reads a list the bank wraps in an object of one field (fieldOf) lazily, item by item, as zod would read it whole', () => {
    const status = counted(z.enum(['SETTLED', 'PENDING']));
    const model = fieldOf(
      single(z.object({ conversions: z.array(camelObject({ conversion_id: z.string(), conversion_status: status.model })) })),
      'conversions',
    );
    const body = [
      {
        conversions: [
          { conversion_id: 'a', conversion_status: 'SETTLED' },
          { conversion_id: 'b', conversion_status: 'nope' },
        ],
      },
    ];
    const conversions = readLazily(model, body, FAIL);
    expect(conversions.map((c) => c.conversionId)).toEqual(['a', 'b']);
    expect(status.runs.count).toBe(0);
    expect(conversions[0]!.conversionStatus).toBe('SETTLED');
    expect(() => conversions[1]!.conversionStatus).toThrow('data[0].conversions[1].conversion_status: ');
    expect(readLazily(model, [{ conversions: [{ conversion_id: 'a', conversion_status: 'SETTLED' }] }], FAIL)).toEqual(
      model.parse([{ conversions: [{ conversion_id: 'a', conversion_status: 'SETTLED' }] }]),
    );
  });

  it('reads a record the bank nests (flattened) lazily: the nested fields beside the others, as the whole parse gives them', () => {
    const name = counted(z.string());
    const model = flattened(
      camelObject({ id: z.string(), owner: camelObject({ first_name: name.model, last_name: z.string() }) }),
      'owner',
    );
    const body = { id: 'a', owner: { first_name: 'Ava', last_name: 'Lind' } };
    const record = readLazily(model, body, FAIL);
    expect(record.id).toBe('a');
    expect(name.runs.count).toBe(0);
    expect(record.firstName).toBe('Ava');
    expect(name.runs.count).toBe(1);
    expect({ ...record }).toStrictEqual({ ...model.parse(body) });
    expect(Object.keys(record)).toEqual(['id', 'firstName', 'lastName']);
    // A broken nested field fails alone; a nested object that is not one fails the fields it holds, at its path.
    const drifted = readLazily(model, { id: 'b', owner: { first_name: 'Ava', last_name: 7 } }, FAIL);
    expect([drifted.id, drifted.firstName]).toEqual(['b', 'Ava']);
    expect(() => drifted.lastName).toThrow('data.owner.last_name: ');
    const missing = readLazily(model, { id: 'c' }, FAIL);
    expect(missing.id).toBe('c');
    expect(() => missing.firstName).toThrow(/^data\.owner: /);
  });

  it("reads a beneficiary as its model parses it whole, its nested record's fields lifted beside its own", () => {
    const body = {
      id: 'ben_1',
      nickname: 'Supplier',
      payer_entity_type: 'COMPANY',
      transfer_methods: ['LOCAL'],
      beneficiary: {
        entity_type: 'COMPANY',
        company_name: 'Contoso',
        address: { city: 'London', country_code: 'gb' },
        bank_details: { account_currency: 'gbp', account_number: '1234' },
      },
    };
    const lazy = readLazily(beneficiaryModel, body, FAIL);
    expect(lazy.companyName).toBe('Contoso');
    expect({ ...lazy }).toStrictEqual({ ...beneficiaryModel.parse(body) });
    expect(JSON.parse(JSON.stringify(lazy))).toEqual(JSON.parse(JSON.stringify(beneficiaryModel.parse(body))));
  });

  it('reads a record sent with snake_case or camelCase keys (camelKeys) lazily, as the whole parse does', () => {
    const status = counted(z.enum(['SETTLED', 'PENDING']));
    const model = z.array(camelKeys(camelObject({ conversionId: z.string(), sourceAmount: z.number(), status: status.model })));
    const body = [
      { conversionId: 'a', sourceAmount: 1, status: 'SETTLED' },
      { conversion_id: 'b', source_amount: 2, status: 'nope' },
    ];
    const [camel, snake] = readLazily(model, body, FAIL);
    expect([camel!.conversionId, snake!.conversionId, snake!.sourceAmount]).toEqual(['a', 'b', 2]);
    expect(status.runs.count).toBe(0);
    expect(() => snake!.status).toThrow('data[1].status: ');
    expect({ ...camel }).toStrictEqual({ ...model.parse([body[0]])[0] });
  });
});
