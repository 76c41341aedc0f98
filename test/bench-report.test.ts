import { describe, expect, it } from 'vitest';
import type { DeferResult } from '../bench/defer.ts';
import type { FairnessResult } from '../bench/fairness.ts';
import type { LoadResult } from '../bench/load.ts';
import { deferRows, fairnessRow, perClientLimits, wallRow } from '../bench/report.ts';
import { summarize } from '../bench/stats.ts';

/** The benchmark's verdicts on the @defer and fair-share targets, from made-up figures. */

const summary = (p50: number) => summarize([p50 - 1, p50, p50 + 1]);

describe('deferRows', () => {
  const result = (first: number, last: number): DeferResult => ({
    name: 'cards, @defer',
    minimumCalls: 55,
    calls: 55,
    firstPayloadRounds: 1,
    criticalPath: 3,
    firstPayload: summary(first),
    lastPayload: summary(last),
    parts: 51,
    floor: { firstRound: summary(20.6), wall: summary(62), rounds: 3 },
  });

  it('holds the first payload to 1.1 × one round and the last to 1.1 × the critical path', () => {
    const [first, last] = deferRows(result(21.5, 65), 20);
    expect(first).toEqual([
      '@defer, first payload ≤ 1.1 × one round at concurrency 1: cards, @defer',
      '21.5 ms vs 1 × 20 = 20 ms (1.07×); the bare floor 20.6 ms (1.03×)',
      '**met** (0.50 ms to spare)',
    ]);
    expect(last).toEqual([
      '@defer, last payload ≤ 1.1 × the critical path at concurrency 1: cards, @defer',
      '65.0 ms vs 3 × 20 = 60 ms (1.08×); the bare floor 62.0 ms (1.03×)',
      '**met** (1.00 ms to spare)',
    ]);
  });

  it('says by how much a payload missed, and when its floor is above the target', () => {
    expect(deferRows(result(25, 80), 20).map((row) => row[2])).toEqual(['**not met** (3.00 ms over 22.0 ms)', '**not met** (14.0 ms over 66.0 ms)']);
    const slowMachine = { ...result(25, 80), floor: { firstRound: summary(22.4), wall: summary(67), rounds: 3 } };
    expect(deferRows(slowMachine, 20).map((row) => row[1])).toEqual([
      '25.0 ms vs 1 × 20 = 20 ms (1.25×); the bare floor 22.4 ms (1.12×, above the target: no gateway meets it on this machine)',
      '80.0 ms vs 3 × 20 = 60 ms (1.33×); the bare floor 67.0 ms (1.12×, above the target: no gateway meets it on this machine)',
    ]);
  });
});

describe('fairnessRow', () => {
  const flood = { rps: 812, latency: summary(120), errors: 0 } as LoadResult;
  const result = (idle: number, flooded: number, count = 50): FairnessResult => ({
    operation: 'dashboard',
    idle: summary(idle),
    flooded: { ...summary(flooded), count },
    flood,
  });

  it("compares the other client's p50 under the flood with its p50 on the idle gateway", () => {
    expect(fairnessRow(result(44, 60))).toEqual([
      "fair share: another client's dashboard p50 ≤ 1.5 × its p50 on an idle gateway, one client flooding at c=100",
      '60.0 ms under the flood (n=50) vs 44.0 ms idle (n=3): 1.36×; the flooder: 812 req/s, p50 120.0 ms, 0 errors',
      '**met** (6.00 ms to spare)',
    ]);
    expect(fairnessRow(result(44, 70))[2]).toBe('**not met** (4.00 ms over 66.0 ms)');
  });

  it('fails a run with no timing under the flood', () => {
    expect(fairnessRow({ ...result(44, 40), flooded: summarize([]) })[2]).toMatch(/^\*\*not met\*\*/);
  });
});

describe('perClientLimits', () => {
  it('says when the limits are the shipped defaults, and what was set otherwise', () => {
    expect(perClientLimits(0, { operations: 0, windowSeconds: 60 })).toBe(
      "no limit on operations per window, no cap on one client's calls in flight (the fair queue alone) (CLIENT_RATE_LIMIT_OPERATIONS, CLIENT_MAX_UPSTREAM_IN_FLIGHT: the shipped defaults)",
    );
    expect(perClientLimits(8, { operations: 600, windowSeconds: 60 })).toBe(
      '600 operations per 60 s, at most 8 calls in flight per client (CLIENT_RATE_LIMIT_OPERATIONS, CLIENT_MAX_UPSTREAM_IN_FLIGHT: set for this run, not the shipped defaults)',
    );
  });
});

describe('wallRow', () => {
  const operation = (wall: number, floor: number, rounds = 2) => ({
    name: 'dashboard',
    wall: summary(wall),
    criticalPath: 2,
    criticalPathMs: 40,
    ratio: wall / 40,
    observedRounds: rounds,
    floor: { wall: summary(floor), firstRound: summary(21), rounds: 2 },
  });

  it('sets the bare floor beside the wall time, and says when the floor itself misses the target', () => {
    expect(wallRow(operation(43, 42.5), 20)).toEqual([
      'wall time ≤ 1.1 × critical path at concurrency 1, rounds seen = critical path: dashboard',
      '43.0 ms vs 2 × 20 = 40 ms (1.07×); 2 rounds; the bare floor 42.5 ms (1.06×)',
      '**met** (1.00 ms to spare)',
    ]);
    expect(wallRow(operation(52, 46), 20).slice(1)).toEqual([
      '52.0 ms vs 2 × 20 = 40 ms (1.30×); 2 rounds; the bare floor 46.0 ms (1.15×, above the target: no gateway meets it on this machine)',
      '**not met** (8.00 ms over 44.0 ms)',
    ]);
  });

  it('fails a run that took more rounds than the critical path, in time or not', () => {
    expect(wallRow(operation(43, 42, 3), 20)[2]).toBe('**not met** (1.00 ms to spare; 1 round(s) more than the critical path)');
  });
});
