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

/**
 * The gateway's own time between rounds: for each operation in the log (its calls share the
 * gateway's request id, `correlationId`), from the first answer of a round (the bank's first byte
 * back, by the sandbox's clock: arrival plus duration) to the first call of the next round arriving.
 * That span is parsing the answer, resolving the fields that wait on it and sending the next calls;
 * loopback's share in it is the floor's. Whole-millisecond arrival times make each figure ±1 ms.
 */
export function gatewayTimeBetweenRounds(log: readonly RequestLogEntry[]): number[] {
  const byOperation = new Map<string, RequestLogEntry[]>();
  for (const entry of log) {
    const key = entry.correlationId ?? 'none';
    byOperation.set(key, [...(byOperation.get(key) ?? []), entry]);
  }
  const gaps: number[] = [];
  for (const calls of byOperation.values()) {
    const rounds = roundsIn(calls);
    for (let i = 1; i < rounds.length; i++) {
      const firstAnswer = Math.min(...rounds[i - 1]!.map((entry) => Date.parse(entry.time) + entry.durationMs));
      const nextSent = Math.min(...rounds[i]!.map((entry) => Date.parse(entry.time)));
      gaps.push(Math.max(0, nextSent - firstAnswer));
    }
  }
  return gaps;
}
