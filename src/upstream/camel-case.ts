import { z } from 'zod';
import { flattenedPlan, objectPlan, readLazilyAs } from './lazy-plans.ts';

/**
 * The bank names its fields in snake_case, the gateway in camelCase. A model names each field once,
 * as the bank does, and its camelCase view is derived: the names at run time, once per model, and
 * the view's type by the same rule at the type level.
 */

/** `card_product_id` → `cardProductId`; text without `_` is left as it is. */
export type CamelCase<Key extends string> = Key extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : Key;

/** An object with every key renamed by CamelCase, optional and readonly keys as they were. */
export type CamelCased<T> = { [Key in keyof T as Key extends string ? CamelCase<Key> : Key]: T[Key] };

/** The run-time twin of CamelCase: each letter after a `_` upper-cased, the `_` dropped. */
export function camelCase(key: string): string {
  const [head = '', ...tail] = key.split('_');
  let camel = head;
  for (const part of tail) camel += part.charAt(0).toUpperCase() + part.slice(1);
  return camel;
}

/**
 * A zod object of the bank's fields, read into its camelCase view: `card_id` is `cardId` in what
 * the parse gives. The names are paired once, here; a parse only copies the fields into the view.
 * It is read lazily too (lazy-model.ts), each field by its own model as it is first read.
 *
 * `preferring` names, for a view key, another of the bank's fields that it reads instead when that
 * one is not null (the card detail's `personalized`, which the bank also sends as
 * `is_personalized`): a rule of the view rather than a transform of the whole object, which could
 * not be read lazily.
 */
export function camelObject<Shape extends z.core.$ZodLooseShape>(
  shape: Shape,
  options: { preferring?: Partial<Record<CamelCase<keyof Shape & string>, keyof Shape & string>> } = {},
) {
  type Fields = z.output<z.ZodObject<z.core.util.Writeable<Shape>, z.core.$strip>>;
  const pairs = Object.keys(shape).map((snake): Pair => [snake, camelCase(snake)]);
  const preferring = Object.fromEntries(
    Object.entries<string | undefined>(options.preferring ?? {}).map(([key, snake]) => [
      key,
      snake === undefined ? undefined : camelCase(snake),
    ]),
  );
  // The maker is the transform itself: no call of ours between zod and the copy.
  const model = z.object(shape).transform(viewMaker<Fields, CamelCased<Fields>>(pairs, z.core.util.allowsEval.value, options.preferring));
  return readLazilyAs(model, objectPlan(shape, pairs, preferring as Record<string, string>));
}

type Pair = readonly [snake: string, camel: string];

/**
 * `model` (a camelObject) with the object under its field `key` (a camelObject too) lifted out:
 * that object's fields beside the others, in place of it (a record the bank nests, one thing in
 * the graph). Read lazily as well (flattenedPlan).
 */
export function flattened<T extends Record<string, unknown>, K extends keyof T & string>(model: z.ZodType<T>, key: K) {
  type Flat = Omit<T, K> & (T[K] extends object ? T[K] : never);
  const lift = (record: T): Flat => {
    const { [key]: inner, ...rest } = record;
    return { ...rest, ...(inner as object) } as Flat;
  };
  return readLazilyAs(model.transform(lift), flattenedPlan(model, key));
}

/**
 * Some endpoints answer the same record with snake_case keys in one place and camelCase in another
 * (conversions: create, against get and list). Renaming the keys first lets one camelCase model read
 * both; a key without `_` (every key of the camelCase answers) is taken as it is, with no string work.
 */
export function camelKeys<T extends z.ZodType>(model: T) {
  const prepare = (value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value) ? camelCasedKeys(value) : value;
  // Read lazily as `model` reads the renamed object: the renaming is the preprocess's own.
  return readLazilyAs(z.preprocess(prepare, model), { kind: 'prepared', inner: model, prepare });
}

function camelCasedKeys(value: object): object {
  // Most answers are camelCase already: they are read as they are, not copied.
  if (!Object.keys(value).some((key) => key.includes('_'))) return value;
  const renamed: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) renamed[key.includes('_') ? camelCase(key) : key] = field;
  return renamed;
}

/**
 * What copies the fields into their view. Where code may be generated (zod's own probe says so; it
 * compiles its object parsers the same way), an object literal compiled once per model, as fast as
 * a hand-written one: a loop adding one key at a time was most of the parse of a card detail's
 * fields (docs/architecture.md, "Measured costs"). Elsewhere, that loop. The keys are the model's
 * own, from this source, written as JSON string literals.
 */
export function viewMaker<From, To>(
  pairs: readonly Pair[],
  compile: boolean = z.core.util.allowsEval.value,
  preferring: Readonly<Record<string, string | undefined>> = {},
): (fields: From) => To {
  if (compile) {
    const read = (snake: string) => `fields[${JSON.stringify(snake)}]`;
    const valueOf = (snake: string, camel: string) =>
      preferring[camel] === undefined ? read(snake) : `${read(preferring[camel])} ?? ${read(snake)}`;
    const entries = pairs.map(([snake, camel]) => `${JSON.stringify(camel)}: ${valueOf(snake, camel)}`);
    return new Function('fields', `return { ${entries.join(', ')} };`) as (fields: From) => To;
  }
  return (fields) => {
    const bank = fields as Record<string, unknown>;
    const view: Record<string, unknown> = {};
    for (const [snake, camel] of pairs) {
      const preferred = preferring[camel];
      view[camel] = preferred === undefined ? bank[snake] : (bank[preferred] ?? bank[snake]);
    }
    return view as To;
  };
}
