import { offsetToCursor, resolveArrayConnection, resolveOffsetConnection } from '@pothos/plugin-relay';
import { describe, expect, it } from 'vitest';
import { MAX_UPSTREAM_PAGE_SIZE } from '../upstream/paging.ts';
import { arrayConnection, offsetConnection } from './connections.ts';

/** A connection as a query that selects everything reads it: every cursor written. */
function read(connection: { edges: readonly ({ cursor: string; node: unknown } | null)[]; totalCount?: number | undefined; pageInfo: object }) {
  const { startCursor, endCursor, hasPreviousPage, hasNextPage } = connection.pageInfo as Record<string, unknown>;
  return {
    edges: connection.edges.map((edge) => (edge ? { cursor: edge.cursor, node: edge.node } : null)),
    totalCount: connection.totalCount,
    pageInfo: { startCursor, endCursor, hasPreviousPage, hasNextPage },
  };
}

const LIST = Array.from({ length: 57 }, (_, i) => ({ id: `item-${i}` }));
const ARGS = [
  {},
  { first: 10 },
  { first: 0 },
  { first: 100 },
  { first: 10, after: offsetToCursor(9) },
  { first: 10, after: offsetToCursor(50) },
  { last: 5, before: offsetToCursor(20) },
  { first: 20, last: 5 },
  { after: offsetToCursor(56) },
  { before: offsetToCursor(3) },
];

describe('connections', () => {
  it.each(ARGS)('read as Pothos reads a list answered whole: %j', (args) => {
    expect(read(arrayConnection(args, LIST))).toStrictEqual(read(resolveArrayConnection({ args }, LIST)));
  });

  it.each(ARGS)('read as Pothos reads a list taken by offset: %j', async (args) => {
    const window = ({ offset, limit }: { offset: number; limit: number }) => Promise.resolve(LIST.slice(offset, offset + limit));
    const ours = await offsetConnection(args, window);
    const pothos = await resolveOffsetConnection({ args, maxSize: MAX_UPSTREAM_PAGE_SIZE }, window);
    expect(read(ours)).toStrictEqual(read(pothos));
  });

  it('writes no cursor nobody reads', () => {
    const connection = arrayConnection({ first: 3 }, LIST);
    expect(Object.keys(connection.edges[0]!)).toEqual(['node']);
    expect(connection.edges[2]!.cursor).toBe(offsetToCursor(2));
  });
});
