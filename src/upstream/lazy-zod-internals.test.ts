import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/**
 * What lazy-plans.ts (and lazy-model.ts) read of zod's internals, checked on zod's own schemas: the
 * definitions (`_zod.def`), traits, `optin`, check definitions and the util functions it reads, and
 * the parse rules its leaf plans copy. zod is pinned to the exact version they were written against;
 * an upgrade that changes any of it fails here, naming what changed, before a payload reads wrong.
 */

const root = new URL('../../', import.meta.url);
interface Manifest {
  version?: string;
  dependencies?: Record<string, string>;
}
const json = <T = Manifest>(path: string) => JSON.parse(readFileSync(new URL(path, root), 'utf8')) as T;
const zodOf = (manifest: Manifest) => manifest.dependencies?.zod;

const PINNED = zodOf(json('package.json'));
/** The zod this code imports, wherever npm put it. */
const INSTALLED = json(createRequire(import.meta.url).resolve('zod/package.json')).version;

const PLANS = 'src/upstream/lazy-plans.ts';
const MODEL = 'src/upstream/lazy-model.ts';
const CAMEL = 'src/upstream/camel-case.ts';

const because = (has: string, file: string) =>
  `zod ${INSTALLED} no longer has ${has}: ${file} reads it; keep zod at ${PINNED} in package.json or update ${file}`;

type Def = Record<string, unknown>;
const def = (schema: z.ZodType): Def => schema._zod.def as unknown as Def;
const keys = (schema: z.ZodType) => Object.keys(def(schema)).sort();
const checksOf = (schema: z.ZodType) => ((def(schema).checks ?? []) as { _zod: { def: Def } }[]).map((check) => check._zod.def);
const typeOf = (schema: unknown) => (schema as z.ZodType | undefined)?._zod.def.type;
const parses = (schema: z.ZodType, values: readonly unknown[]) => values.map((value) => schema.safeParse(value).success);

const A = z.string();
const object = z.object({ a: A });
const array = z.array(A);

interface Internal {
  /** What zod has that the file reads, as "zod <version> no longer has …" says it. */
  has: string;
  file: string;
  actual: () => unknown;
  expected: unknown;
}

