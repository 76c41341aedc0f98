/** The record cache in the report: its three targets and its table beside the screens without it. */

import type { CacheResult } from '../cache.ts';
import type { OperationResult } from '../measure.ts';
import { ms, table, verdict } from './format.ts';

/** The record cache's three targets (issue 18): repeats make no call; an event and a mutation show at once. */
export function cacheRows(c: CacheResult): string[][] {
  const repeats = c.screens.every((screen) => screen.repeatCalls === 0);
  const { deposit: d, cardUpdate: u } = c;
  const depositShown = d.afterEvent === d.before + d.amount;
  return [
    [
      'record cache: the dashboard and the cards screen repeated within the TTL make 0 upstream calls',
      c.screens.map((screen) => `${screen.name}: ${screen.firstCalls} calls, then ${screen.repeatCalls}`).join('; '),
      verdict(repeats, repeats ? 'every repeat answered from the cache' : 'a repeat reached the bank'),
    ],
    [
      'record cache: after a deposit event the next dashboard shows the new balance',
      `USD available ${d.before}; after the bank's deposit of ${d.amount}, before its event: ${d.beforeEvent}; ` +
        `after deposit.settled: ${d.afterEvent} (${d.balanceCalls} balance read)`,
      verdict(depositShown, depositShown ? 'the event dropped the kept balances' : 'the old balance was shown'),
    ],
    [
      'record cache: after cardUpdate the card shows its new status at once',
      `${u.from} → ${u.to}; the next read: ${u.read} (${u.cardReads} upstream calls between the update's answer and that read)`,
      verdict(u.read === u.to, u.read === u.to ? 'the write dropped the kept card' : 'the old status was shown'),
    ],
  ];
}

export function cacheTable(r: { cache: CacheResult; operations: OperationResult[] }): string {
  return table(
    ['screen', 'calls, first run', 'calls, repeated', 'wall p50 cached', 'wall p50 without the cache'],
    r.cache.screens.map((screen) => {
      const uncached = r.operations.find((o) => o.name === screen.name);
      const without = uncached ? `${ms(uncached.wall.p50)} ms` : 'n/a';
      return [screen.name, String(screen.firstCalls), String(screen.repeatCalls), `${ms(screen.wallP50)} ms`, without];
    }),
  );
}
