import { MAX_UPSTREAM_PAGE_SIZE } from '../upstream/paging.ts';

/** Loaders' batches of reads by id: one read a key, or the upstream's list first. */

/** For loaders over reads that answer null for an unknown id: keep the found ones, `sort` maps the rest to null. */
export function onlyFound<T>(items: (T | null)[]): T[] {
  return items.filter((item): item is T => item !== null);
}

/** Up to this many keys, one read each; past it, the upstream's list is read first. */
const LIST_BATCH_THRESHOLD = 4;

/**
 * A loader's batch: one read per key for a few keys; for more, pages of the upstream's list (newest
 * first on the sandbox, where the keys of one screen usually are) until every key is found, the list ends, or a
 * page brings none of them; then single reads for what the list did not hold. At worst that is one
 * call more than a read each; at best one call for up to a hundred keys.
 */
export async function loadByIdOrList<T>(
  ids: readonly string[],
  read: { one: (id: string) => Promise<T | null>; page: (page: number, size: number) => Promise<T[]>; idOf: (item: T) => string },
): Promise<T[]> {
  if (ids.length <= LIST_BATCH_THRESHOLD) return onlyFound(await Promise.all(ids.map(read.one)));
  const wanted = new Set(ids);
  const byId = new Map<string, T>();
  for (let page = 1; page < ids.length && byId.size < wanted.size; page++) {
    const items = await read.page(page, MAX_UPSTREAM_PAGE_SIZE);
    const before = byId.size;
    for (const item of items) if (wanted.has(read.idOf(item))) byId.set(read.idOf(item), item);
    if (items.length < MAX_UPSTREAM_PAGE_SIZE || byId.size === before) break;
  }
  const missing = ids.filter((id) => !byId.has(id));
  const rest = onlyFound(await Promise.all(missing.map(read.one)));
  return [...byId.values(), ...rest];
}
