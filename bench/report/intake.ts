/** The webhook intake in the report: its target row, and what `npx node bench/intake.ts` prints. */

import type { IntakeFloodResult, ReplicaAckCost } from '../intake-flood.ts';
import { INTAKE_CONCURRENCY } from '../parameters.ts';
import { ms, verdict } from './format.ts';
import { TARGETS } from './targets.ts';

/** What kept a run from delivering every event once through Redis, in words; empty when nothing did. */
function deliveryProblems(r: IntakeFloodResult): string[] {
  const refused = Object.entries(r.statuses).filter(([status]) => status !== '202');
  return [
    ...(refused.length > 0 ? [`answered ${refused.map(([status, n]) => `${n} × ${status}`).join(', ')}`] : []),
    ...(r.delivered < r.expected ? [`${r.expected - r.delivered} receipts never came`] : []),
    ...(r.duplicates > 0 ? [`${r.duplicates} receipts came twice`] : []),
    ...(r.subscriptionErrors > 0 ? [`${r.subscriptionErrors} subscriptions failed`] : []),
  ];
}

/** The acknowledgement's cost, in words for the measured cell; empty when it was not part of the run. */
function replicaAckText(cost: ReplicaAckCost | null | undefined): string {
  if (cost === undefined) return '';
  if (cost === null) return '; replica acknowledgement: not measured (redis-server could not be started)';
  const refused = Object.entries(cost.statuses).filter(([status]) => status !== '202');
  return (
    `; with one replica's acknowledgement (REDIS_MIN_REPLICAS_ACK=1, WAIT up to ${cost.timeoutMs} ms): p50 ${ms(cost.with.p50)} ms, p99 ${ms(cost.with.p99)} ms, ` +
    `against p50 ${ms(cost.without.p50)} ms, p99 ${ms(cost.without.p99)} ms without (${cost.with.count} deliveries each, ${cost.subscribers} subscribers)` +
    (refused.length > 0 ? `, answered ${refused.map(([status, n]) => `${n} × ${status}`).join(', ')} with it` : '')
  );
}

const intakeTarget = (concurrency: number): string =>
  `webhook intake: answer p99 ≤ ${TARGETS.intakeAnswerP99Ms} ms at ${concurrency} concurrent deliveries with Redis, every event delivered once to every subscriber`;

/** The Targets table's row; null: the flood was not run (no Redis). */
export function intakeRow(r: IntakeFloodResult | null): string[] {
  if (!r) return [intakeTarget(INTAKE_CONCURRENCY), 'not run (no Redis at REDIS_URL)', '**not measured**'];
  const p99 = r.answer.p99;
  const fast = p99 <= TARGETS.intakeAnswerP99Ms;
  const problems = deliveryProblems(r);
  const time = fast
    ? `${ms(TARGETS.intakeAnswerP99Ms - p99)} ms to spare`
    : `${ms(p99 - TARGETS.intakeAnswerP99Ms)} ms over ${TARGETS.intakeAnswerP99Ms} ms`;
  return [
    intakeTarget(r.concurrency),
    `p99 ${ms(p99)} ms, p50 ${ms(r.answer.p50)} ms, max ${ms(r.answer.max)} ms over ${r.answer.count} deliveries (${r.waves} waves of ${r.concurrency}, after one not timed), ${r.subscribers} subscribers; ` +
      `${r.statuses[202] ?? 0} of ${r.events} answered 202; ${r.delivered} of ${r.expected} receipts (${r.events} events × ${r.subscribers}), ${r.duplicates} duplicates` +
      replicaAckText(r.replicaAck),
    verdict(fast && problems.length === 0, [time, ...problems].join('; ')),
  ];
}

/** The flood's figures, then its Targets row as RESULTS.md has it. */
export function intakeLines(r: IntakeFloodResult): string[] {
  return [
    `answer ms: p50 ${ms(r.answer.p50)}, p99 ${ms(r.answer.p99)}, max ${ms(r.answer.max)}, mean ${ms(r.answer.mean)} (n=${r.answer.count})`,
    `answers by status: ${JSON.stringify(r.statuses)}; receipts ${r.delivered}/${r.expected}, duplicates ${r.duplicates}, subscription errors ${r.subscriptionErrors}`,
    `last receipt ${ms(r.lastReceiptMs)} ms after the first timed POST${replicaAckText(r.replicaAck)}`,
    `| ${intakeRow(r).join(' | ')} |`,
  ];
}
