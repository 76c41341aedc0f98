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

/**
 * Representations a router may send in one `_entities` call (FEDERATION_SUBGRAPH): its query plan
 * asks for every record of a level at once, a page of each of several types with them; each is one
 * load of a batched loader, as in `nodes`.
 */
export const MAX_ENTITY_REPRESENTATIONS = 500;

export function listLengthProblem(length: number, max = MAX_LIST_ARGUMENT): string | undefined {
  return length > max ? `must hold at most ${max} items` : undefined;
}
