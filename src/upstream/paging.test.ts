import { describe, expect, it } from 'vitest';
import { fetchWindow, pagesForWindow } from './paging.ts';

const numbers = Array.from({ length: 250 }, (_, i) => i);
function pagedSource() {
  const calls: { page: number; size: number }[] = [];
  const fetchPage = async ({ page, size }: { page: number; size: number }) => {
    calls.push({ page, size });
    return numbers.slice((page - 1) * size, page * size);
  };
  return { calls, fetchPage };
}

describe('pagesForWindow', () => {
  it('serves an aligned window with one page of exactly its size', () => {
    expect(pagesForWindow(0, 21)).toEqual([{ page: 1, size: 21 }]);
    expect(pagesForWindow(42, 21)).toEqual([{ page: 3, size: 21 }]);
  });

  it('finds a larger page size that holds an unaligned window in one call', () => {
    const [slice, ...rest] = pagesForWindow(20, 11);
    expect(rest).toEqual([]);
    const start = (slice!.page - 1) * slice!.size;
    expect(start).toBeLessThanOrEqual(20);
    expect(start + slice!.size).toBeGreaterThanOrEqual(31);
  });

  it('falls back to maximum-size pages when no single page fits', () => {
    expect(pagesForWindow(50, 101)).toEqual([
      { page: 1, size: 100 },
      { page: 2, size: 100 },
    ]);
  });
});

describe('fetchWindow', () => {
  it('returns exactly the requested items, in one upstream call when possible', async () => {
    const source = pagedSource();
    expect(await fetchWindow(20, 11, source.fetchPage)).toEqual(numbers.slice(20, 31));
    expect(source.calls).toHaveLength(1);
  });

  it('stitches two pages for a window wider than the maximum page', async () => {
    const source = pagedSource();
    expect(await fetchWindow(50, 101, source.fetchPage)).toEqual(numbers.slice(50, 151));
    expect(source.calls).toHaveLength(2);
  });

  it('stops at a short page: the end of the list', async () => {
    const source = pagedSource();
    expect(await fetchWindow(240, 101, source.fetchPage)).toEqual(numbers.slice(240));
    expect(source.calls).toHaveLength(1);
  });
});
