import { offsetForArgs, offsetToCursor } from '@pothos/plugin-relay';
import { pageSizeProblem } from '../limits/page-size.ts';
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
 * limits/operation-limits.ts; this holds for any other caller of the schema.)
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

/**
 * An edge as Pothos' offset connections make it, whose cursor is written only when a query asks for
 * it: Pothos writes every edge's (a base64 string each, which showed in a dashboard's CPU profile),
 * and most screens select `nodes` alone. Its format is Pothos' own (offsetToCursor), so cursors
 * read back the same.
 */
class OffsetEdge<T> {
  readonly node: T;
  readonly #offset: number;

  constructor(node: T, offset: number) {
    this.node = node;
    this.#offset = offset;
  }

  get cursor(): string {
    return offsetToCursor(this.#offset);
  }
}

/** Pothos' pageInfo of an offset connection, its cursors written when asked for. */
class OffsetPageInfo {
  readonly hasPreviousPage: boolean;
  readonly hasNextPage: boolean;
  readonly #first: number;
  readonly #count: number;

  constructor(first: number, count: number, hasPreviousPage: boolean, hasNextPage: boolean) {
    this.#first = first;
    this.#count = count;
    this.hasPreviousPage = hasPreviousPage;
    this.hasNextPage = hasNextPage;
  }

  get startCursor(): string {
    return offsetToCursor(this.#first);
  }

  get endCursor(): string {
    return offsetToCursor(this.#first + this.#count - 1);
  }
}

type Window = ReturnType<typeof offsetForArgs>;

/**
 * What Pothos' resolveOffsetConnection and resolveArrayConnection give for `nodes` found in
 * `window`, cursors written when read. The bank's lists hold no nulls: a null would be an edge whose
 * node is null, which the schema's non-null node refuses, where Pothos would give a null edge.
 */
function connectionOf<T>(window: Window, nodes: readonly T[], totalCount?: number) {
  const count = Math.min(nodes.length, window.expectedSize);
  const edges = new Array<OffsetEdge<T>>(count);
  for (let i = 0; i < count; i++) edges[i] = new OffsetEdge(nodes[i]!, window.offset + i);
  return { edges, totalCount, pageInfo: new OffsetPageInfo(window.offset, count, window.hasPreviousPage, window.hasNextPage(nodes.length)) };
}

/** A Relay connection over a list the bank answers whole (Pothos' resolveArrayConnection, cursors written when read). */
export function arrayConnection<T>(args: ConnectionArgs, array: readonly T[]) {
  const window = offsetForArgs({ args, totalCount: array.length });
  return connectionOf(window, array.slice(window.offset, window.offset + window.limit), array.length);
}

/** A Relay connection over a paged upstream list; `fetchPage` gets the 1-based page and its size. */
export function pagedConnection<T>(args: ConnectionArgs, fetchPage: (slice: PageSlice) => Promise<T[]>) {
  const window = offsetForArgs({ args: pageArgs(args), maxSize: MAX_UPSTREAM_PAGE_SIZE });
  return fetchWindow(window.offset, window.limit, fetchPage).then((nodes) => connectionOf(window, nodes));
}

/**
 * A Relay connection over an upstream list taken by `offset` and `limit` (at most 100 a call): one
 * call per window, two when the window plus the look-ahead item exceeds 100.
 */
export async function offsetConnection<T>(args: ConnectionArgs, fetchRange: (range: { offset: number; limit: number }) => Promise<T[]>) {
  const window = offsetForArgs({ args: pageArgs(args), maxSize: MAX_UPSTREAM_PAGE_SIZE });
  const { offset, limit } = window;
  const items: T[] = [];
  for (let start = offset; start < offset + limit; start += MAX_UPSTREAM_PAGE_SIZE) {
    const size = Math.min(MAX_UPSTREAM_PAGE_SIZE, offset + limit - start);
    const range = await fetchRange({ offset: start, limit: size });
    items.push(...range);
    // A short answer is the end of the list.
    if (range.length < size) break;
  }
  return connectionOf(window, items);
}
