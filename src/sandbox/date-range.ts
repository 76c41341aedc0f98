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

interface RawRange {
  from_date?: string | undefined;
  to_date?: string | undefined;
}

/**
 * The cross-field rules, as a zod refinement: both or neither, from ≤ to, and to − from at
 * most `maxDays` days (so maxDays 7 admits eight calendar days counting both ends).
 */
export function dateRangeRule(maxDays: number) {
  return (value: RawRange, ctx: z.RefinementCtx): void => {
    if ((value.from_date === undefined) !== (value.to_date === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'from_date and to_date must be given together' });
      return;
    }
    const range = toDateRange(value);
    if (range === null) return;
    if (range.from > range.to) {
      ctx.addIssue({ code: 'custom', path: [], message: 'from_date must not be after to_date' });
    } else if (range.to - range.from > maxDays * DAY_MS) {
      ctx.addIssue({ code: 'custom', path: [], message: `date range must not exceed ${maxDays} days` });
    }
  };
}

/** Null when no range was asked for (or a day is malformed, which validation reports). */
export function toDateRange(value: RawRange): DateRange | null {
  const from = value.from_date === undefined ? null : parseDay(value.from_date);
  const to = value.to_date === undefined ? null : parseDay(value.to_date);
  return from === null || to === null ? null : { from, to };
}

/** Whether an instant's UTC day lies in the range; no range means everything matches. */
export function inDateRange(ms: number, range: DateRange | null): boolean {
  if (range === null) return true;
  const day = startOfUtcDay(ms);
  return day >= range.from && day <= range.to;
}
