import { z } from 'zod';

/**
 * How a payload model may be read lazily (lazy-model.ts), field by field as the graph asks for them.
 * The helpers that build models (camelObject, single, orNull, orEmpty, orEmptyObject, and the leaf
 * building blocks of models.ts) say it of what they build; a plain zod object without a catchall,
 * an array without checks and the plain leaves (see plainLeaf) are recognised by their definition.
 * Anything else (a transform, a refinement or a union over a whole object, a loose object) is
 * parsed whole by its own zod model when it is reached: laziness stops there, and so does nothing
 * but speed.
 */
export type LazyPlan =
  | { kind: 'eager' }
  | ObjectPlan
  | LeafPlan
  /** An array: checked to be one at once, each element read by its own plan. */
  | { kind: 'array'; element: z.ZodType }
  /** single(): an array of exactly one element, read as that element. */
  | { kind: 'single'; element: z.ZodType }
  /** fieldOf(): `inner` (an object) read as its field `key`. */
  | { kind: 'field'; inner: z.ZodType; key: string }
  /** orNull, orEmpty, orEmptyObject: absent or null reads as `absent()`, anything else as `inner`. */
  | { kind: 'absent-as'; inner: z.ZodType; absent: () => unknown }
  /** A preprocess (camelKeys): the value `prepare` gives (the preprocess's own function) read as `inner`. */
  | { kind: 'prepared'; inner: z.ZodType; prepare: (raw: unknown) => unknown };

export interface ObjectPlan {
  kind: 'object';
  /** The view's keys, in the model's order. */
  keys: readonly string[];
  fields: ReadonlyMap<PropertyKey, LazyField>;
}

/**
 * A value read without zod's machinery: zod's safeParse makes a payload, an issues array and a
 * result object per field (and a second pass for a transform's pipe), the largest allocation the
 * gateway adds to an operation. `read` gives exactly what the model's parse gives when the value
 * keeps the model's rule, and INVALID when it breaks it: the model's own parse then says why, so
 * the issues, their messages and their paths are zod's.
 */
export interface LeafPlan {
  kind: 'leaf';
  read(raw: unknown): unknown;
}

/** What a leaf plan's `read` gives for a value its model would not parse. */
export const INVALID: unique symbol = Symbol('invalid leaf');

export interface LazyField {
  /** The key in the view (camelCase). */
  key: string;
  /** The key in the bank's payload. */
  source: string;
  model: z.ZodType;
  /** Another field whose value, when not null, this one reads instead (see camelObject's `preferring`). */
  preferring?: string | undefined;
  /** The bank's object this field sits in, when the view lifts it out of one (see flattenedPlan); else the payload's own. */
  within?: NestedObject | undefined;
}

/** An object of the bank's inside the payload: its key there, and its model (what a value that is no object fails by). */
export interface NestedObject {
  source: string;
  model: z.ZodType;
}

const EAGER: LazyPlan = { kind: 'eager' };
const plans = new WeakMap<z.ZodType, LazyPlan>();

/** `model`, with how it is read lazily: for the helpers that build models. */
export function readLazilyAs<T extends z.ZodType>(model: T, plan: LazyPlan): T {
  plans.set(model, plan);
  return model;
}

/** An object plan from [bank key, view key] pairs of a zod object's shape. */
export function objectPlan(
  shape: Readonly<Record<string, z.ZodType>>,
  pairs: readonly (readonly [source: string, key: string])[],
  preferring: Readonly<Record<string, string>> = {},
): LazyPlan {
  const fields = new Map<PropertyKey, LazyField>();
  for (const [source, key] of pairs) {
    // A view key Object.prototype already has (`constructor`, `toString`) would read as the
    // prototype's before the field's: such a model is parsed whole.
    if (key in Object.prototype) return EAGER;
    fields.set(key, { key, source, model: shape[source]!, preferring: preferring[key] });
  }
  return { kind: 'object', keys: pairs.map(([, key]) => key), fields };
}

