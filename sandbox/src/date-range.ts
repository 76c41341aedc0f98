import { z } from 'zod';
import { DAY_MS, parseDay, startOfUtcDay } from './time.ts';

/** Inclusive range of UTC days, as midnight instants. */
export interface DateRange {
  from: number;
  to: number;
}

/** A YYYY-MM-DD calendar day. */
export const dayParam = z.string().refine((text) => parseDay(text) !== null, 'must be a date in the form YYYY-MM-DD');

/** Query fields `from_date` and `to_date`; spread into a route's query schema. */
export const dateRangeShape = {
  from_date: dayParam.optional(),
  to_date: dayParam.optional(),
};

/** The names of a range's two query fields. */
export interface RangeFields {
  from: string;
  to: string;
}

const DATE_FIELDS: RangeFields = { from: 'from_date', to: 'to_date' };

type RawRange = Readonly<Record<string, unknown>>;

const textOf = (value: RawRange, key: string): string | undefined => {
  const text = value[key];
  return typeof text === 'string' ? text : undefined;
};

/**
 * Both or neither of the two fields, as a zod refinement step; false (with the issue added)
 * when only one is given.
 */
function bothOrNeither(value: RawRange, fields: RangeFields, ctx: z.RefinementCtx): boolean {
  if ((textOf(value, fields.from) === undefined) === (textOf(value, fields.to) === undefined)) return true;
  ctx.addIssue({ code: 'custom', path: [], message: `${fields.from} and ${fields.to} must be given together` });
  return false;
}

/** from ≤ to, as a zod refinement step; false (with the issue added) when not. */
export function inOrder(from: number, to: number, fields: RangeFields, ctx: z.RefinementCtx): boolean {
  if (from <= to) return true;
  ctx.addIssue({ code: 'custom', path: [], message: `${fields.from} must not be after ${fields.to}` });
  return false;
}

/**
 * The cross-field rules, as a zod refinement: both or neither, from ≤ to, and to − from at
 * most `maxDays` days (so maxDays 7 admits eight calendar days counting both ends; null: no
 * maximum).
 */
export function dateRangeRule(maxDays: number | null, fields: RangeFields = DATE_FIELDS) {
  return (value: RawRange, ctx: z.RefinementCtx): void => {
    if (!bothOrNeither(value, fields, ctx)) return;
    const range = toDateRange(value, fields);
    if (range === null || !inOrder(range.from, range.to, fields, ctx)) return;
    if (maxDays !== null && range.to - range.from > maxDays * DAY_MS) {
      ctx.addIssue({ code: 'custom', path: [], message: `date range must not exceed ${maxDays} days` });
    }
  };
}

/** Null when no range was asked for (or a day is malformed, which validation reports). */
export function toDateRange(value: RawRange, fields: RangeFields = DATE_FIELDS): DateRange | null {
  const fromText = textOf(value, fields.from);
  const toText = textOf(value, fields.to);
  const from = fromText === undefined ? null : parseDay(fromText);
  const to = toText === undefined ? null : parseDay(toText);
  return from === null || to === null ? null : { from, to };
}

/** Whether an instant's UTC day lies in the range; no range means everything matches. */
export function inDateRange(ms: number, range: DateRange | null): boolean {
  if (range === null) return true;
  const day = startOfUtcDay(ms);
  return day >= range.from && day <= range.to;
}
