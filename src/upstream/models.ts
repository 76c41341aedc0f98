import { z } from 'zod';
import { INVALID, leafRead, readLazilyAs } from './lazy-plans.ts';

/**
 * Building blocks shared by every domain's payload models. Each one accepts the upstream's loose
 * spellings (numbers as strings, `+0000` offsets) and yields one canonical form, so the graph never
 * sees which quirk a payload came with.
 */

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Canonical decimal text for a JSON number: no exponent, no trailing zeros beyond the value. */
export function toDecimalString(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  if (Number.isInteger(value)) return value.toString();
  // toString gives the shortest round-trip form; only tiny or huge magnitudes use an exponent.
  const text = value.toString();
  if (!/e/i.test(text)) return text;
  return value.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}

/*
 * The building blocks below run on nearly every field of every answer (a cards screen parses about
 * 2,500 of them), so each is one check and one transform. zod's chains (trim → transform → pipe →
 * regex, or a union of two) make a pass and a result object per link: a card's details took half
 * as long again, and allocated twice the bytes, with them.
 *
 * Each holds its rule in one function, run by its zod transform and by its leaf plan (lazy-plans.ts)
 * alike: a lazy read of a field (lazy-model.ts) takes what the rule gives without zod's payload,
 * issues and result objects, and leaves a broken value to the zod model, whose issue it reports.
 */

/** Why a value breaks a building block's rule: the issue its zod model reports for it. */
class Problem {
  readonly #issue: () => z.core.$ZodSuperRefineIssue;

  constructor(issue: () => z.core.$ZodSuperRefineIssue) {
    this.#issue = issue;
  }

  /** Made afresh at every report: zod fills in the input and the schema on the object it is given. */
  issue(): z.core.$ZodSuperRefineIssue {
    return this.#issue();
  }
}

/** A problem reported as a custom issue saying `message`: made once where the message is fixed. */
export function problem(message: string): Problem {
  return new Problem(() => ({ code: 'custom', message }));
}

/**
 * A building block that reads what `input` parses (a leaf: z.string(), say) by `rule`: as a zod
 * transform that reports the rule's problem as an issue, and as a leaf plan that gives INVALID for
 * it, so that the transform reports it.
 */
export function ruled<In extends z.ZodType, Out>(input: In, rule: (value: z.output<In>) => Out | Problem) {
  const accepted = leafRead(input);
  const model = input.transform((value, ctx) => {
    const read = rule(value);
    if (!(read instanceof Problem)) return read as Exclude<Out, Problem>;
    ctx.addIssue(read.issue());
    return z.NEVER;
  });
  return readLazilyAs(model, {
    kind: 'leaf',
    read: (raw) => {
      const value = accepted(raw);
      if (value === INVALID) return INVALID;
      const read = rule(value as z.output<In>);
      return read instanceof Problem ? INVALID : read;
    },
  });
}

const NOT_FINITE = problem('must be a finite number');
const NOT_DECIMAL_TEXT = problem('must be decimal text');

function isDecimalInput(value: unknown): value is number | string {
  return typeof value === 'number' || typeof value === 'string';
}

/** The rule of `decimal`. */
function readDecimal(value: number | string): string | Problem {
  if (typeof value === 'number') return Number.isFinite(value) ? toDecimalString(value) : NOT_FINITE;
  const text = value.trim();
  return DECIMAL.test(text) ? canonicalDecimal(text) : NOT_DECIMAL_TEXT;
}

/**
 * A money amount or rate sent as a JSON number or as decimal text → canonical decimal text, so the
 * same value reads the same whichever way it was sent ("1000.00" and 1000 both become "1000").
 */
export const decimal = ruled(
  readLazilyAs(z.custom<number | string>(isDecimalInput, 'must be a decimal number or decimal text'), {
    kind: 'leaf',
    read: (raw) => (isDecimalInput(raw) ? raw : INVALID),
  }),
  readDecimal,
);

