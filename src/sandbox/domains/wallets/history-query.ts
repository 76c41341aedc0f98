import { z } from 'zod';
import { bothOrNeither, inOrder } from '../../date-range.ts';
import { pagingShape, type Paging } from '../../paging.ts';
import { DAY_MS, parseDay, parseSecondTime } from '../../time.ts';

/**
 * Query of Wallet history: page, size, and from_date / to_date given together, each either a
 * day (YYYY-MM-DD, the whole day) or an instant (yyyy-MM-ddTHH:mm:ss, UTC). Both ends are
 * inclusive; there is no documented maximum range.
 */
export interface HistoryQuery {
  paging: Paging;
  /** Epoch ms, inclusive; null for no range. */
  range: { from: number; to: number } | null;
}

const FIELDS = { from: 'from_date', to: 'to_date' };

const bound = z.string().refine((text) => startOf(text) !== null, 'must be a date YYYY-MM-DD or a date-time yyyy-MM-ddTHH:mm:ss');

export const historyQuery = z
  .object({ ...pagingShape, from_date: bound.optional(), to_date: bound.optional() })
  .superRefine((value, ctx) => {
    if (!bothOrNeither(value, FIELDS, ctx)) return;
    const range = rangeOf(value.from_date, value.to_date);
    if (range !== null) inOrder(range.from, range.to, FIELDS, ctx);
  })
  .transform((value): HistoryQuery => ({ paging: { page: value.page, size: value.size }, range: rangeOf(value.from_date, value.to_date) }));

function rangeOf(from: string | undefined, to: string | undefined): HistoryQuery['range'] {
  const start = from === undefined ? null : startOf(from);
  const end = to === undefined ? null : endOf(to);
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
