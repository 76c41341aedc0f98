/** The operations in the report: their calls against the minimum, the load level's targets, and their tables. */

import type { LoadResult } from '../load.ts';
import type { OperationResult } from '../measure.ts';
import type { Settings } from '../settings.ts';
import { ms, pct, rps, table, verdict } from './format.ts';
import { TARGETS } from './targets.ts';

/** The first target: every operation makes its minimum of upstream calls, none repeated. */
export function callsRow(operations: OperationResult[]): string[] {
  const extra = operations.filter((o) => o.calls !== o.minimumCalls || o.repeatedCalls > 0);
  const excess = (o: OperationResult) =>
    `${o.name}: ${o.calls >= o.minimumCalls ? '+' : ''}${o.calls - o.minimumCalls} calls, ${o.repeatedCalls} repeated`;
  return [
    'upstream calls = the minimum, every operation',
    operations.map((o) => `${o.name} ${o.calls}/${o.minimumCalls}`).join('; '),
    extra.length === 0 ? verdict(true, 'all equal, none repeated') : verdict(false, extra.map(excess).join('; ')),
  ];
}

/** At the load level, each screen: the calls in flight keep the limit busy, and its p99 stays within a multiple of its p50. */
export function loadLevelRows(operations: OperationResult[], connections: number): string[][] {
  return operations.flatMap((o) => {
    const load = o.loads[1];
    if (!load) return [];
    const share = load.gateway.inFlightMean / load.gateway.limitMean;
    const spread = load.latency.p99 / load.latency.p50;
    const busy = share >= TARGETS.inFlightOfLimit;
    const bounded = spread <= TARGETS.p99OverP50;
    return [
      [
        `at c=${connections}: calls in flight ≥ ${pct(TARGETS.inFlightOfLimit)} of the limit, p99 ≤ ${TARGETS.p99OverP50} × p50: ${o.name}`,
        `in flight ${load.gateway.inFlightMean.toFixed(1)} of ${load.gateway.limitMean.toFixed(1)} (${pct(share)}); ` +
          `p99 ${ms(load.latency.p99)} ms = ${spread.toFixed(2)} × p50 ${ms(load.latency.p50)} ms`,
        verdict(busy && bounded, `${busy ? 'limit kept busy' : 'limit not kept busy'}, ${bounded ? 'tail bounded' : 'tail too long'}`),
      ],
    ];
  });
}

type Operations = { operations: OperationResult[]; settings: Settings };

export function sequentialTable(r: Operations): string {
  const header = [
    'operation',
    'calls / min',
    'repeated',
    'critical path',
    'rounds seen',
    `wall p50 (n=${r.settings.sequentialRuns})`,
    'ratio',
    'bare floor p50: the same calls, straight to the sandbox',
    'wall p50 over the floor',
    "the bank's answers after the latency, p50 / p99",
    'wall p50 at 0 ms latency',
    'gateway process CPU / run',
    'sandbox CPU / run',
  ];
  const rows = r.operations.map((o) => [
    o.name,
    `${o.calls} / ${o.minimumCalls}`,
    String(o.repeatedCalls),
    `${o.criticalPath} × ${r.settings.latencyMs} = ${o.criticalPathMs} ms`,
    String(o.observedRounds),
    `${ms(o.wall.p50)} ms`,
    `${o.ratio.toFixed(2)}×`,
    `${ms(o.floor.wall.p50)} ms (${o.floor.rounds} rounds)`,
    `+${ms(o.wall.p50 - o.floor.wall.p50)} ms`,
    `+${ms(o.bankLate.p50)} / +${ms(o.bankLate.p99)} ms`,
    `${ms(o.wallAtZeroLatency.p50)} ms`,
    `${ms(o.gatewayCpuMs)} ms`,
    o.sandboxCpuMs === null ? 'n/a' : `${ms(o.sandboxCpuMs)} ms`,
  ]);
  return table(header, rows);
}

function loadCells(load: LoadResult | undefined): string[] {
  if (!load) return ['', '', ''];
  return [rps(load.rps), ms(load.latency.p50), ms(load.latency.p99)];
}

/** The limit in force, the calls in flight and waiting, and the screens/s the mean limit allows (limit / (calls × latency)). */
function limitCells(o: OperationResult, latencyMs: number): string[] {
  const g = o.loads[1]?.gateway;
  if (!g) return ['', '', '', ''];
  const bound = latencyMs > 0 ? g.limitMean / ((o.minimumCalls * latencyMs) / 1000) : Number.POSITIVE_INFINITY;
  return [`${g.limitMean.toFixed(1)}, ${g.limitAtEnd}`, g.inFlightMean.toFixed(1), g.queuedMean.toFixed(1), `${rps(bound)} req/s`];
}

export function loadTable(r: Operations): string {
  const c = r.settings.connections;
  const header = [
    'operation',
    'c=1 req/s',
    'c=1 p50',
    'c=1 p99',
    `c=${c} req/s`,
    `c=${c} p50`,
    `c=${c} p99`,
    `c=${c} limit (mean, at end)`,
    `c=${c} in flight (mean)`,
    `c=${c} queued (mean)`,
    `bound the limit allows at c=${c}`,
    `gateway loop busy at c=${c}`,
    'errors',
  ];
  const rows = r.operations.map((o) => [
    o.name,
    ...loadCells(o.loads[0]),
    ...loadCells(o.loads[1]),
    ...limitCells(o, r.settings.latencyMs),
    o.loads[1] ? pct(o.loads[1].gateway.loopBusy) : '',
    String(o.loads.reduce((sum, l) => sum + l.errors, 0)),
  ]);
  return table(header, rows);
}
