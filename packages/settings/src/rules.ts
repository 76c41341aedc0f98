import { z } from 'zod';

/**
 * The rules a setting can follow, as zod schemas that carry their variable, rule and meaning
 * (`.meta()`), so every program built on them reads the environment, reports problems and
 * documents itself the same way.
 */

/** What each setting tells the docs besides its schema. */
export interface SettingMeta {
  /** The environment variable that sets it. */
  env: string;
  /** What it does, for the docs. */
  meaning: string;
  /** Its rule, in words (the schema enforces it). */
  rule: string;
  /** The default in words, where the schema's own default is not the whole story (e.g. "the sandbox's"). */
  defaultText?: string;
}

/** What each group of settings tells the docs. */
export interface GroupMeta {
  title: string;
  description: string;
}

type Rule = Pick<SettingMeta, 'rule'>;

// Empty strings in env files mean "not set", not "set to empty".
export const unsetIfEmpty = (v: unknown) => (v === '' ? undefined : v);

export function text() {
  return z.preprocess(unsetIfEmpty, z.string().optional()).meta({ rule: 'text' });
}

export function textOr(fallback: string) {
  return z.preprocess(unsetIfEmpty, z.string().default(fallback)).meta({ rule: 'text' });
}

export function httpUrl() {
  return z
    .preprocess(unsetIfEmpty, z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional())
    .transform((url) => url?.replace(/\/+$/, ''))
    .meta({ rule: 'http(s) URL' });
}

export function int(min: number, max: number, fallback: number) {
  return z
    .preprocess(
      (v) => (v === '' || v === undefined ? fallback : v),
      z.coerce
        .number({ error: 'must be a number' })
        .int({ error: 'must be an integer' })
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    )
    .meta({ rule: `integer, ${min} to ${max}` });
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z
    .preprocess(unsetIfEmpty, z.enum(values, { error: `must be one of ${values.join(', ')}` }).optional())
    .meta({ rule: values.join(', ') });
}

export function oneOfOr<const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) {
  const schema = z.enum(values, { error: `must be one of ${values.join(', ')}` });
  return z.preprocess(unsetIfEmpty, schema.default(fallback)).meta({ rule: values.join(', ') });
}

/** `true`/`false` (also 1/0, yes/no, on/off); unset = a default that may depend on NODE_ENV. */
export function flag() {
  return z
    .preprocess(
      (v) => (v === '' ? undefined : typeof v === 'string' ? v.toLowerCase() : v),
      z
        .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], { error: 'must be true or false' })
        .transform((v) => ['true', '1', 'yes', 'on'].includes(v))
        .optional(),
    )
    .meta({ rule: 'true or false' });
}

/** A flag with a fixed default when unset. */
export function flagOr(fallback: boolean) {
  return flag()
    .transform((v) => v ?? fallback)
    .meta({ rule: 'true or false' });
}

/** Comma-separated entries, each held to `entry`. */
export function list<T extends z.ZodType>(entry: T, normalise: (item: string) => string, rule: string) {
  return z
    .preprocess(
      (v) =>
        typeof v === 'string'
          ? v
              .split(',')
              .map((item) => normalise(item.trim()))
              .filter(Boolean)
          : [],
      z.array(entry),
    )
    .meta({ rule });
}

/** A setting: its rule's schema, and the variable and meaning the docs and messages use. */
export function setting<S extends z.ZodType>(env: string, schema: S, meaning: string, defaultText?: string): S {
  const { rule } = schema.meta() as Rule;
  return schema.meta({ env, meaning, rule, ...(defaultText === undefined ? {} : { defaultText }) });
}

export function group<T extends z.ZodRawShape>(title: string, description: string, shape: T) {
  return z.object(shape).meta({ title, description });
}

/** The settings of a group's shape, as they parse. */
export type GroupSettings<T extends z.ZodRawShape> = z.output<z.ZodObject<T>>;

/**
 * A group read into the shape its program uses: `view` runs once every setting of the group has
 * parsed, so the program receives one shape and never assembles it from the settings itself.
 */
export function groupAs<T extends z.ZodRawShape, V>(title: string, description: string, shape: T, view: (settings: GroupSettings<T>) => V) {
  return z.object(shape).transform(view).meta({ title, description });
}