const ZONE_WITHOUT_COLON = /[+-]\d{4}$/;
const ZONE = /([zZ]|[+-]\d{2}:\d{2})$/;

/** The rule of `upstreamDateTime`. */
function readDateTime(text: string): Date | Problem {
  let normalised = text.trim().replace(' ', 'T');
  // `+0000` → `+00:00` by slicing: a replace with groups made three strings per date, on every record.
  if (ZONE_WITHOUT_COLON.test(normalised)) normalised = `${normalised.slice(0, -2)}:${normalised.slice(-2)}`;
  const withZone = ZONE.test(normalised) ? normalised : `${normalised}Z`;
  const date = new Date(withZone);
  return Number.isNaN(date.getTime()) ? problem(`is not a date-time: "${text}"`) : date;
}

/**
 * Date-times as the upstream writes them (`2026-01-05T10:00:00+0000`, `...000+0000`, `Z`, `+08:00`,
 * or with no offset, which we read as UTC) → a Date.
 */
export const upstreamDateTime = ruled(z.string(), readDateTime);

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date `YYYY-MM-DD`, kept as text (no time zone to get wrong). */
export const upstreamDate = readLazilyAs(z.string().regex(DATE_ONLY, 'must be a date YYYY-MM-DD'), {
  kind: 'leaf',
  read: (raw) => (typeof raw === 'string' && DATE_ONLY.test(raw) ? raw : INVALID),
});

/** A code of letters, trimmed and upper-cased because the upstream is not consistent about case. */
function letterCode(pattern: RegExp, message: string) {
  const notACode = problem(message);
  return ruled(z.string(), (text): string | Problem => {
    const code = text.trim().toUpperCase();
    return pattern.test(code) ? code : notACode;
  });
}

/** Text the upstream writes in any case, read upper-cased. */
export const upperCased = ruled(z.string(), (text) => text.toUpperCase());

/** ISO-4217 code. */
export const currencyCode = letterCode(/^[A-Z]{3}$/, 'must be a 3-letter currency code');

/** ISO-3166 alpha-2 code. */
export const countryCode = letterCode(/^[A-Z]{2}$/, 'must be a 2-letter country code');

/**
 * One of `values`, whatever case the upstream wrote it in (statuses and types come in either) and
 * with stray spaces trimmed, with `aliases` for another spelling of the same value (the card list's
 * PHY for PHYSICAL). A value outside them fails with zod's own enum message, naming those allowed.
 */
export function anyCaseEnum<const T extends readonly [string, ...string[]]>(
  values: T,
  options: { lowerCase?: boolean; aliases?: Readonly<Record<string, T[number]>> } = {},
) {
  const allowed = new Set<string>(values);
  // zod's own enum issue, with its own copy of the values at every report.
  const notAllowed = new Problem(() => ({ code: 'invalid_value', values: [...values] }));
  return ruled(z.string(), (text): T[number] | Problem => {
    const trimmed = text.trim();
    const cased = options.lowerCase ? trimmed.toLowerCase() : trimmed.toUpperCase();
    const value = options.aliases?.[cased] ?? cased;
    return allowed.has(value) ? value : notAllowed;
  });
}

/**
 * A field the upstream may omit or send as null: always null when absent, never undefined. A
 * default rather than a transform: a transform is a pipe of its own for every such field (most of a
 * card's), and parsing a card's details took markedly longer with them (docs/architecture.md,
 * "Measured costs").
 */
export function orNull<T extends z.ZodType>(model: T) {
  return readLazilyAs(model.nullable().default(null), { kind: 'absent-as', inner: model, absent: () => null });
}

/** Optional text, read as null when absent. */
export const optionalText = orNull(z.string());

/**
 * `model`'s field `key` (a list the bank wraps in an object of one field): read lazily, the field
 * as its model reads it, where a transform picking it would make zod parse the whole object.
 */
