import { z } from 'zod';
import { inOrder } from '../../date-range.ts';
import { pagingShape, type Paging } from '../../paging.ts';
import { DAY_MS, parseDay, parseSecondTime } from '../../time.ts';

/**
 * Query of Wallet history (Document 2, 4.3: all optional): page, size, and from_date and to_date,
 * either alone or both, each a day (YYYY-MM-DD, the whole day) or an instant
 * (yyyy-MM-ddTHH:mm:ss, UTC: the document names no zone). Both ends are inclusive; a bound left
 * out leaves that side open; there is no documented maximum range.
 */
export interface HistoryQuery {
  paging: Paging;
  /** Epoch ms, inclusive (an open side is infinite); null for no range. */
  range: { from: number; to: number } | null;
}

const FIELDS = { from: 'from_date', to: 'to_date' };

const bound = z.string().refine((text) => startOf(text) !== null, 'must be a date YYYY-MM-DD or a date-time yyyy-MM-ddTHH:mm:ss');

export const historyQuery = z
  .object({ ...pagingShape, from_date: bound.optional(), to_date: bound.optional() })
  .superRefine((value, ctx) => {
    const range = rangeOf(value.from_date, value.to_date);
    if (range !== null && value.from_date !== undefined && value.to_date !== undefined) inOrder(range.from, range.to, FIELDS, ctx);
  })
  .transform((value): HistoryQuery => ({ paging: { page: value.page, size: value.size }, range: rangeOf(value.from_date, value.to_date) }));

function rangeOf(from: string | undefined, to: string | undefined): HistoryQuery['range'] {
  if (from === undefined && to === undefined) return null;
  const start = from === undefined ? Number.NEGATIVE_INFINITY : startOf(from);
  const end = to === undefined ? Number.POSITIVE_INFINITY : endOf(to);
  return start === null || end === null ? null : { from: start, to: end };
}

function startOf(text: string): number | null {
  return parseDay(text) ?? parseSecondTime(text, '');
}

// A day as the upper bound reaches to its last millisecond.
function endOf(text: string): number | null {
  const day = parseDay(text);
  return day === null ? parseSecondTime(text, '') : day + DAY_MS - 1;
}
