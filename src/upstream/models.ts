import { z } from 'zod';

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

/** A money amount or rate sent as a JSON number or as decimal text → decimal text. */
export const decimal = z.union([
  z.number().refine(Number.isFinite, 'must be a finite number').transform(toDecimalString),
  z
    .string()
    .trim()
    .regex(DECIMAL, 'must be decimal text')
    .transform((s) => s.replace(/^(-?)0+(?=\d)/, '$1')),
]);

/**
 * Date-times as the upstream writes them (`2026-01-05T10:00:00+0000`, `...000+0000`, `Z`, `+08:00`,
 * or with no offset, which we read as UTC) → a Date.
 */
export const upstreamDateTime = z.string().transform((text, ctx) => {
  const normalised = text.trim().replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const withZone = /([zZ]|[+-]\d{2}:\d{2})$/.test(normalised) ? normalised : `${normalised}Z`;
  const date = new Date(withZone);
  if (Number.isNaN(date.getTime())) {
    ctx.addIssue({ code: 'custom', message: `is not a date-time: "${text}"` });
    return z.NEVER;
  }
  return date;
});

/** A calendar date `YYYY-MM-DD`, kept as text (no time zone to get wrong). */
export const upstreamDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD');

/** ISO-4217 code; upper-cased because the upstream is not consistent about case. */
export const currencyCode = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .pipe(z.string().regex(/^[A-Z]{3}$/, 'must be a 3-letter currency code'));

/** ISO-3166 alpha-2 code. */
export const countryCode = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .pipe(z.string().regex(/^[A-Z]{2}$/, 'must be a 2-letter country code'));

/** Most endpoints answer with an array holding one element; this takes that element. */
export function single<T extends z.ZodType>(item: T) {
  return z.array(item).length(1, 'must hold exactly one element').transform((items) => items[0] as z.output<T>);
}
