/**
 * How the direct debit records are read: each remembers the connected account it was read for
 * (x-on-behalf-of) and its key and global ID carry it; a global account's or a mandate's payouts are
 * found by scanning the bank's list of all payouts, which has no filter for either.
 */

import type { GatewayContext } from '../context.ts';
import type { ActingFor, DirectDebit, ListWindow } from '../upstream/direct-debit.ts';
import { extended } from '../upstream/lazy-model.ts';
import { perRequestLoader } from './loaders.ts';

export type Acting<T> = T & { actingFor: ActingFor };
// Read through, not spread: a list of a hundred payouts would parse every field of each (lazy-model.ts).
export const acting = <T extends object>(actingFor: ActingFor) => (record: T): Acting<T> => extended(record, { actingFor });

/** Keys and global IDs: `<actingFor>~<id parts>`; an empty first part is the platform itself. */
export const keyOf = (actingFor: ActingFor, ...parts: string[]) => [actingFor ?? '', ...parts].join('~');
export function partsOf(key: string): { actingFor: ActingFor; parts: string[] } {
  const [first = '', ...parts] = key.split('~');
  return { actingFor: first || null, parts };
}

/** Lists without an account or mandate filter upstream are scanned page by page, this far at most. */
export const MAX_SCAN_PAGES = 20;

/** One read per page and window per request: every mandate of a screen scans the same pages. */
const directDebitPage = perRequestLoader('DirectDebitPage', (key: string, context: GatewayContext) => {
  const { actingFor, parts } = partsOf(key);
  const [page = '1', fromDate = '', toDate = ''] = parts;
  return context.upstream.directDebit.directDebits({ page: Number(page), size: 100, fromDate: fromDate || undefined, toDate: toDate || undefined }, actingFor);
});

/** The ids a scan keeps a global account's or a mandate's payouts by. */
type ScanKey = 'globalAccountId' | 'mandateId';

/**
 * A page's payouts grouped by one of their ids, once per page and id: every mandate of a screen
 * scans the same pages, and reading each payout's id once per mandate was ten reads of every
 * payout on a screen of ten mandates.
 */
const pageGroups = new WeakMap<object, Partial<Record<ScanKey, Map<string | null, DirectDebit[]>>>>();

function payoutsOf(page: { items: DirectDebit[] }, by: ScanKey, id: string): readonly DirectDebit[] {
  let groups = pageGroups.get(page);
  if (!groups) pageGroups.set(page, (groups = {}));
  let grouped = groups[by];
  if (!grouped) {
    grouped = new Map();
    for (const payout of page.items) {
      const key = payout[by];
      const group = grouped.get(key);
      if (group) group.push(payout);
      else grouped.set(key, [payout]);
    }
    groups[by] = grouped;
  }
  return grouped.get(id) ?? [];
}

/** The payouts whose `by` is `id`, page after page of the bank's list, in its order. */
export async function scanDirectDebits(context: GatewayContext, window: Omit<ListWindow, 'page' | 'size'>, actingFor: ActingFor, by: ScanKey, id: string) {
  const kept: DirectDebit[] = [];
  for (let page = 1; page <= MAX_SCAN_PAGES; page++) {
    const result = await directDebitPage(context).load(keyOf(actingFor, String(page), window.fromDate ?? '', window.toDate ?? ''));
    kept.push(...payoutsOf(result, by, id));
    if (!result.hasMore) break;
  }
  return kept.map(acting<DirectDebit>(actingFor));
}