/**
 * The plan of `outer`'s view with the object under its view key `key` lifted out: that object's
 * fields beside the others, in place of it, and winning where both have a key. The lazy twin of a
 * transform `({ [key]: inner, ...rest }) => ({ ...rest, ...inner })`; both must be object plans
 * (camelObject's), which is checked when the model is built.
 */
export function flattenedPlan(outer: z.ZodType, key: string): ObjectPlan {
  const plan = planOf(outer);
  const nested = plan.kind === 'object' ? plan.fields.get(key) : undefined;
  const inner = nested && planOf(nested.model);
  if (plan.kind !== 'object' || !nested || nested.within || inner?.kind !== 'object')
    throw new Error(`flattenedPlan: ${key} is not an object of an object model`);
  const within: NestedObject = { source: nested.source, model: nested.model };
  const fields = new Map<PropertyKey, LazyField>(plan.fields);
  fields.delete(key);
  for (const field of inner.fields.values()) fields.set(field.key, { ...field, within });
  return { kind: 'object', keys: [...new Set([...plan.keys.filter((k) => k !== key), ...inner.keys])], fields };
}

/**
 * The read of `model`'s leaf plan, for a builder that reads what `model` parses on (a transform of
 * it): throws at build time when `model` has no leaf plan, so no builder falls back unnoticed.
 */
export function leafRead(model: z.ZodType): LeafPlan['read'] {
  const plan = planOf(model);
  if (plan.kind !== 'leaf') throw new Error(`not a leaf model: ${model._zod.def.type}`);
  return plan.read;
}

/** How `model` is read: as its builder said, or as its definition shows, else whole. */
export function planOf(model: z.ZodType): LazyPlan {
  let plan = plans.get(model);
  if (plan === undefined) {
    plan = recognised(model);
    plans.set(model, plan);
  }
  return plan;
}

function recognised(model: z.ZodType): LazyPlan {
  const def = model._zod.def as {
    type: string;
    shape?: Record<string, z.ZodType>;
    catchall?: unknown;
    element?: z.ZodType;
    checks?: unknown[];
  };
  // A refinement of a whole object is one of its checks: such an object is parsed whole.
  const unchecked = (def.checks ?? []).length === 0;
  if (def.type === 'object' && def.shape && def.catchall === undefined && unchecked) {
    return objectPlan(
      def.shape,
      Object.keys(def.shape).map((key) => [key, key] as const),
    );
  }
  if (def.type === 'array' && def.element && unchecked) return { kind: 'array', element: def.element };
  return plainLeaf(model) ?? EAGER;
}

/**
 * The keys a plain leaf's definition may have besides `type` and `error` (an error map changes only
 * what a failure says, and a failure is zod's to report). Any other key (a string format, a
 * coercion, a check of its own as z.email() has) may change what parses: such a model is not plain.
 */
const PLAIN_LEAF_KEYS: Readonly<Record<string, readonly string[]>> = {
  string: ['checks'],
  number: ['checks'],
  boolean: [],
  enum: ['entries'],
  literal: ['values'],
  nullable: ['innerType'],
  optional: ['innerType'],
};

interface LeafDef {
  type: string;
  checks?: readonly { _zod: { def: CheckDef } }[];
  entries?: Readonly<Record<string, unknown>>;
  values?: readonly unknown[];
  innerType?: z.ZodType;
}

const STRING: LeafPlan = { kind: 'leaf', read: (raw) => (typeof raw === 'string' ? raw : INVALID) };
/** $ZodNumber takes finite numbers only: NaN and ±Infinity fail. */
const NUMBER: LeafPlan = { kind: 'leaf', read: (raw) => (typeof raw === 'number' && Number.isFinite(raw) ? raw : INVALID) };
const BOOLEAN: LeafPlan = { kind: 'leaf', read: (raw) => (typeof raw === 'boolean' ? raw : INVALID) };

