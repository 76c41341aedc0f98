import type { RequestLogEntry } from '@banking-gateway/sandbox';

/**
 * Rounds in a request log: calls sorted by arrival; a call joins the current round if it arrived
 * before any call of that round had completed, else it opens the next one (it may have waited for it).
 * A log entry's `time` is whole milliseconds, so a call truly arrived up to 1 ms after it: the gateway
 * sends a dependent call within a millisecond of the answer it needed, which read as "arrived before
 * that answer" without the allowance. Calls of one round arrive within a millisecond or two and take
 * the latency (20 ms) each, so the allowance never splits a round.
 */
export function roundsOf(log: readonly RequestLogEntry[]): number {
  return roundsIn(log).length;
}

/** The calls of a request log in their rounds (see roundsOf), each round in arrival order. */
export function roundsIn(log: readonly RequestLogEntry[]): RequestLogEntry[][] {
  const TIME_RESOLUTION_MS = 1;
  const calls = log
    .map((entry) => ({ entry, at: Date.parse(entry.time) + TIME_RESOLUTION_MS, done: Date.parse(entry.time) + entry.durationMs }))
    .sort((a, b) => a.at - b.at);
  const rounds: RequestLogEntry[][] = [];
  let firstDone = Number.NEGATIVE_INFINITY;
  for (const call of calls) {
    if (rounds.length === 0 || call.at >= firstDone) {
      rounds.push([call.entry]);
      firstDone = call.done;
    } else {
      rounds.at(-1)!.push(call.entry);
      firstDone = Math.min(firstDone, call.done);
    }
  }
  return rounds;
}
