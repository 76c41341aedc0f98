/** The gateway's overhead in the report: the one-call probe against its targets, and its table. */

import type { BareOneCall, OverheadLevel, OverheadResult } from '../overhead.ts';
import { ms, overBareVerdict, pct, rps, signed, table } from './format.ts';
import { loadedOverheadRow } from './shipped.ts';
import { TARGETS } from './targets.ts';

/** The one-call overhead at concurrency 1 against bare Yoga's own on the same probe (same rounds) plus the allowance. */
export function singleOverheadRow(level: OverheadLevel): string[] {
  const diff = level.gateway.latency.p50 - level.direct.latency.p50;
  const allowance = TARGETS.overheadOverBareMs;
  const yoga = level.bare ? level.bare.latency.p50 - level.direct.latency.p50 : Number.NaN;
  const bareText = level.bare ? `; bare Yoga on the same probe ${signed(yoga)} ms (its ${ms(level.bare.latency.p50)} ms)` : '';
  return [
    `gateway overhead at p50 ≤ bare Yoga's on the same probe + ${allowance} ms, concurrency ${level.connections}`,
    `${signed(diff)} ms (gateway ${ms(level.gateway.latency.p50)} ms, direct ${ms(level.direct.latency.p50)} ms)${bareText}`,
    overBareVerdict(diff, yoga, allowance),
  ];
}

export function overheadTable(r: { overhead: OverheadResult }): string {
  const header = [
    'concurrency',
    'sandbox latency',
    'direct p50',
    'gateway p50',
    'Δ p50',
    'direct p99',
    'gateway p99',
    'Δ p99',
    'direct req/s',
    'gateway req/s',
    'gateway loop busy',
    'bare Yoga p50',
    'bare Yoga Δ p50',
    'errors',
  ];
  const rows = r.overhead.levels.map(({ connections, latencyMs, gateway, direct, bare }) => [
    String(connections),
    `${latencyMs} ms`,
    ms(direct.latency.p50),
    ms(gateway.latency.p50),
    signed(gateway.latency.p50 - direct.latency.p50),
    ms(direct.latency.p99),
    ms(gateway.latency.p99),
    signed(gateway.latency.p99 - direct.latency.p99),
    rps(direct.rps),
    rps(gateway.rps),
    pct(gateway.gateway.loopBusy),
    bare ? ms(bare.latency.p50) : 'n/a',
    bare ? signed(bare.latency.p50 - direct.latency.p50) : 'n/a',
    String(direct.errors + gateway.errors + (bare?.errors ?? 0)),
  ]);
  return table(header, rows);
}

/** The probe's targets at the sandbox's latency: concurrency 1 against its own, the load level against graphql-yoga's. */
export function overheadRows(overhead: OverheadResult, latencyMs: number, bareOneCall: BareOneCall | null): string[][] {
  return overhead.levels
    .filter((level) => level.latencyMs === latencyMs)
    .map((level) => (level.connections === 1 ? singleOverheadRow(level) : loadedOverheadRow(level, bareOneCall)));
}