export function fieldOf<T extends z.ZodType<object>, K extends keyof z.output<T> & string>(model: T, key: K) {
  return readLazilyAs(
    model.transform((value) => value[key]),
    { kind: 'field', inner: model, key },
  );
}

/** Most endpoints answer with an array holding one element; this takes that element. */
export function single<T extends z.ZodType>(item: T) {
  const model = z
    .array(item)
    .length(1, 'must hold exactly one element')
    .transform((items) => items[0] as z.output<T>);
  return readLazilyAs(model, { kind: 'single', element: item });
}

/** Decimal text without leading or trailing zeros that carry no value ("-0012.50" → "-12.5"). */
function canonicalDecimal(text: string): string {
  const [whole = '0', fraction = ''] = text.trim().replace(/^\+/, '').split('.');
  const sign = whole.startsWith('-') ? '-' : '';
  const digits = whole.replace('-', '').replace(/^0+(?=\d)/, '');
  const trimmed = fraction.replace(/0+$/, '');
  const value = trimmed ? `${digits}.${trimmed}` : digits;
  return value === '0' ? '0' : `${sign}${value}`;
}

/** Decimal texts equal as numbers ("150.0" and "150" are the same amount). */
export function sameDecimal(a: string, b: string): boolean {
  return canonicalDecimal(a) === canonicalDecimal(b);
}

/**
 * Card numbers leave the gateway masked, whatever the upstream sent: first 6 and last 4 digits,
 * the rest as `*` (e.g. `424242******4242`). Text that is already masked passes unchanged.
 */
/** The Luhn check digit rule every card number satisfies. */
export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

export function maskCardNumber(value: string): string {
  const digits = value.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits)) return value;
  return `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`;
}

/** Any run of 12 to 19 digits in free text (an upstream message, say) masked the same way. */
export function maskCardNumbersIn(text: string): string {
  return text.replace(/\b\d(?:[\s-]?\d){11,18}\b/g, (match) => maskCardNumber(match));
}

/** A card number field of an upstream payload, masked before anything else sees it. */
export const cardNumber = ruled(z.string(), maskCardNumber);

/** Writes that answer the envelope without `data` (Document 2: "Response: no data"). */
export const noData = z.unknown().transform((): void => undefined);

/** A flag the upstream may omit or send as null: false then. */
export const orFalse = ruled(z.boolean().nullish(), (flag) => flag ?? false);

/** A list the upstream may omit or send as null: always an array. */
export function orEmpty<T extends z.ZodType>(item: T) {
  const list = z.array(item);
  return readLazilyAs(
    list.nullish().transform((items): z.output<T>[] => items ?? []),
    { kind: 'absent-as', inner: list, absent: () => [] },
  );
}

/**
 * An object the upstream may omit or send as null, read as the object of nothing: each field as
 * `model` reads its own absence (empty lists, nulls, false), so nobody downstream checks for it.
 * One such object is shared by every absence, and read only.
 */
export function orEmptyObject<T extends z.ZodType<object>>(model: T) {
  return orWhenAbsent(model, model.parse({}));
}

/** A value the upstream may omit or send as null, read as `absent` then (the same value every time). */
export function orWhenAbsent<T extends z.ZodType>(model: T, absent: z.output<T>) {
  return readLazilyAs(
    model.nullish().transform((value): z.output<T> => value ?? absent),
    { kind: 'absent-as', inner: model, absent: () => absent },
  );
}

/** An amount and its currency as one value (the graph's Money); null when either is missing. */
export function moneyOf(amount: string | null, currency: string | null): { amount: string; currency: string } | null {
  return amount !== null && currency !== null ? { amount, currency } : null;
}

/** Document 2's address object (cardholders, card postal addresses): city, country, line1, line2, state, postcode. */
export const addressModel = z.object({
  city: optionalText,
  country: orNull(countryCode),
  line1: optionalText,
  line2: optionalText,
  state: optionalText,
  postcode: optionalText,
});
export type Address = z.output<typeof addressModel>;
