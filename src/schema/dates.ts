import { z } from 'zod';
import { builder } from '../builder.ts';

/** Ranges of days and windows of time as list arguments, the rules they are checked by before any call, and today. */

export const DateRangeInput = builder.inputType('DateRangeInput', {
  description:
    'A range of calendar days, both ends included and both required: for the lists whose bank endpoint takes the two dates together (account transactions, balance history, card transactions). The upstream limits how long it may be.',
  fields: (t) => ({
    from: t.field({ type: 'Date', required: true, description: 'First day of the range.' }),
    to: t.field({ type: 'Date', required: true, description: 'Last day of the range.' }),
  }),
});

/** For the lists whose endpoint takes either date alone (mandates, direct debits). */
export const OpenDateRangeInput = builder.inputType('OpenDateRangeInput', {
  description:
    'A range of calendar days, both ends included; either end may be left out (the argument says what the bank then answers).',
  fields: (t) => ({
    from: t.field({ type: 'Date', description: 'First day, included; left out, the range is open at the start.' }),
    to: t.field({ type: 'Date', description: 'Last day, included; left out, the range is open at the end.' }),
  }),
});

/** For wallet history, whose endpoint takes either bound alone, as a day or a date-time (Document 2, 4.3). */
export const TimeWindowInput = builder.inputType('TimeWindowInput', {
  description: 'A window of time, both ends included; each end is a whole day or an instant, and either may be left out (open on that side).',
  fields: (t) => ({
    from: t.field({ type: 'DateOrDateTime', description: 'Start: a day (from its first second) or an instant; left out, open at the start.' }),
    to: t.field({ type: 'DateOrDateTime', description: 'End: a day (to its last second) or an instant; left out, open at the end.' }),
  }),
});

const DAY_MS = 86_400_000;

/** A bound as an instant: a day from its first second or, as the end, to its last. */
const boundStart = (text: string) => Date.parse(text.length === 10 ? `${text}T00:00:00Z` : `${text}Z`);
const boundEnd = (text: string) => Date.parse(text.length === 10 ? `${text}T23:59:59Z` : `${text}Z`);

/** Windows with optional ends: when both are given, the end must not come before the start. */
export const windowOrderRule = z
  .object({ from: z.string().nullish(), to: z.string().nullish() })
  .nullish()
  .superRefine((window, ctx) => {
    if (window?.from && window.to && boundStart(window.from) > boundEnd(window.to)) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
    }
  });

/** Range rules checked before any upstream call, so a bad range costs no request. */
export function dateRangeRule(maxDays: number) {
  return z
    .object({ from: z.string(), to: z.string() })
    .nullish()
    .superRefine((range, ctx) => {
      if (!range) return;
      const days = (Date.parse(range.to) - Date.parse(range.from)) / DAY_MS;
      if (days < 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
      else if (days > maxDays) ctx.addIssue({ code: 'custom', path: ['to'], message: `date range must not exceed ${maxDays} days` });
    });
}

/** Today as YYYY-MM-DD (UTC), for "today or later" and "in the past" rules. */
export const today = () => new Date().toISOString().slice(0, 10);
