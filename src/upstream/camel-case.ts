import { z } from 'zod';

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
 * the parse gives. The names are paired once here; each parse copies the fields over the pairs, with
 * no string work, into one new object (the parsed snake_case one is left to the collector).
 */
export function camelObject<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  const pairs = Object.keys(shape).map((snake): [string, string] => [snake, camelCase(snake)]);
  return z.object(shape).transform((fields) => {
    const bank = fields as Record<string, unknown>;
    const view: Record<string, unknown> = {};
    for (const [snake, camel] of pairs) view[camel] = bank[snake];
    return view as CamelCased<typeof fields>;
  });
}
