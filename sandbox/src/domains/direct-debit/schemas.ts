import { z } from 'zod';
import { dayParam, inOrder, type DateRange, type RangeFields } from '../../date-range.ts';
import { pageNumShape, type Paging } from '../../paging.ts';
import { DAY_MS, parseDay } from '../../time.ts';
import { MANDATE_STATUSES } from './types.ts';

/**
 * Section 4.2's list queries. The dates are from_created_date and to_created_date; the
 * request sample spells them from_created_at and to_created_at, so those are accepted too
 * (when both spellings of one date are sent, they must agree). page_num is 1-based.
 */
const createdDates = {
  from_created_date: dayParam.optional(),
  to_created_date: dayParam.optional(),
  from_created_at: dayParam.optional(),
  to_created_at: dayParam.optional(),
};

type DateFields = { [K in keyof typeof createdDates]?: string | undefined };

const FIELDS: RangeFields = { from: 'from_created_date', to: 'to_created_date' };
const SYNONYMS = [
  ['from_created_date', 'from_created_at'],
  ['to_created_date', 'to_created_at'],
] as const;

/** The days asked for, as midnight instants; null where a bound was left out. */
export interface CreatedDates {
  from: number | null;
  to: number | null;
}

function datesOf(value: DateFields): CreatedDates {
  const day = (text: string | undefined): number | null => (text === undefined ? null : parseDay(text));
  return { from: day(value.from_created_date ?? value.from_created_at), to: day(value.to_created_date ?? value.to_created_at) };
}

function datesRule(value: DateFields, ctx: z.RefinementCtx): void {
  for (const [name, synonym] of SYNONYMS) {
    const [given, other] = [value[name], value[synonym]];
    if (given !== undefined && other !== undefined && given !== other) {
      ctx.addIssue({ code: 'custom', path: [], message: `${synonym} must equal ${name} when both are given` });
      return;
    }
  }
  const { from, to } = datesOf(value);
  if (from !== null && to !== null) inOrder(from, to, FIELDS, ctx);
}

const paging = (value: { page_num: number; page_size: number }): Paging => ({ page: value.page_num, size: value.page_size });

/** Endpoint 52: status, the two dates, page_num, page_size. */
export const mandatesQuery = z
  .object({ status: z.enum(MANDATE_STATUSES).optional(), ...createdDates, ...pageNumShape })
  .superRefine(datesRule)
  .transform((value) => ({ status: value.status, paging: paging(value), dates: datesOf(value) }));

/** Endpoint 55: the two dates, page_num, page_size. */
export const directDebitsQuery = z
  .object({ ...createdDates, ...pageNumShape })
  .superRefine(datesRule)
  .transform((value) => ({ paging: paging(value), dates: datesOf(value) }));

/**
 * Mandates: the document gives no default period, so a list without dates has every
 * mandate, and a bound left out leaves that side open.
 */
export function mandateWindow(dates: CreatedDates): DateRange {
  return { from: dates.from ?? -Infinity, to: dates.to ?? Infinity };
}

const DEFAULT_WINDOW_DAYS = 30;

/**
 * Payouts (section 8): no dates, or only to_created_date, gives the 30 days before today (or
 * before that date), both ends included; only from_created_date runs up to today.
 */
export function directDebitWindow(dates: CreatedDates, today: number): DateRange {
  const to = dates.to ?? today;
  return { from: dates.from ?? to - DEFAULT_WINDOW_DAYS * DAY_MS, to };
}