const INTERNALS: Internal[] = [
  // recognised(): plain objects and arrays.
  {
    has: 'def.type "object" and def.shape (the fields by key), and no other key, on z.object()',
    file: PLANS,
    actual: () => ({ type: typeOf(object), keys: keys(object), field: (def(object).shape as Record<string, unknown>).a === A }),
    expected: { type: 'object', keys: ['shape', 'type'], field: true },
  },
  {
    has: "a whole object's refinement among its def.checks",
    file: PLANS,
    actual: () => [object.refine(() => true), object.superRefine(() => undefined)].map((o) => [typeOf(o), checksOf(o).length]),
    expected: [
      ['object', 1],
      ['object', 1],
    ],
  },
  {
    has: 'def.catchall on the objects that keep or refuse unknown keys, and none on those that strip them',
    file: PLANS,
    actual: () =>
      [
        z.looseObject({ a: A }),
        z.strictObject({ a: A }),
        object.passthrough(),
        object.strict(),
        object.catchall(z.number()),
        object.strip(),
        object.extend({}),
      ].map((o) => typeOf(def(o).catchall)),
    expected: ['unknown', 'never', 'unknown', 'never', 'number', undefined, undefined],
  },
  {
    has: 'def.type "array" and def.element, and no other key, on z.array()',
    file: PLANS,
    actual: () => ({ type: typeOf(array), keys: keys(array), element: def(array).element === A }),
    expected: { type: 'array', keys: ['element', 'type'], element: true },
  },
  {
    has: "an array's length rules among its def.checks",
    file: PLANS,
    actual: () => [array.min(1), array.max(2), array.length(1), array.nonempty()].map((a) => checksOf(a).length),
    expected: [1, 1, 1, 1],
  },
  {
    has: 'def.type other than object, array or a plain leaf on the models read whole (transforms, unions, defaults...)',
    file: PLANS,
    actual: () =>
      [
        object.transform((o) => o),
        z.preprocess((o) => o, object),
        object.pipe(z.any()),
        z.union([object, A]),
        z.discriminatedUnion('k', [z.object({ k: z.literal('a') })]),
        z.intersection(object, object),
        z.custom(() => true),
        object.default({ a: 'x' }),
        object.catch({ a: 'x' }),
        z.record(A, A),
        z.tuple([A]),
        z.lazy(() => object),
      ].map(typeOf),
    expected: ['pipe', 'pipe', 'pipe', 'union', 'union', 'intersection', 'custom', 'default', 'catch', 'record', 'tuple', 'lazy'],
  },
  // plainLeaf(): the leaves read without zod, by the keys of their definitions.
  {
    has: 'no key but def.type on z.string() and z.boolean(), and def.checks (empty) besides on z.number()',
    file: PLANS,
    actual: () => ({ string: keys(z.string()), boolean: keys(z.boolean()), number: keys(z.number()), checks: def(z.number()).checks }),
    expected: { string: ['type'], boolean: ['type'], number: ['checks', 'type'], checks: [] },
  },
  {
    has: 'an error map as def.error',
    file: PLANS,
    actual: () => keys(z.string({ error: 'no' })),
    expected: ['error', 'type'],
  },
  {
    has: 'def.coerce on coercing leaves',
    file: PLANS,
    actual: () => [z.coerce.string(), z.coerce.number(), z.coerce.boolean()].map((s) => def(s).coerce),
    expected: [true, true, true],
  },
  {
    has: 'the $ZodCheck trait (in the Set _zod.traits) on string and number formats, whose def.type is the plain one',
    file: PLANS,
    actual: () =>
      [z.email(), z.uuid(), z.url(), z.iso.datetime(), z.int()].map((s) => [
        typeOf(s),
        s._zod.traits instanceof Set && s._zod.traits.has('$ZodCheck'),
      ]),
    expected: [
      ['string', true],
      ['string', true],
      ['string', true],
      ['string', true],
      ['number', true],
    ],
  },
  {
    has: "string rules other than .min() among def.checks, by their def.check (not 'min_length')",
    file: PLANS,
    actual: () =>
      [
        z.string().email(),
        z.string().regex(/x/),
        z.string().trim(),
        z.string().max(2),
        z.string().length(2),
        z.string().startsWith('a'),
      ].map((s) => checksOf(s).map((check) => check.check)),
    expected: [['string_format'], ['string_format'], ['overwrite'], ['max_length'], ['length_equals'], ['string_format']],
  },
  {
    has: 'number rules among def.checks',
    file: PLANS,
    actual: () => [z.number().int(), z.number().min(1), z.number().positive(), z.number().multipleOf(2)].map((n) => checksOf(n).length),
    expected: [1, 1, 1, 1],
  },
  {
    has: "def.entries (a TypeScript enum's with its reverse mappings), and no other key, on z.enum()",
    file: PLANS,
    actual: () => ({
      keys: keys(z.enum(['A', 'B'])),
      entries: def(z.enum(['A', 'B'])).entries,
      numeric: def(z.enum({ A: 0, B: 1, 0: 'A', 1: 'B' })).entries,
    }),
    expected: { keys: ['entries', 'type'], entries: { A: 'A', B: 'B' }, numeric: { A: 0, B: 1, 0: 'A', 1: 'B' } },
  },
  {
    has: 'def.values, and no other key, on z.literal()',
    file: PLANS,
    actual: () => ({ keys: keys(z.literal('x')), one: def(z.literal('x')).values, two: def(z.literal(['x', 'y'])).values }),
    expected: { keys: ['type', 'values'], one: ['x'], two: ['x', 'y'] },
  },
  {
    has: 'def.innerType, and no other key, on .nullable() and .optional()',
    file: PLANS,
    actual: () => [A.nullable(), A.optional()].map((s) => ({ type: typeOf(s), keys: keys(s), inner: def(s).innerType === A })),
    expected: [
      { type: 'nullable', keys: ['innerType', 'type'], inner: true },
      { type: 'optional', keys: ['innerType', 'type'], inner: true },
    ],
  },
  {
    has: 'the $ZodExactOptional trait on z.exactOptional() (whose def.type is "optional"), and not on .optional()',
    file: PLANS,
    actual: () => [z.exactOptional(A), A.optional()].map((s) => [typeOf(s), s._zod.traits.has('$ZodExactOptional')]),
    expected: [
      ['optional', true],
      ['optional', false],
    ],
  },
  {
    has: '_zod.optin "defaulted" on a default, as on the inner model of .optional() of one',
    file: PLANS,
    actual: () => [A.default('x')._zod.optin, (def(A.default('x').optional()).innerType as z.ZodType)._zod.optin, A._zod.optin],
    expected: ['defaulted', 'defaulted', undefined],
  },
  // minLengthString(): z.string().min(n), the ids' rule.
  {
    has: 'a min_length check whose def has check, minimum and when (and abort and error when given) under _zod.def',
    file: PLANS,
    actual: () =>
      [checksOf(z.string().min(3))[0], checksOf(z.string().min(3, { abort: true, error: 'short' }))[0]].map((check) => ({
        keys: Object.keys(check ?? {}).sort(),
        check: check?.check,
        minimum: check?.minimum,
      })),
    expected: [
      { keys: ['check', 'minimum', 'when'], check: 'min_length', minimum: 3 },
      { keys: ['abort', 'check', 'error', 'minimum', 'when'], check: 'min_length', minimum: 3 },
    ],
  },
  {
    has: 'one `when` function shared by every min_length check',
    file: PLANS,
    actual: () => {
      const [one, seven] = [z.string().min(1), z.string().min(7)].map((s) => checksOf(s)[0]?.when);
      return [typeof one, one === seven];
    },
    expected: ['function', true],
  },
  {
    has: 'z.core.util.codePointLength, counting code points',
    file: PLANS,
    actual: () => (typeof z.core.util.codePointLength === 'function' ? z.core.util.codePointLength('😀a') : 'none'),
    expected: 2,
  },
  // The parse rules the leaf plans give the same answers as.
  {
    has: '.min() counting code points where UTF-16 units leave it in doubt',
    file: PLANS,
    actual: () => parses(z.string().min(2), ['😀', 'ab', '😀😀', 'a']),
    expected: [false, true, true, false],
  },
  {
    has: 'z.number() taking finite numbers only',
    file: PLANS,
    actual: () => parses(z.number(), [1.5, Number.NaN, Infinity, -Infinity, '1']),
    expected: [true, false, false, false, false],
  },
  {
    has: 'z.string(), z.boolean(), z.enum() and z.literal() taking their own values only',
    file: PLANS,
    actual: () => [
      parses(z.string(), ['a', 1, new String('a')]),
      parses(z.boolean(), [true, 'true', 0]),
      parses(z.enum(['A']), ['A', 'a']),
      parses(z.literal(['x', 1]), ['x', 1, 'X', '1']),
    ],
    expected: [
      [true, false, false],
      [true, false, false],
      [true, false],
      [true, true, false, false],
    ],
  },
  {
    has: '.nullable() passing null and .optional() passing undefined as themselves, and nothing else',
    file: PLANS,
    actual: () => [
      A.nullable().parse(null),
      A.optional().parse(undefined),
      ...parses(A.nullable(), [undefined]),
      ...parses(A.optional(), [null]),
    ],
    expected: [null, undefined, false, false],
  },
  // lazy-model.ts: views show the model's keys, and zod says what is wrong with a value.
  {
    has: "z.object() dropping unknown keys and giving its shape's keys in the shape's order",
    file: MODEL,
    actual: () => Object.keys(z.object({ b: A, a: A }).parse({ a: 'a', c: 1, b: 'b' })),
    expected: ['b', 'a'],
  },
  {
    has: "safeParse's { success, data } and { success, error: ZodError } with error.issues of path (keys and indexes) and message",
    file: MODEL,
    actual: () => {
      const model = z.object({ a: z.array(A) });
      const broken = model.safeParse({ a: [1] });
      return {
        kept: model.safeParse({ a: ['x'] }),
        success: broken.success,
        zodError: broken.error instanceof z.ZodError,
        issues: broken.error?.issues.map(({ path, message }) => ({ path, message: typeof message })),
      };
    },
    expected: {
      kept: { success: true, data: { a: ['x'] } },
      success: false,
      zodError: true,
      issues: [{ path: ['a', 0], message: 'string' }],
    },
  },
  // camel-case.ts: camelObject's view maker.
  {
    has: 'z.core.util.allowsEval.value, a boolean',
    file: CAMEL,
    actual: () => typeof z.core.util.allowsEval.value,
    expected: 'boolean',
  },
];

