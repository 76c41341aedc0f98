/**
 * Relay's offset windows over the upstream's page/size lists. The upstream pages are 1-based with a
 * maximum size of 100 (the sandbox's documented choice, see docs/sandbox.md). A window [offset, offset+limit)
 * is served by one call whenever some page size between `limit` and the maximum puts the whole window
 * on one page; otherwise by the fewest maximum-size pages that cover it.
 */
export const MAX_UPSTREAM_PAGE_SIZE = 100;

export interface PageSlice {
  page: number;
  size: number;
}

export function pagesForWindow(offset: number, limit: number, maxSize = MAX_UPSTREAM_PAGE_SIZE): PageSlice[] {
  if (limit <= 0) return [];
  for (let size = limit; size <= maxSize; size++) {
    if (Math.floor(offset / size) === Math.floor((offset + limit - 1) / size)) {
      return [{ page: Math.floor(offset / size) + 1, size }];
    }
  }
  const first = Math.floor(offset / maxSize);
  const last = Math.floor((offset + limit - 1) / maxSize);
  return Array.from({ length: last - first + 1 }, (_, i) => ({ page: first + i + 1, size: maxSize }));
}

/** Fetches the items [offset, offset+limit) of a paged upstream list. */
export async function fetchWindow<T>(offset: number, limit: number, fetchPage: (slice: PageSlice) => Promise<T[]>): Promise<T[]> {
  const slices = pagesForWindow(offset, limit);
  const items: T[] = [];
  for (const slice of slices) {
    const page = await fetchPage(slice);
    const pageStart = (slice.page - 1) * slice.size;
    items.push(...page.slice(Math.max(0, offset - pageStart), offset + limit - pageStart));
    // A short page is the end of the list: asking for the next one would only return nothing.
    if (page.length < slice.size) break;
  }
  return items;
}