/**
 * A leaf plan equivalent to zod's own parse of `model`, by its definition in zod 4.6.7
 * (node_modules/zod/v4/core/schemas.js): z.string() (with at most .min() checks), z.number(),
 * z.boolean(), z.enum() of strings, z.literal(), and .nullable() or .optional() of a leaf. None
 * else: undefined. package.json pins zod to that version, and lazy-zod-internals.test.ts checks
 * every internal this file reads.
 */
function plainLeaf(model: z.ZodType): LeafPlan | undefined {
  const def = model._zod.def as LeafDef;
  const allowed = PLAIN_LEAF_KEYS[def.type];
  if (allowed === undefined || model._zod.traits.has('$ZodCheck')) return undefined;
  if (!Object.keys(def).every((key) => key === 'type' || key === 'error' || allowed.includes(key))) return undefined;
  const checks = def.checks ?? [];
  switch (def.type) {
    case 'string':
      return checks.length === 0 ? STRING : minLengthString(checks);
    case 'number':
      return checks.length === 0 ? NUMBER : undefined;
    case 'boolean':
      return BOOLEAN;
    case 'enum': {
      const values = Object.values(def.entries!);
      // Numeric entries (a TypeScript enum's) come with reverse mappings zod filters out.
      return values.every((value) => typeof value === 'string') ? oneOf(values) : undefined;
    }
    case 'literal':
      return oneOf(def.values!);
    case 'nullable':
      return orValue(def.innerType!, null);
    case 'optional':
      return optionalLeaf(model, def.innerType!);
  }
  return undefined;
}

/** An enum or a literal: zod checks membership of a Set of its values, as this does. */
function oneOf(values: readonly unknown[]): LeafPlan {
  const allowed = new Set(values);
  return { kind: 'leaf', read: (raw) => (allowed.has(raw) ? raw : INVALID) };
}

/** `inner`'s leaf, with `value` passing as itself (.nullable(): null; .optional(): undefined). */
function orValue(inner: z.ZodType, value: null | undefined): LeafPlan | undefined {
  const plan = planOf(inner);
  if (plan.kind !== 'leaf') return undefined;
  const read = plan.read;
  return { kind: 'leaf', read: (raw) => (raw === value ? value : read(raw)) };
}

/**
 * .optional(): undefined passes as itself unless the inner model substitutes a value for it (a
 * default's); z.exactOptional(), of the same type, lets no undefined pass.
 */
function optionalLeaf(model: z.ZodType, inner: z.ZodType): LeafPlan | undefined {
  if (model._zod.traits.has('$ZodExactOptional') || inner._zod.optin === 'defaulted') return undefined;
  return orValue(inner, undefined);
}

type CheckDef = Readonly<Record<string, unknown>> & { check: string };

/** The keys of a min_length check's definition besides its `when`: none but `abort` and `error` (a failure's) can change what parses. */
const MIN_LENGTH_KEYS = new Set(['check', 'minimum', 'abort', 'error', 'when']);

/** zod's own `when` of a length check, which runs it on anything with a length: every string. */
const WHEN_IT_HAS_LENGTH = (z.string().min(1)._zod.def as LeafDef).checks![0]!._zod.def.when;

/**
 * z.string().min(n), the ids' rule (that one check, run as zod's own `when` runs it): zod counts
 * code points where the UTF-16 length leaves it in doubt (at least n units, fewer than 2n), as this
 * does with zod's own count.
 */
function minLengthString(checks: NonNullable<LeafDef['checks']>): LeafPlan | undefined {
  const check = checks.length === 1 ? checks[0]!._zod.def : undefined;
  if (check?.check !== 'min_length' || check.when !== WHEN_IT_HAS_LENGTH || !Object.keys(check).every((key) => MIN_LENGTH_KEYS.has(key)))
    return undefined;
  const minimum = check.minimum;
  if (typeof minimum !== 'number') return undefined;
  const codePoints = z.core.util.codePointLength;
  return {
    kind: 'leaf',
    read: (raw) => {
      if (typeof raw !== 'string' || raw.length < minimum) return INVALID;
      return raw.length >= minimum * 2 || codePoints(raw) >= minimum ? raw : INVALID;
    },
  };
}
