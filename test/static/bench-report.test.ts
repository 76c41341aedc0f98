import { describe, expect, it } from 'vitest';
import type { AuthorizationResult } from '../../bench/authorization-cost.ts';
import type { PerCall } from '../../bench/authorization-identity.ts';
import type { ScreenScopeCost } from '../../bench/authorization-scopes.ts';
import type { DeferResult } from '../../bench/defer.ts';
import type { FairnessResult } from '../../bench/fairness.ts';
import type { LoadResult } from '../../bench/load.ts';
import type { HeapConfigResult } from '../../bench/heap-sizing.ts';
import { authorizationRow, authorizationSection, authorizationTargetRow, authorizationVerdict } from '../../bench/report/authorization.ts';
import { estimateCostRow } from '../../bench/report/bank-calls.ts';
import { deferRows } from '../../bench/report/defer.ts';
import { fairnessRow } from '../../bench/report/fairness.ts';
import { heapRows } from '../../bench/report/heap.ts';
import { singleOverheadRow } from '../../bench/report/overhead.ts';
import { perClientLimits } from '../../bench/report/results.ts';
import { allocationRows, cpuRows, liveHeapRow, loadedOverheadRow, perRoundRow, rssRow, type Shipped } from '../../bench/report/shipped.ts';
import { fanoutRows } from '../../bench/report/subscriptions.ts';
import { summarize } from '../../bench/stats.ts';
import type { DeliveryPass, Passes } from '../../bench/subscriptions.ts';

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

  const bare = {
    calls: 55,
    firstPayload: summary(22),
    lastPayload: summary(64),
    parts: 51,
    floor: { firstRound: summary(20.5), wall: summary(62), rounds: 3 },
  };

  it("holds each payload's time over its bare floor to bare Yoga's over its own plus 1 ms, same run", () => {
    const [first, last] = deferRows({ ...result(22.5, 66), bare });
    expect(first).toEqual([
      "@defer, first payload p50 over the bare floor ≤ bare Yoga's over its floor + 1 ms at concurrency 1: cards, @defer",
      '22.5 ms vs floor 20.6 ms: +1.90 ms; bare Yoga 22.0 ms vs its floor 20.5 ms: +1.50 ms',
      "**met** (0.60 ms to spare (bare Yoga's +1.50 ms + 1.00 ms))",
    ]);
    expect(last?.slice(1)).toEqual([
      '66.0 ms vs floor 62.0 ms: +4.00 ms; bare Yoga 64.0 ms vs its floor 62.0 ms: +2.00 ms',
      "**not met** (1.00 ms over 3.00 ms (bare Yoga's +2.00 ms + 1.00 ms))",
    ]);
  });

  it('has no floor, and so no verdict met, where bare Yoga was not measured', () => {
    expect(deferRows(result(21.5, 63)).map((row) => row[2])).toEqual([
      '**not met** (no floor: bare Yoga not measured)',
      '**not met** (no floor: bare Yoga not measured)',
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

describe('the cost of authorization', () => {
  const spread = (p50: number) => ({ count: 1000, p50, p95: p50 + 0.2 });
  /** A screen's CPU ms per run with the checks (A), without (B) and with them again (A′). */
  const screen = (name: string, a: number, b: number, aAgain: number, records = 125): ScreenScopeCost => ({
    name,
    runs: 1000,
    checked: spread(a),
    unchecked: spread(b),
    control: spread(aAgain),
    difference: a - b,
    floor: Math.max(0.001, Math.abs(a - aAgain)),
    checks: { fields: 1, records },
    reads: { cached: 55_000, bank: 0 },
  });
  const perCall = (cpu: number): PerCall => ({
    batch: 20,
    batches: 300,
    cpu: { p50: cpu, p95: 2 * cpu },
    wall: { p50: cpu + 0.002, p95: 2 * cpu },
  });
  const identity = (jwt: number) => ({ apiKeys: 5, apiKey: perCall(0.001), jwt: perCall(jwt), jwtFirst: perCall(0.085) });
  const result = (jwt: number, screens: ScreenScopeCost[]): AuthorizationResult => ({
    warmUpRuns: 200,
    screens,
    identity: identity(jwt),
    audit: perCall(0.004),
  });
  const cards = screen('cards screen (50 cards)', 0.775, 0.747, 0.776);

  it('sets the difference of medians beside its floor, and adds each credential to it against 0.1 ms', () => {
    expect(authorizationRow(cards, identity(0.043))).toEqual([
      'cards screen (50 cards)',
      '1 field + 125 records',
      '0.775 / 0.975',
      '0.747 / 0.947',
      '+0.028',
      '0.001',
      '0.029 ms: **PASS**',
      '0.071 ms: **PASS**',
    ]);
    expect(authorizationRow(cards, identity(0.083)).slice(6)).toEqual(['0.029 ms: **PASS**', '0.111 ms: **ABOVE**']);
  });

  it('calls a difference within twice its floor noise, and counts a negative one as nothing', () => {
    const row = authorizationRow(screen('fx screen', 0.043, 0.045, 0.042, 4), identity(0.04));
    expect(row.slice(4)).toEqual(['−0.002 (within the noise)', '0.001', '0.001 ms: **PASS**', '0.040 ms: **PASS**']);
  });

  it('says when the target lies within the floor of the figure', () => {
    expect(authorizationVerdict(0.099, 0.002)).toBe('0.099 ms: **PASS**, within the floor of the target');
    expect(authorizationVerdict(0.1, 0.001)).toBe('0.100 ms: **PASS**, within the floor of the target');
    expect(authorizationVerdict(0.104, 0.003)).toBe('0.104 ms: **ABOVE**');
  });

  it('meets the target only when every screen and a mutation are under it with either credential', () => {
    const dashboard = screen('dashboard', 0.161, 0.151, 0.162, 7);
    expect(authorizationTargetRow(result(0.05, [dashboard, cards]))).toEqual([
      'authorization ≤ 0.1 ms per operation at concurrency 1 (scope checks + identity; a mutation: identity + its audit record)',
      'dashboard 0.011 / 0.060 ms; cards screen (50 cards) 0.029 / 0.078 ms; a mutation (identity + audit record) 0.005 / 0.054 ms (API key / JWT)',
      '**met** (every operation, with either credential)',
    ]);
    expect(authorizationTargetRow(result(0.08, [dashboard, cards]))[2]).toBe('**not met** (above: cards screen (50 cards))');
    // The fx screen's 0.003 ms of checks and the JWT's 0.097 ms are the target exactly; a mutation's 0.004 ms of audit is not.
    const fx = screen('fx screen', 0.043, 0.04, 0.043, 4);
    expect(authorizationTargetRow(result(0.097, [fx]))[2]).toBe('**not met** (above: a mutation (identity + audit record))');
  });

  it('renders its section in short lines, says whether any read reached the bank, and adds up a mutation', () => {
    const section = authorizationSection(result(0.043, [cards]));
    expect(section).toContain('55000 reads from the cache and none from the bank during the measured runs.');
    expect(section).toContain('an API key, one of 5 configured hashes: 0.001 ms CPU (p95 0.002), 0.003 ms elapsed;');
    expect(section).toContain(
      '- A mutation, identity + audit record: with an API key 0.005 ms: **PASS**,\n  with a JWT 0.047 ms: **PASS**;',
    );
    expect(section.split('\n').filter((line) => !line.startsWith('|') && line.length > 100)).toEqual([]);
    const leaky = result(0.043, [{ ...cards, reads: { cached: 54_990, bank: 10 } }]);
    expect(authorizationSection(leaky)).toContain(
      '**10 reads went to the bank during the measured runs** (54990 from the cache):\nthose runs include bank I/O.',
    );
  });
});

describe('performance as shipped, against bare Yoga (issues 30 and 39)', () => {
  const screen = (name: string, rps: number, cpuMsPerOp: number) => ({ screen: name, rps, cpuMsPerOp, allocatedKbPerOp: 100, errors: 0 });
  const heap: HeapConfigResult[] = [
    { label: 'small', flags: ['--max-old-space-size=128'], shipped: false, peakRssMb: 250, screens: [screen('dashboard', 200, 4)] },
    { label: 'large', flags: ['--max-semi-space-size=64'], shipped: true, peakRssMb: 320, screens: [screen('dashboard', 290, 3)] },
    { label: 'defaults', flags: [], shipped: false, peakRssMb: 600, screens: [screen('dashboard', 300, 2.8)] },
  ];

  const bareScreen = (name: string, cpuMsPerOp: number, allocatedKbPerOp: number) => ({
    name,
    connections: 50,
    rps: 300,
    operations: 1500,
    cpuMsPerOp,
    allocatedKbPerOp,
    latencyP50: 100,
    errors: 0,
  });

  // The gateway as shipped, measured in the floors' interleaved rounds.
  const shipped: Shipped = { flags: ['--max-semi-space-size=64'], peakRssMb: 320, screens: [bareScreen('dashboard', 3, 100)] };

  it('holds the shipped throughput to 95 % of the best heap configuration', () => {
    const [throughput] = heapRows(heap);
    expect(throughput![1]).toBe('290 req/s vs 300 (defaults): 97 %; peak RSS 320 MB');
    expect(throughput![2]).toBe('**met** (3 % below)');
    expect(heapRows(heap.map((c) => (c.label === 'defaults' ? { ...c, screens: [screen('dashboard', 400, 2)] } : c)))[0]![2]).toBe(
      '**not met** (28 % below)',
    );
  });

  it("holds the shipped peak RSS over the interleaved rounds to 1.25 × bare Yoga's over the same rounds, the stack floor's beside it", () => {
    const bare = { peakRssMb: 250, screens: [bareScreen('dashboard', 2.5, 80)] };
    const rss = rssRow(shipped, bare);
    expect(rss[1]).toBe('320 MB (--max-semi-space-size=64); bare Yoga with the same flags 250 MB (× 1.25: 313 MB); 1.28 × bare');
    expect(rss[2]).toBe('**not met** (8 MB over)');
    expect(rssRow(shipped, { ...bare, peakRssMb: 260 })[2]).toBe('**met** (5 MB to spare)');
    expect(rssRow(shipped)[2]).toBe('**not met** (no floor)');
    expect(rssRow(null, bare)[2]).toBe('**not met** (no figure)');
    expect(rssRow(shipped, bare, { peakRssMb: 300, screens: [] })[1]).toBe(
      '320 MB (--max-semi-space-size=64); bare Yoga with the same flags 250 MB (× 1.25: 313 MB), the stack floor 300 MB (1.20 × bare); 1.28 × bare',
    );
  });

  it("holds the live heap after a full collection mid-load to 1.3 × bare Yoga's, the stack floor's beside it", () => {
    const bare = { peakRssMb: 250, liveHeapMb: 50, screens: [] };
    const row = liveHeapRow({ ...shipped, liveHeapMb: 80 }, bare, { peakRssMb: 300, liveHeapMb: 60, screens: [] });
    expect(row[1]).toBe('80.0 MB; bare Yoga 50.0 MB (× 1.3: 65.0 MB), the stack floor 60 MB; 1.60 × bare');
    expect(row[2]).toBe('**not met** (15.0 MB over)');
    expect(liveHeapRow({ ...shipped, liveHeapMb: 60 }, bare)[2]).toBe('**met** (5.0 MB to spare)');
    expect(liveHeapRow({ ...shipped, liveHeapMb: 60 }, { peakRssMb: 250, screens: [] })[2]).toBe('**not met** (no floor)');
    expect(liveHeapRow(shipped, bare)[2]).toBe('**not met** (no figure)');
  });

  const bareOnly = (b: ReturnType<typeof bareScreen>) => ({ bare: [b], stack: null });

  it("holds CPU per operation to 1.3 × bare Yoga's in the same run, the stack floor's beside it", () => {
    const [row] = cpuRows(shipped, bareOnly(bareScreen('dashboard', 2.5, 80)));
    expect(row).toEqual([
      "as shipped, CPU per operation at c=50 ≤ 1.3 × bare Yoga's: dashboard",
      '3.00 ms vs bare Yoga 2.50 ms (× 1.3: 3.25); 1.20 × bare',
      '**met** (0.25 ms to spare)',
    ]);
    expect(cpuRows(shipped, bareOnly(bareScreen('dashboard', 2, 80)))[0]![2]).toBe('**not met** (0.40 ms over 2.60 ms)');
    expect(cpuRows(shipped, { bare: null, stack: null })[0]![2]).toBe('**not met** (no floor)');
    // The stack floor is a figure beside the target's, not its floor.
    expect(cpuRows(shipped, { bare: [bareScreen('dashboard', 2, 80)], stack: [bareScreen('dashboard', 2.4, 90)] })[0]!.slice(1)).toEqual([
      '3.00 ms vs bare Yoga 2.00 ms (× 1.3: 2.60); 1.50 × bare; the stack floor (the required libraries alone) 2.40 ms, 1.20 × bare, the gateway 1.25 × it',
      '**not met** (0.40 ms over 2.60 ms)',
    ]);
  });

  it('shows the ratio round by round beside the medians, as information that leaves the verdict to them', () => {
    const rounds = (cpuMsPerOp: number, byRound: number[]) => ({ ...bareScreen('dashboard', cpuMsPerOp, 80), cpuMsPerOpByRound: byRound });
    const [row] = cpuRows({ ...shipped, screens: [rounds(3, [3, 2.8, 3.3])] }, bareOnly(rounds(2.5, [2.5, 2, 2.75])));
    expect(row![1]).toBe('3.00 ms vs bare Yoga 2.50 ms (× 1.3: 3.25); 1.20 × bare; round by round 1.20, 1.40, 1.20 × bare');
    expect(row![2]).toBe('**met** (0.25 ms to spare)');
    // Rounds that do not pair up (a floor with fewer) are left out rather than set against the wrong ones.
    expect(cpuRows({ ...shipped, screens: [rounds(3, [3, 2.8, 3.3])] }, bareOnly(rounds(2.5, [2.5, 2])))[0]![1]).toBe(
      '3.00 ms vs bare Yoga 2.50 ms (× 1.3: 3.25); 1.20 × bare',
    );
  });

  it("holds the JS heap allocated per operation to 1.3 × bare Yoga's in the same run", () => {
    expect(allocationRows(shipped, bareOnly(bareScreen('dashboard', 2.5, 80)))[0]).toEqual([
      "as shipped, JS heap allocated per operation at c=50 ≤ 1.3 × bare Yoga's: dashboard",
      '100 KB vs bare Yoga 80 KB (× 1.3: 104); 1.25 × bare',
      '**met** (4 KB to spare)',
    ]);
    expect(allocationRows(shipped, bareOnly(bareScreen('dashboard', 2.5, 70)))[0]![2]).toBe('**not met** (9 KB over 91 KB)');
  });

  it("holds the c=50 one-call overhead to 5 ms, or above it to no more than bare Yoga's own on the same probe", () => {
    const run = (p50: number) => ({ connections: 50, seconds: 5, rps: 1000, errors: 0, latency: summary(p50) });
    const level = (gatewayP50: number) => ({
      connections: 50,
      latencyMs: 20,
      direct: { ...run(21), gateway: {} as never },
      gateway: { ...run(gatewayP50), gateway: {} as never },
    });
    const bare = { connections: 50, direct: run(21), bare: run(22.5) };
    expect(loadedOverheadRow(level(25), bare)[2]).toBe('**met** (1.00 ms to spare)');
    const above = loadedOverheadRow(level(27), bare);
    expect(above[1]).toBe(
      '+6.00 ms (gateway 27.00 ms, direct 21.00 ms); bare Yoga on the same probe +1.50 ms (its 22.50 ms, direct 21.00 ms)',
    );
    expect(above[2]).toBe("**met** (1.00 ms over 5 ms, within bare Yoga's 1.50 ms)");
    expect(loadedOverheadRow(level(28), bare)[2]).toBe("**not met** (2.00 ms over 5 ms, more than bare Yoga's 1.50 ms)");
    expect(loadedOverheadRow(level(28), null)[2]).toBe('**not met** (2.00 ms over 5 ms)');
  });

  it("holds the one-call overhead at concurrency 1 to bare Yoga's on the same probe plus 0.3 ms", () => {
    const run = (p50: number) => ({ connections: 1, seconds: 5, rps: 45, errors: 0, latency: summary(p50) });
    const level = (gatewayP50: number, bareP50?: number) => ({
      connections: 1,
      latencyMs: 20,
      direct: run(20.5),
      gateway: { ...run(gatewayP50), gateway: {} as never },
      ...(bareP50 === undefined ? {} : { bare: run(bareP50) }),
    });
    const met = singleOverheadRow(level(22.3, 22.1));
    expect(met[0]).toBe("gateway overhead at p50 ≤ bare Yoga's on the same probe + 0.3 ms, concurrency 1");
    expect(met[1]).toBe('+1.80 ms (gateway 22.3 ms, direct 20.5 ms); bare Yoga on the same probe +1.60 ms (its 22.1 ms)');
    expect(met[2]).toBe("**met** (0.10 ms to spare (bare Yoga's +1.60 ms + 0.30 ms))");
    expect(singleOverheadRow(level(22.3, 21.2))[2]).toBe("**not met** (0.80 ms over 1.00 ms (bare Yoga's +0.70 ms + 0.30 ms))");
    expect(singleOverheadRow(level(21.2))[2]).toBe('**not met** (no floor: bare Yoga not measured)');
  });

  it("allows bare Yoga's own time over its floor plus 0.3 ms per round at concurrency 1", () => {
    const bare = { name: 'fx', wall: summary(44.5), floor: { wall: summary(41.5) } as never };
    const row = (wall: number) =>
      perRoundRow(
        { name: 'fx', wall: summary(wall), floor: { wall: summary(41) } as never, criticalPath: 2, betweenRounds: summary(1) },
        bare,
      );
    expect(row(44.5)[1]).toBe(
      '44.5 ms vs floor 41.0 ms: +3.50 ms; bare Yoga 44.5 ms vs its floor 41.5 ms: +3.00 ms; allowed +3.00 + 2 × 0.3 ms; the gateway between rounds p50 1.00 ms (n=3)',
    );
    expect(row(44.5)[2]).toBe("**met** (0.10 ms to spare (bare Yoga's +3.00 ms + 0.60 ms))");
    expect(row(45)[2]).toBe("**not met** (0.40 ms over 3.60 ms (bare Yoga's +3.00 ms + 0.60 ms))");
    expect(
      perRoundRow({ name: 'fx', wall: summary(42), floor: { wall: summary(41) } as never, criticalPath: 2, betweenRounds: summary(1) })[2],
    ).toBe('**not met** (no floor: bare Yoga not measured)');
  });
});

describe('fanoutRows', () => {
  const pass = (events: number, p99: number): DeliveryPass => ({
    events,
    latency: summarize([p99 / 2, p99]),
    lastReceipt: summarize([p99 - 1, p99]),
    intake: summarize([1]),
    spanMs: events * p99,
    lost: 0,
    duplicates: 0,
  });
  const passes = (paced: number, burst: number): Passes => ({
    connectMs: 800,
    subscriptionErrors: 0,
    paced: pass(100, paced),
    burst: pass(50, burst),
  });

  it("sets bare Yoga's pass beside the gateway's, and says when Yoga alone is over the allowance", () => {
    const [paced, burst, lost] = fanoutRows({
      subscribers: 1000,
      clock: { offsetMs: 0, uncertaintyMs: 0.01 },
      gateway: passes(45, 900),
      floor: passes(25, 400),
      bare: passes(60, 700),
    });
    expect(paced?.slice(1)).toEqual([
      'POST → last receipt p99 45.0 ms vs floor 25.0 ms (1.80×); bare Yoga with graphql-ws on the same pass 60.0 ms (2.40×)',
      '**met** (5.00 ms to spare under 50.0 ms)',
    ]);
    expect(burst?.slice(1)).toEqual([
      'POST → last receipt p99 900.0 ms vs floor 400.0 ms (2.25×); bare Yoga with graphql-ws on the same pass 700.0 ms (1.75×)',
      '**not met** (100.0 ms over 800.0 ms)',
    ]);
    expect(lost?.[2]).toBe('**met** (every subscriber got every event)');
    const both = fanoutRows({
      subscribers: 1000,
      clock: { offsetMs: 0, uncertaintyMs: 0.01 },
      gateway: passes(45, 900),
      floor: passes(25, 400),
      bare: passes(60, 1000),
    });
    expect(both[1]?.[2]).toBe('**not met** (100.0 ms over 800.0 ms, bare Yoga alone 200.0 ms over)');
  });
});

describe('estimateCostRow', () => {
  const cost = (name: string, cachedMs: number) => ({ name, calls: 161, cachedMs, firstMs: 0.1 });

  it('judges the cards screen once cached against the target, each screen shown', () => {
    const met = estimateCostRow([cost('dashboard', 0.001), cost('cards screen (50 cards)', 0.004)], null);
    expect(met[1]).toContain('cards screen (50 cards) 0.0040 ms (first 0.100 ms, 161 calls)');
    expect(met[2]).toBe('**met** (0.0460 ms to spare)');
    expect(estimateCostRow([cost('cards screen (50 cards)', 0.06)], null)[2]).toBe('**not met** (above)');
    expect(estimateCostRow([cost('dashboard', 0.001)], null)[2]).toContain('not met');
  });
});
