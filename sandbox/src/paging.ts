import { z } from 'zod';

// The contract shows no defaults or maximum for page sizes (Document 1, section 8); these
// are the sandbox's choice and every paged list shares them.
const DEFAULT_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;

export interface Paging {
  page: number;
  size: number;
}

function integerParam(min: number, max?: number) {
  let rule = z.number().min(min, `must be at least ${min}`);
  if (max !== undefined) rule = rule.max(max, `must be at most ${max}`);
  return z
    .string()
    .regex(/^-?\d+$/, 'must be an integer')
    .transform(Number)
    .pipe(rule);
}

/** Query fields `page` (1-based) and `size`; spread into a route's query schema. */
export const pagingShape = {
  page: integerParam(1).default(1),
  size: integerParam(1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
};

/** Query fields `page_num` (1-based) and `page_size` of Document 2's lists; same rules as `pagingShape`. */
export const pageNumShape = {
  page_num: pagingShape.page,
  page_size: pagingShape.size,
};

/** Query fields `limit` and `offset` (a 0-based item offset); spread into a route's query schema. */
export const limitOffsetShape = {
  limit: integerParam(1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  offset: integerParam(0).default(0),
};

/**
 * Newest first by creation time. Among equal instants the item recorded later comes first
 * (the sort is stable over the reversed insertion order), so pages never shuffle and two
 * ledger entries of one instant read in the order their running balances were computed.
 */
export function newestFirst<T>(items: Iterable<T>, createdAt: (item: T) => number): T[] {
  return [...items].reverse().sort((a, b) => createdAt(b) - createdAt(a));
}

/** Newest first, then one page. */
export function pageOf<T>(items: readonly T[], createdAt: (item: T) => number, paging: Paging): T[] {
  return pageWithMore(items, createdAt, paging).items;
}

/** Newest first, one page, and whether any item follows it. */
export function pageWithMore<T>(items: readonly T[], createdAt: (item: T) => number, paging: Paging): { items: T[]; hasMore: boolean } {
  const start = (paging.page - 1) * paging.size;
  return { items: newestFirst(items, createdAt).slice(start, start + paging.size), hasMore: items.length > start + paging.size };
}
