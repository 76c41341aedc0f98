/** Fair share in the report: another client's dashboard under one client's flood, its target and its table. */

import type { FairnessResult } from '../fairness.ts';
import { FLOOD_CONNECTIONS } from '../parameters.ts';
import { ms, pct, rps, spare, table, verdict } from './format.ts';
import { TARGETS } from './targets.ts';

/** The fair-share target: the other client's dashboard under the flood against the idle gateway. */
export function fairnessRow(f: FairnessResult): string[] {
  const limit = TARGETS.fairShareRatio * f.idle.p50;
  const ratio = f.flooded.p50 / f.idle.p50;
  const flood = `the flooder: ${rps(f.flood.rps)} req/s, p50 ${ms(f.flood.latency.p50)} ms, ${f.flood.errors} errors`;
  return [
    `fair share: another client's ${f.operation} p50 ≤ ${TARGETS.fairShareRatio} × its p50 on an idle gateway, ` +
      `one client flooding at c=${FLOOD_CONNECTIONS}`,
    `${ms(f.flooded.p50)} ms under the flood (n=${f.flooded.count}) vs ${ms(f.idle.p50)} ms idle (n=${f.idle.count}): ${ratio.toFixed(2)}×; ${flood}`,
    verdict(f.flooded.p50 <= limit && f.flooded.count > 0, spare(f.flooded.p50, limit)),
  ];
}

export function fairnessTable(f: FairnessResult): string {
  const g = f.flood.gateway;
  return table(
    ['client', 'runs', 'p50', 'p99', 'req/s', 'errors', 'gateway loop busy', 'limit (mean)', 'in flight (mean)', 'queued (mean)'],
    [
      ['the other client, idle gateway', String(f.idle.count), ms(f.idle.p50), ms(f.idle.p99), '', '0', '', '', '', ''],
      [
        'the other client, under the flood',
        String(f.flooded.count),
        ms(f.flooded.p50),
        ms(f.flooded.p99),
        '',
        '0',
        pct(g.loopBusy),
        g.limitMean.toFixed(1),
        g.inFlightMean.toFixed(1),
        g.queuedMean.toFixed(1),
      ],
      [
        `the flooder, c=${FLOOD_CONNECTIONS}`,
        '',
        ms(f.flood.latency.p50),
        ms(f.flood.latency.p99),
        rps(f.flood.rps),
        String(f.flood.errors),
        '',
        '',
        '',
        '',
      ],
    ],
  );
}