describe('zod, as lazy reading reads it', () => {
  it('is pinned to one exact version, the one installed, in package.json, the workspaces and the lock', () => {
    const pin = `keep zod exact (no ^ or ~) in package.json: ${PLANS} reads its internals`;
    expect(PINNED, pin).toMatch(/^\d+\.\d+\.\d+$/);
    expect(
      INSTALLED,
      `node_modules has zod ${INSTALLED}, package.json pins ${PINNED}: run npm ci, or update ${PLANS} and pin the new version`,
    ).toBe(PINNED);
    for (const workspace of ['packages/settings/package.json', 'sandbox/package.json'])
      expect(zodOf(json(workspace)), `${workspace} must pin zod ${PINNED} as package.json does (one copy of zod)`).toBe(PINNED);
    const lock = json<{ packages: Record<string, Manifest> }>('package-lock.json');
    expect(lock.packages['node_modules/zod']?.version, `package-lock.json must lock zod ${PINNED}: run npm install`).toBe(PINNED);
    expect(zodOf(lock.packages['']!), `package-lock.json must name zod ${PINNED} as package.json does: run npm install`).toBe(PINNED);
    const named = readFileSync(new URL(PLANS, root), 'utf8').match(/by its definition in zod (\S+)/)?.[1];
    expect(named, `${PLANS} must name the zod version its leaf plans were checked against (zod ${PINNED})`).toBe(PINNED);
  });

  for (const { has, file, actual, expected } of INTERNALS)
    it(`has ${has} (${file})`, () => {
      expect(actual(), because(has, file)).toEqual(expected);
    });
});
