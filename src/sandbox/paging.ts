import { z } from 'zod';

// The contract shows no defaults or maximum for page sizes (Document 1, section 8); these
// are the sandbox's choice and every paged list shares them.
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface Paging {
  page: number;
  size: number;
}

function integerParam(min: number, max?: number) {
  let rule = z.number().min(min, `must be at least ${min}`);
  if (max !== undefined) rule = rule.max(max, `must be at most ${max}`);
  return z.string().regex(/^-?\d+$/, 'must be an integer').transform(Number).pipe(rule);
}

/** Query fields `page` (1-based) and `size`; spread into a route's query schema. */
export const pagingShape = {
  page: integerParam(1).default(1),
  size: integerParam(1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
};

/** Newest first by creation time (ties broken by id, so pages never shuffle), then one page. */
export function pageOf<T extends { id: string }>(items: readonly T[], createdAt: (item: T) => number, paging: Paging): T[] {
  const sorted = [...items].sort((a, b) => createdAt(b) - createdAt(a) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const start = (paging.page - 1) * paging.size;
  return sorted.slice(start, start + paging.size);
}
