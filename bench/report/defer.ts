/** @defer on the cards screen in the report: its two targets against the bare floor, and its table. */

import type { DeferResult, DeferRuns } from '../defer.ts';
import type { Summary } from '../stats.ts';
import { ms, overBareVerdict, table } from './format.ts';
import { TARGETS } from './targets.ts';

/**
 * @defer on the cards screen: each payload's p50 over the bare floor of its calls (the first: the list's
 * round; the last: every call), against bare Yoga's over its own floor on the same screen, same run.
 */
export function deferRows(d: DeferResult): string[][] {
  const allowance = TARGETS.deferOverBareMs;
  const row = (what: string, pick: (runs: DeferRuns) => { payload: number; floor: number }): string[] => {
    const { payload: measured, floor } = pick(d);
    const bare = d.bare ? pick(d.bare) : undefined;
    const bareOver = bare ? bare.payload - bare.floor : Number.NaN;
    const bareText = bare ? `; bare Yoga ${ms(bare.payload)} ms vs its floor ${ms(bare.floor)} ms: +${ms(bareOver)} ms` : '';
    return [
      `@defer, ${what} p50 over the bare floor ≤ bare Yoga's over its floor + ${allowance} ms at concurrency 1: ${d.name}`,
      `${ms(measured)} ms vs floor ${ms(floor)} ms: +${ms(measured - floor)} ms${bareText}`,
      overBareVerdict(measured - floor, bareOver, allowance),
    ];
  };
  return [
    row('first payload', (runs) => ({ payload: runs.firstPayload.p50, floor: runs.floor.firstRound.p50 })),
    row('last payload', (runs) => ({ payload: runs.lastPayload.p50, floor: runs.floor.wall.p50 })),
  ];
}

export function deferTable(d: DeferResult): string {
  const row = (server: string, payload: string, times: Summary, floor: Summary): string[] => [
    server,
    payload,
    ms(times.p50),
    ms(times.p99),
    ms(times.max),
    ms(floor.p50),
    `+${ms(times.p50 - floor.p50)}`,
  ];
  const rows = (server: string, runs: DeferRuns): string[][] => [
    row(server, 'first (the list)', runs.firstPayload, runs.floor.firstRound),
    row(server, 'last (the details)', runs.lastPayload, runs.floor.wall),
  ];
  return table(
    ['server', 'payload', 'p50', 'p99', 'max', 'its bare floor p50', 'p50 over the floor'],
    [...rows('gateway', d), ...(d.bare ? rows(`bare Yoga (${d.bare.parts} parts)`, d.bare) : [])],
  );
}
