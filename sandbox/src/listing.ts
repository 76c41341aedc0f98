import { z } from 'zod';
import { dateRangeRule, dateRangeShape, inDateRange, toDateRange, type DateRange } from './date-range.ts';
import { pageOf, pagingShape, type Paging } from './paging.ts';

export interface ListQuery {
  paging: Paging;
  range: DateRange | null;
}

/** Query schema of a dated, paged list: page, size, from_date, to_date with a range limit. */
export function listQuerySchema(maxRangeDays: number) {
  return z
    .object({ ...pagingShape, ...dateRangeShape })
    .superRefine(dateRangeRule(maxRangeDays))
    .transform((value): ListQuery => ({ paging: { page: value.page, size: value.size }, range: toDateRange(value) }));
}

/** Filters by the creation day, orders newest first and cuts the requested page. */
export function listPage<T>(items: Iterable<T>, createdAt: (item: T) => number, query: ListQuery): T[] {
  const inRange = [...items].filter((item) => inDateRange(createdAt(item), query.range));
  return pageOf(inRange, createdAt, query.paging);
}
