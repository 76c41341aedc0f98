/** What `npx node bench/failover.ts` prints: each failover as it ends, then a table per number of busy loops beside them. */

import type { FailoverRun } from '../failover-runs.ts';
import { median } from '../stats.ts';
import { table } from './format.ts';

/** The target: every gateway accepts again within this of the promotion. */
const ACCEPT_TARGET_MS = 3_000;

/** One failover as it ends; with `log`, what the gateways and Sentinels said of Redis from the kill on. */
export function failoverRunText(busy: number, index: number, run: FailoverRun, log: boolean): string {
  const line = `  ${busy} busy loops, failover ${index + 1}: promoted ${run.promotedMs} ms after the kill; first 202 ${run.firstAcceptMs.join(' / ')} ms after it; 503s after that ${run.relapses}; "Redis is back" ${run.back.join(' / ')}\n`;
  return log ? line + run.redisLines.map((redisLine) => `    ${redisLine}\n`).join('') : line;
}

/** The failovers with `busy` loops beside them: one row each, the median and the worst, and the target met or not. */
export function failoverReport(busy: number, runs: FailoverRun[]): string {
  const worstAccept = (run: FailoverRun) => Math.max(...run.firstAcceptMs);
  const rows = runs.map((run, n) => [
    String(n + 1),
    String(run.promotedMs),
    run.firstAcceptMs.join(' / '),
    String(run.killToAcceptMs),
    String(run.relapses),
    run.back.join(' / '),
    run.unreachable.join(' / '),
  ]);
  const column = (of: (run: FailoverRun) => number) => runs.map(of);
  const summary = (name: string, pick: (values: number[]) => number) => [
    name,
    String(pick(column((run) => run.promotedMs))),
    String(pick(column(worstAccept))),
    String(pick(column((run) => run.killToAcceptMs))),
    String(pick(column((run) => run.relapses))),
    String(pick(column((run) => Math.max(...run.back)))),
    String(pick(column((run) => Math.max(...run.unreachable)))),
  ];
  const met = runs.every((run) => worstAccept(run) <= ACCEPT_TARGET_MS);
  const once = runs.every((run) => run.back.every((lines) => lines === 1));
  return [
    `With ${busy} busy loop${busy === 1 ? '' : 's'} beside it, ${runs.length} failovers:`,
    '',
    table(
      [
        'failover',
        'kill → promoted (ms)',
        'promoted → first 202, gateway A / B (ms)',
        'kill → both accept (ms)',
        '503s after a first 202',
        '"Redis is back" A / B',
        '"Redis is unreachable" A / B',
      ],
      [...rows, summary('median', median), summary('worst', (values) => Math.max(...values))],
    ),
    '',
    `Every gateway accepting again within ${ACCEPT_TARGET_MS} ms of the promotion: ${met ? 'met' : 'not met'} (${runs.filter((run) => worstAccept(run) <= ACCEPT_TARGET_MS).length} of ${runs.length}); one "Redis is back" per failover on each: ${once ? 'yes' : 'no'}.`,
  ].join('\n');
}
