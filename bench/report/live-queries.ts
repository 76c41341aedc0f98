/** Live dashboards in the report: their targets against the subscription floor, their table, and what the measure alone prints. */

import type { LiveQueryResult } from '../live-dashboards.ts';
import { LIVE_DASHBOARD_QUERY } from '../parameters.ts';
import type { DeliveryPass } from '../subscriptions.ts';
import { ms, table, verdict } from './format.ts';
import { DELIVERY_HEADER, deliveryRow, floorRow } from './subscriptions.ts';
import { TARGETS } from './targets.ts';

/**
 * The live-query targets (issue 40): event → last push against the subscription floor one event at a
 * time, the bank's reads per event, and every client getting every new balance.
 */
export function liveQueryRows(r: LiveQueryResult, floor: DeliveryPass | null): string[][] {
  const ratio = TARGETS.liveQueryFloorRatio;
  const reads = TARGETS.liveQueryReadsPerEvent;
  const pass = r.pass;
  const events = pass?.events ?? 0;
  const most = (values: number[]) => (values.length === 0 ? 0 : Math.max(...values));
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const expected = events * r.clients;
  const lost = pass?.lost ?? 0;
  const whole = lost === 0 && r.errors === 0 && events > 0;
  // What the subscription floor leaves out: a push shows what changed only after the bank was read again.
  const read = r.balanceReadMs;
  const latency = floorRow(
    `live queries: event → last push p99 ≤ ${ratio} × (the subscription floor's p99, one event at a time, + the bank read's p99), ${r.clients} live dashboards`,
    pass,
    floor,
    // A receipt here is a push showing the new balance.
    {
      ratio,
      plus: read.p99,
      last: 'last push',
      lead: pass && floor ? `POST → last push p50 ${ms(pass.lastReceipt.p50)} ms vs floor ${ms(floor.lastReceipt.p50)} ms; ` : '',
    },
  );
  latency[1] +=
    `; the balance read a push waits for, at the bank (its arrival to its answer, sandbox latency ${r.bankLatencyMs} ms): ` +
    `p50 ${ms(read.p50)}, p99 ${ms(read.p99)} ms (n=${read.count})`;
  return [
    latency,
    [
      `live queries: ≤ ${reads} bank read of the balances per event, however many dashboards (one instance)`,
      `balance reads per event: at most ${most(r.balanceReads)}, ${sum(r.balanceReads)} over ${events} events; every upstream call per event: at most ${most(r.upstreamCalls)}`,
      events === 0
        ? '**not measured**'
        : verdict(
            most(r.balanceReads) <= reads,
            most(r.balanceReads) <= reads ? `${r.clients} dashboards shared each read` : 'the re-runs read the bank more than once',
          ),
    ],
    [
      'live queries: 0 lost pushes',
      `${lost} of ${expected} pushes of a new balance lost (${events} events × ${r.clients}), ${pass?.duplicates ?? 0} duplicates, ${r.errors} live query errors`,
      whole
        ? verdict(true, 'every dashboard got every new balance')
        : verdict(false, events === 0 ? 'no events' : `${lost} pushes never came, ${r.errors} live queries failed`),
    ],
  ];
}

/** The live dashboards' pass beside the subscription floor's one at a time. */
export function liveQueriesTable(r: LiveQueryResult, floor: DeliveryPass | null): string {
  return table(DELIVERY_HEADER, [
    ...(r.pass ? [deliveryRow('gateway: live queries', 'one at a time', r.pass, true)] : []),
    ...(floor ? [deliveryRow('floor: bare ws server (subscriptions)', 'one at a time', floor, false)] : []),
  ]);
}

/** What `npx node bench/live-queries.ts` prints: the figures, then the Targets rows as RESULTS.md has them. */
export function liveQueriesLines(r: LiveQueryResult, floor: DeliveryPass | null): string[] {
  const p = r.pass;
  return [
    `${r.clients} clients on ${LIVE_DASHBOARD_QUERY}, connected in ${ms(r.connectMs)} ms; LIVE_QUERY_MAX_PER_CALLER ${r.maxPerCaller.used} (configured ${r.maxPerCaller.configured}), throttle ${r.throttleMs} ms`,
    p
      ? `event → last push: p50 ${ms(p.lastReceipt.p50)} ms, p99 ${ms(p.lastReceipt.p99)} ms, max ${ms(p.lastReceipt.max)} ms over ${p.events} events; per push p50 ${ms(p.latency.p50)} ms; ${p.lost} lost, ${p.duplicates} duplicates, ${r.errors} errors`
      : 'no events (BENCH_PACED_EVENTS=0)',
    floor
      ? `subscription floor, one at a time: last receipt p50 ${ms(floor.lastReceipt.p50)} ms, p99 ${ms(floor.lastReceipt.p99)} ms`
      : 'no floor',
    `balance reads per event: ${r.balanceReads.join(' ')}; every upstream call per event: ${r.upstreamCalls.join(' ')}; live gateway RSS ${Math.round(r.gatewayMemory.rssMb)} MB, V8 heap used ${Math.round(r.gatewayMemory.heapUsedMb)} MB`,
    ...liveQueryRows(r, floor).map((row) => `| ${row.join(' | ')} |`),
  ];
}

/** The gateway's subscriptions one at a time, printed before the live dashboards run beside them. */
export const subscriptionsPacedLine = (paced: DeliveryPass): string =>
  `subscriptions through the gateway, one at a time: last receipt p50 ${ms(paced.lastReceipt.p50)} ms, p99 ${ms(paced.lastReceipt.p99)} ms`;
