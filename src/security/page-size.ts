/**
 * The bounds of size arguments, shared by the pre-execution check (operation-limits.ts) and the
 * connection resolvers (schema/connections.ts), so both say the same thing.
 */

import { MAX_UPSTREAM_PAGE_SIZE } from '../upstream/paging.ts';

/** Items a connection returns at most per page: one upstream page. */
export const MAX_PAGE_SIZE = MAX_UPSTREAM_PAGE_SIZE;
/** Items a connection returns without `first`/`last` (Pothos' default). */
export const DEFAULT_PAGE_SIZE = 20;
/** Items a list argument (e.g. `nodes(ids:)`) may hold: each may cost an upstream read. */
export const MAX_LIST_ARGUMENT = 100;

/** What is wrong with `first`/`last`, or undefined when it is within bounds. */
export function pageSizeProblem(value: number): string | undefined {
  if (value < 0) return 'must not be negative';
  if (value > MAX_PAGE_SIZE) return `must be at most ${MAX_PAGE_SIZE} (the largest page)`;
  return undefined;
}

export function listLengthProblem(length: number): string | undefined {
  return length > MAX_LIST_ARGUMENT ? `must hold at most ${MAX_LIST_ARGUMENT} items` : undefined;
}
