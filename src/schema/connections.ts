import { resolveOffsetConnection } from '@pothos/plugin-relay';
import { pageSizeProblem } from '../security/page-size.ts';
import { fetchWindow, MAX_UPSTREAM_PAGE_SIZE, type PageSlice } from '../upstream/paging.ts';
import { validationErrors } from './mutation-errors.ts';

/** Relay connections over the bank's paged lists. */

interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  before?: string | null;
  after?: string | null;
}

/**
 * `first`/`last` out of bounds are refused, not clamped: a client asking for 500 items must not
 * take the 100 it got for the whole list. (The gateway refuses them before execution already, see
 * security/operation-limits.ts; this holds for any other caller of the schema.)
 */
function pageArgs(args: ConnectionArgs): ConnectionArgs {
  const issues = (['first', 'last'] as const).flatMap((name) => {
    const value = args[name];
    const problem = value == null ? undefined : pageSizeProblem(value);
    return problem ? [{ path: [name], message: problem }] : [];
  });
  if (issues.length > 0) throw validationErrors(issues);
  return args;
}

/** A Relay connection over a paged upstream list; `fetchPage` gets the 1-based page and its size. */
export function pagedConnection<T>(args: ConnectionArgs, fetchPage: (slice: PageSlice) => Promise<T[]>) {
  return resolveOffsetConnection({ args: pageArgs(args), maxSize: MAX_UPSTREAM_PAGE_SIZE }, ({ offset, limit }) =>
    fetchWindow(offset, limit, fetchPage),
  );
}

/**
 * A Relay connection over an upstream list taken by `offset` and `limit` (at most 100 a call): one
 * call per window, two when the window plus the look-ahead item exceeds 100.
 */
export function offsetConnection<T>(args: ConnectionArgs, fetchRange: (range: { offset: number; limit: number }) => Promise<T[]>) {
  return resolveOffsetConnection({ args: pageArgs(args), maxSize: MAX_UPSTREAM_PAGE_SIZE }, async ({ offset, limit }) => {
    const items: T[] = [];
    for (let start = offset; start < offset + limit; start += MAX_UPSTREAM_PAGE_SIZE) {
      const size = Math.min(MAX_UPSTREAM_PAGE_SIZE, offset + limit - start);
      const range = await fetchRange({ offset: start, limit: size });
      items.push(...range);
      // A short answer is the end of the list.
      if (range.length < size) break;
    }
    return items;
  });
}
