import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { camelObject } from './camel-case.ts';
import { Broken, FAIL } from '../../test/helpers/lazy-reading.ts';
import type { ContractIssue } from './errors.ts';
import { contractIssues, readLazily } from './lazy-model.ts';
import { INVALID, planOf } from './lazy-plans.ts';
import {
  anyCaseEnum,
  cardNumber,
  countryCode,
  currencyCode,
  decimal,
  optionalText,
  orFalse,
  orNull,
  upstreamDate,
  upstreamDateTime,
} from './models.ts';

/**
 * What the upstream might send in a leaf field, odd spellings included: each model below is run on
 * every one of them, so each meets values it takes and values it refuses.
 */
const INPUTS: readonly unknown[] = [
  // Text: empty, blank, cases, padding.
  '',
  ' ',
  'abc',
  'ABC',
  'usd',
  ' usd ',
  'USD',
  'us',
  'GB',
  'ACTIVE',
  'active',
  ' Active ',
  'CLOSED',
  'phy',
  'PHYSICAL',
  'w',
  ' N ',
  'x',
  // Numbers as text, and what looks like one without being one.
  '0',
  '1',
  '1.50',
  '-0012.50',
  '+1',
  '1e3',
  '1.',
  '.5',
  ' 12.0 ',
  '-0',
  '00',
  'Infinity',
  'NaN',
  '1,000',
  // Numbers, the odd ones too.
  0,
  -0,
  1,
  1.5,
  -12.5,
  1e21,
  1e-7,
  5e-324,
  Number.MAX_SAFE_INTEGER,
  Infinity,
  -Infinity,
  Number.NaN,
  // Date-times and dates as the upstream writes them, and not.
  '2026-01-05T10:00:00+0000',
  '2026-01-05T10:00:00.000+0000',
  '2026-01-05T10:00:00-0530',
  '2026-01-05 10:00:00',
  '2026-01-05T10:00:00Z',
  '2026-01-05T10:00:00+08:00',
  ' 2026-01-05T10:00:00 ',
  '2026-01-05',
  ' 2026-01-05',
  '2026-13-45',
  '2026-1-5',
  'not a date',
  // Card numbers, whole, spaced and masked.
  '4242424242424242',
  '4242 4242 4242 4242',
  '4242-4242-4242-4242',
  '424242******4242',
  '12345',
  // Code points beyond one UTF-16 unit, and a lone surrogate.
  '😀',
  'a😀',
  '😀😀',
  '\uD800',
  // Neither text nor number.
  true,
  false,
  null,
  undefined,
  {},
  [],
  ['x'],
  { amount: 1 },
];

/** The leaf building blocks of models.ts, each with the plan it declares. */
const BUILDERS: Record<string, z.ZodType> = {
  decimal,
  upstreamDateTime,
  upstreamDate,
  currencyCode,
  countryCode,
  cardNumber,
  orFalse,
  'anyCaseEnum(card statuses)': anyCaseEnum(['ACTIVE', 'INACTIVE', 'CLOSED']),
  'anyCaseEnum(with an alias)': anyCaseEnum(['VIRTUAL', 'PHYSICAL'], { aliases: { PHY: 'PHYSICAL' } }),
  'anyCaseEnum(lower case)': anyCaseEnum(['w', 'n'], { lowerCase: true }),
};

/** Plain zod leaves lazy-plans.ts recognises by their definition, and leaves made of leaves. */
const PLAIN: Record<string, z.ZodType> = {
  'z.string()': z.string(),
  'z.string() with an error map': z.string({ error: 'must be text' }),
  'z.string().min(1)': z.string().min(1),
  'z.string().min(1, message)': z.string().min(1, 'id must not be empty'),
  'z.string().min(2)': z.string().min(2),
  'z.number()': z.number(),
  'z.boolean()': z.boolean(),
  'z.enum()': z.enum(['ACTIVE', 'CLOSED']),
  'z.literal()': z.literal('ACTIVE'),
  'z.literal() of several': z.literal([1, 'x', null]),
  'z.string().nullable()': z.string().nullable(),
  'z.number().optional()': z.number().optional(),
  'z.boolean().nullish()': z.boolean().nullish(),
  'z.enum().nullish()': z.enum(['ACTIVE', 'CLOSED']).nullish(),
  'currencyCode.nullable()': currencyCode.nullable(),
  'decimal.optional()': decimal.optional(),
};

/** Leaves not certainly read as zod reads them without zod: parsed whole, as before. */
const NOT_LEAVES: Record<string, z.ZodType> = {
  'z.email()': z.email(),
  'z.string().email()': z.string().email(),
  'z.coerce.string()': z.coerce.string(),
  'z.coerce.number()': z.coerce.number(),
  'z.int()': z.int(),
  'z.number().int()': z.number().int(),
  'z.string().trim()': z.string().trim(),
  'z.string().regex()': z.string().regex(/^a/),
  'z.string().refine()': z.string().refine((text) => text !== 'x'),
  'z.string().min(1).max(3)': z.string().min(1).max(3),
  'z.string().min(1) with its own when': z
    .string()
    .check(new z.core.$ZodCheckMinLength({ check: 'min_length', minimum: 1, when: (payload) => typeof payload.value === 'string' })),
  'z.string().max(3)': z.string().max(3),
  'z.enum() of numbers': z.enum({ One: 1, Two: 2 }),
  'z.exactOptional()': z.exactOptional(z.string()),
  'optional of a default': z.string().default('x').optional(),
  'nullable of a refinement': z
    .string()
    .refine((text) => text !== 'x')
    .nullable(),
  'a refined nullable': z
    .string()
    .nullable()
    .refine((text) => text !== 'x'),
  'z.string().transform()': z.string().transform((text) => text.length),
  'z.unknown()': z.unknown(),
};

