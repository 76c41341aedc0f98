import type { z } from 'zod';

/**
 * How a payload model may be read lazily (lazy-model.ts), field by field as the graph asks for them.
 * The helpers that build models (camelObject, single, orNull, orEmpty, orEmptyObject) say it of what
 * they build; a plain zod object without a catchall and an array without checks are recognised by
 * their definition. Anything else (a transform, a refinement or a union over a whole object, a
 * loose object) is parsed whole by its own zod model when it is reached: laziness stops there, and
 * so does nothing but speed.
 */
export type LazyPlan =
  | { kind: 'eager' }
  | ObjectPlan
  /** An array: checked to be one at once, each element read by its own plan. */
  | { kind: 'array'; element: z.ZodType }
  /** single(): an array of exactly one element, read as that element. */
  | { kind: 'single'; element: z.ZodType }
  /** orNull, orEmpty, orEmptyObject: absent or null reads as `absent()`, anything else as `inner`. */
  | { kind: 'absent-as'; inner: z.ZodType; absent: () => unknown };

export interface ObjectPlan {
  kind: 'object';
  /** The view's keys, in the model's order. */
  keys: readonly string[];
  fields: ReadonlyMap<PropertyKey, LazyField>;
}

export interface LazyField {
  /** The key in the view (camelCase). */
  key: string;
  /** The key in the bank's payload. */
  source: string;
  model: z.ZodType;
  /** Another field whose value, when not null, this one reads instead (see camelObject's `preferring`). */
  preferring?: string | undefined;
}

const EAGER: LazyPlan = { kind: 'eager' };
const plans = new WeakMap<z.ZodType, LazyPlan>();

/** `model`, with how it is read lazily: for the helpers that build models. */
export function readLazilyAs<T extends z.ZodType>(model: T, plan: LazyPlan): T {
  plans.set(model, plan);
  return model;
}

/** An object plan from [bank key, view key] pairs of a zod object's shape. */
export function objectPlan(shape: Readonly<Record<string, z.ZodType>>, pairs: readonly (readonly [source: string, key: string])[], preferring: Readonly<Record<string, string>> = {}): LazyPlan {
  const fields = new Map<PropertyKey, LazyField>();
  for (const [source, key] of pairs) {
    // A view key Object.prototype already has (`constructor`, `toString`) would read as the
    // prototype's before the field's: such a model is parsed whole.
    if (key in Object.prototype) return EAGER;
    fields.set(key, { key, source, model: shape[source]!, preferring: preferring[key] });
  }
  return { kind: 'object', keys: pairs.map(([, key]) => key), fields };
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
  const def = model._zod.def as { type: string; shape?: Record<string, z.ZodType>; catchall?: unknown; element?: z.ZodType; checks?: unknown[] };
  // A refinement of a whole object is one of its checks: such an object is parsed whole.
  const unchecked = (def.checks ?? []).length === 0;
  if (def.type === 'object' && def.shape && def.catchall === undefined && unchecked) {
    return objectPlan(def.shape, Object.keys(def.shape).map((key) => [key, key] as const));
  }
  if (def.type === 'array' && def.element && unchecked) return { kind: 'array', element: def.element };
  return EAGER;
}