/** zod's own answer for `raw`, in the terms a lazy read gives it: the value, or the contract issues. */
function byZod(model: z.ZodType, raw: unknown): { value: unknown } | { issues: ContractIssue[] } {
  const parsed = model.safeParse(raw);
  return parsed.success ? { value: parsed.data } : { issues: contractIssues(parsed.error) };
}

function lazily(model: z.ZodType, raw: unknown): { value: unknown } | { issues: ContractIssue[] } {
  try {
    return { value: readLazily(model, raw, FAIL) };
  } catch (error) {
    if (error instanceof Broken) return { issues: error.issues };
    throw error;
  }
}

/** An input as the test's name shows it: NaN, -0 and undefined as themselves, which JSON would not. */
const show = (raw: unknown) =>
  Object.is(raw, -0) ? '-0' : typeof raw === 'number' || raw === undefined ? String(raw) : JSON.stringify(raw);

describe.each(Object.entries({ ...BUILDERS, ...PLAIN }))('the leaf plan of %s', (_, model) => {
  it('is a leaf plan', () => {
    expect(planOf(model).kind).toBe('leaf');
  });

  it('meets values it takes and values it refuses among the inputs', () => {
    const taken = INPUTS.filter((raw) => model.safeParse(raw).success);
    expect(taken.length).toBeGreaterThan(0);
    expect(taken.length).toBeLessThan(INPUTS.length);
  });

  it.each(INPUTS.map((raw) => [show(raw), raw] as const))('reads %s as zod parses it', (_shown, raw) => {
    const zod = byZod(model, raw);
    const plan = planOf(model);
    if (plan.kind !== 'leaf') throw new Error('not a leaf plan');
    const read = plan.read(raw);
    if ('value' in zod) {
      // The fast path itself gives zod's value: the same string, the same Date, the same canonical decimal text.
      expect(read).not.toBe(INVALID);
      expect(read).toStrictEqual(zod.value);
      expect(Object.is(read, zod.value) || zod.value instanceof Date).toBe(true);
    } else {
      expect(read).toBe(INVALID);
    }
    expect(lazily(model, raw)).toStrictEqual(zod);
  });
});

describe.each(Object.entries(NOT_LEAVES))('%s', (_, model) => {
  it('is parsed whole, as zod parses it', () => {
    expect(planOf(model).kind).toBe('eager');
    for (const raw of INPUTS) expect(lazily(model, raw)).toStrictEqual(byZod(model, raw));
  });
});

describe('leaves read within a payload', () => {
  const model = camelObject({
    amount: decimal,
    fee: orNull(decimal),
    currency: currencyCode,
    booked_at: upstreamDateTime,
    status: anyCaseEnum(['ACTIVE', 'CLOSED']),
    note: optionalText,
    flagged: orFalse,
    id: z.string().min(1),
  });

  it('gives what the whole parse gives', () => {
    const raw = {
      amount: 1000.5,
      fee: null,
      currency: ' usd',
      booked_at: '2026-01-05T10:00:00+0000',
      status: 'active ',
      note: 'x',
      id: 'a',
    };
    const record = readLazily(model, raw, FAIL);
    expect({ ...record }).toStrictEqual({ ...model.parse(raw) });
    expect(record.bookedAt.getTime()).toBe(Date.UTC(2026, 0, 5, 10));
  });

  it.each([
    ['amount', { amount: '1e3' }, 'data.amount', 'must be decimal text'],
    ['amount', { amount: Infinity }, 'data.amount', 'must be a finite number'],
    ['amount', { amount: true }, 'data.amount', 'must be a decimal number or decimal text'],
    ['fee', { fee: 'abc' }, 'data.fee', 'must be decimal text'],
    ['currency', { currency: 'dollars' }, 'data.currency', 'must be a 3-letter currency code'],
    ['bookedAt', { booked_at: 'soon' }, 'data.booked_at', 'is not a date-time: "soon"'],
    ['status', { status: 'OPEN' }, 'data.status', 'Invalid option: expected one of "ACTIVE"|"CLOSED"'],
    ['flagged', { flagged: 'yes' }, 'data.flagged', 'Invalid input: expected boolean, received string'],
    ['id', { id: '' }, 'data.id', 'Too small: expected string to have >=1 characters'],
  ] as const)('fails %s with zod issue at its path', (key, raw, path, message) => {
    const record = readLazily(model, raw, FAIL) as Record<string, unknown>;
    expect(() => record[key]).toThrow(expect.objectContaining({ issues: [{ path, message }] }));
  });
});
