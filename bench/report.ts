import { cpus, totalmem } from 'node:os';
import type { AuthorizationResult } from './authorization.ts';
import type { IdentityCosts } from './authorization-identity.ts';
import type { ScreenScopeCost } from './authorization-scopes.ts';
import type { CacheResult } from './cache.ts';
import type { ClientRateLimitConfig } from '../src/settings/index.ts';
import type { DeferResult, DeferRuns } from './defer.ts';
import { FLOOD_ADDRESS, FLOOD_CONNECTIONS, FLOOD_SECONDS, QUIET_ADDRESS, type FairnessResult } from './fairness.ts';
import type { LoadResult } from './load.ts';
import type { OperationResult } from './measure.ts';
import { peakOf, type MemoryReport } from './memory.ts';
import { ONE_CALL_QUERY, OVERHEAD_ROUNDS, type BareOneCall, type OverheadLevel, type OverheadResult } from './overhead.ts';
import type { Settings } from './settings.ts';
import { bareAloneOver, ms, table, verdict, type Summary } from './stats.ts';
import type { DeliveryPass, Passes, SubscriptionResult, SubscriptionStage } from './subscriptions.ts';
import type { BareFloor, BareSequential } from './bare-yoga.ts';
import type { HeapConfigResult } from './heap.ts';
import { intakeRow, type IntakeFloodResult } from './intake.ts';
import type { LiveQueryResult } from './live-queries.ts';
import { WATCHES } from './subscriber-clients.ts';
import { template } from './template.ts';
import {
  allocationRows,
  bareOneCallLine,
  bareTable,
  cpuRows,
  heapRows,
  heapTable,
  loadedOverheadRow,
  perRoundRow,
  rssRow,
  type Shipped,
} from './report-shipped.ts';

/** bench/RESULTS.md: the machine, the targets met or missed, then every figure behind them. */

const TARGETS = {
  /** Gateway overhead at p50 over the direct call at concurrency 1 (the load level's is issue 30's, in report-shipped.ts). */
  overheadP50Ms: { single: 1 },
  /** At the load level: calls in flight against the limit in force, and each screen's p99 against its p50. */
  inFlightOfLimit: 0.9,
  p99OverP50: 3,
  /** Fan-out p99 (POST to the last subscriber's receipt) against the bare WebSocket floor of the same run. */
  fanoutFloorRatio: 2,
  /** Live queries: an event's POST to the last client's push of the new result, p99, against the same floor one event at a time. */
  liveQueryFloorRatio: 2,
  /** Bank reads of the record a live query reads, per event, however many live queries read it (one instance). */
  liveQueryReadsPerEvent: 1,
  /** @defer on the cards screen: each payload at most this over the bare floor of the same calls, per round up to it. */
  deferPerRoundMs: 1,
  /** Another client's dashboard p50 while one client floods, against its p50 on the idle gateway. */
  fairShareRatio: 1.5,
  /** What authorization adds to one operation at concurrency 1: scope checks, identity, a mutation's audit record. */
  authorizationMs: 0.1,
} as const;

/** The memory sampler's name for this process (timing loop, webhook posts, the floor's server). */
export const BENCH_PROCESS = 'benchmark process';

export interface RunResults {
  settings: Settings;
  /** The V8 flags the gateway's process ran with. */
  gatewayFlags: string[];
  /** The concurrency limit's settings, in words. */
  concurrency: string;
  /** The limits per client in force, in words (perClientLimits). */
  perClient: string;
  startedAt: Date;
  elapsedSeconds: number;
  operations: OperationResult[];
  deferred: DeferResult;
  fairness: FairnessResult;
  overhead: OverheadResult;
  cache: CacheResult;
  authorization: AuthorizationResult;
  subscriptions: SubscriptionResult;
  /** Live dashboards on a gateway of their own with the record cache on (bench/live-queries.ts). */
  liveQueries: LiveQueryResult;
  /** The webhook intake under a flood, on a gateway of its own with Redis (bench/intake.ts); null when Redis did not answer. */
  intake: IntakeFloodResult | null;
  /** The screens at c=50 through a gateway process per heap configuration (bench/heap.ts). */
  heap: HeapConfigResult[];
  /** The same screens through a bare Yoga server making the same calls (bench/bare-yoga.ts), in the rounds of `shipped`. */
  bareYoga: BareFloor | null;
  /** The same screens through the stack floor (bench/stack-floor.ts: the required libraries, none of the gateway's code), in the same rounds. */
  stackFloor: BareFloor | null;
  /** The same screens through a fresh gateway process with `npm start`'s flags, in interleaved rounds with the two floors (bench/interleaved.ts). */
  shipped: Shipped | null;
  /** The overhead probe through bare Yoga at the load level: graphql-yoga's own per-request cost, in the same run. */
  bareOneCall: BareOneCall | null;
  /** Each screen at concurrency 1 through bare Yoga, beside its floor run for run: what graphql-yoga alone adds. */
  bareSequential: BareSequential[] | null;
  memory: MemoryReport;
}

const SUBSCRIPTION_PHASES: Record<SubscriptionStage, string> = {
  gateway: 'subscriptions: gateway',
  floor: "subscriptions: floor (bare ws server in the benchmark's process)",
  bare: 'subscriptions: bare Yoga with graphql-ws (its own process; this gateway idle)',
};

/** The memory phase of each stage of the subscription measure. */
export const subscriptionPhase = (stage: SubscriptionStage, subscribers: number): string =>
  `${SUBSCRIPTION_PHASES[stage]}, ${subscribers} clients`;

const mb = (value: number | null): string => (value === null || !Number.isFinite(value) ? 'n/a' : `${Math.round(value)} MB`);
const pct = (value: number): string => `${Math.round(value * 100)} %`;
const rps = (value: number): string => (value >= 100 ? String(Math.round(value)) : value.toFixed(1));
const signed = (value: number): string => `${value >= 0 ? '+' : '−'}${ms(Math.abs(value))}`;
const spare = (measured: number, limit: number): string =>
  measured <= limit ? `${ms(limit - measured)} ms to spare` : `${ms(measured - limit)} ms over ${ms(limit)} ms`;

/** The limits per client in force, in words, saying whether they are the shipped defaults (both off). */
export function perClientLimits(maxInFlight: number, rate: ClientRateLimitConfig): string {
  const window = rate.operations > 0 ? `${rate.operations} operations per ${rate.windowSeconds} s` : 'no limit on operations per window';
  const cap =
    maxInFlight > 0 ? `at most ${maxInFlight} calls in flight per client` : "no cap on one client's calls in flight (the fair queue alone)";
  const shipped = rate.operations === 0 && maxInFlight === 0 ? 'the shipped defaults' : 'set for this run, not the shipped defaults';
  return `${window}, ${cap} (CLIENT_RATE_LIMIT_OPERATIONS, CLIENT_MAX_UPSTREAM_IN_FLIGHT: ${shipped})`;
}

/**
 * @defer on the cards screen, against the bare floor of the same calls (what this machine allows): the
 * first payload within one round of its own, the last within one per round of the critical path;
 * with bare Yoga's own figure over its floor beside each, where it was measured.
 */
export function deferRows(d: DeferResult): string[][] {
  const perRound = TARGETS.deferPerRoundMs;
  const row = (what: string, rounds: number, pick: (runs: DeferRuns) => { payload: number; floor: number }): string[] => {
    const { payload: measured, floor } = pick(d);
    const limit = floor + rounds * perRound;
    const bare = d.bare ? pick(d.bare) : undefined;
    const bareOver = bare ? bare.payload - bare.floor : Number.NaN;
    const bareText = bare ? `; bare Yoga ${ms(bare.payload)} ms vs its floor ${ms(bare.floor)} ms: +${ms(bareOver)} ms` : '';
    return [
      `@defer, ${what} p50 ≤ bare floor + ${perRound} ms per round at concurrency 1: ${d.name}`,
      `${ms(measured)} ms vs floor ${ms(floor)} ms + ${rounds} × ${perRound} ms: +${ms(measured - floor)} ms${bareText}`,
      verdict(
        measured <= limit,
        measured <= limit ? spare(measured, limit) : `${spare(measured, limit)}${bareAloneOver(bareOver, rounds * perRound)}`,
      ),
    ];
  };
  return [
    row('first payload', d.firstPayloadRounds, (runs) => ({ payload: runs.firstPayload.p50, floor: runs.floor.firstRound.p50 })),
    row('last payload', d.criticalPath, (runs) => ({ payload: runs.lastPayload.p50, floor: runs.floor.wall.p50 })),
  ];
}

/** The fair-share target: the other client's dashboard under the flood against the idle gateway. */
export function fairnessRow(f: FairnessResult): string[] {
  const limit = TARGETS.fairShareRatio * f.idle.p50;
  const ratio = f.flooded.p50 / f.idle.p50;
  const flood = `the flooder: ${rps(f.flood.rps)} req/s, p50 ${ms(f.flood.latency.p50)} ms, ${f.flood.errors} errors`;
  return [
    `fair share: another client's ${f.operation} p50 ≤ ${TARGETS.fairShareRatio} × its p50 on an idle gateway, ` +
      `one client flooding at c=${FLOOD_CONNECTIONS}`,
    `${ms(f.flooded.p50)} ms under the flood (n=${f.flooded.count}) vs ${ms(f.idle.p50)} ms idle (n=${f.idle.count}): ${ratio.toFixed(2)}×; ${flood}`,
    verdict(f.flooded.p50 <= limit && f.flooded.count > 0, spare(f.flooded.p50, limit)),
  ];
}

function targetRows(r: RunResults): string[][] {
  const rows: string[][] = [];
  const latency = r.settings.latencyMs;

  const extra = r.operations.filter((o) => o.calls !== o.minimumCalls || o.repeatedCalls > 0);
  const excess = (o: OperationResult) =>
    `${o.name}: ${o.calls >= o.minimumCalls ? '+' : ''}${o.calls - o.minimumCalls} calls, ${o.repeatedCalls} repeated`;
  rows.push([
    'upstream calls = the minimum, every operation',
    r.operations.map((o) => `${o.name} ${o.calls}/${o.minimumCalls}`).join('; '),
    extra.length === 0 ? verdict(true, 'all equal, none repeated') : verdict(false, extra.map(excess).join('; ')),
  ]);

  for (const o of r.operations)
    rows.push(
      perRoundRow(
        o,
        r.bareSequential?.find((b) => b.name === o.name),
      ),
    );

  const c = r.settings.connections;
  for (const o of r.operations) {
    const load = o.loads[1];
    if (!load) continue;
    const share = load.gateway.inFlightMean / load.gateway.limitMean;
    const spread = load.latency.p99 / load.latency.p50;
    const busy = share >= TARGETS.inFlightOfLimit;
    const bounded = spread <= TARGETS.p99OverP50;
    rows.push([
      `at c=${c}: calls in flight ≥ ${pct(TARGETS.inFlightOfLimit)} of the limit, p99 ≤ ${TARGETS.p99OverP50} × p50: ${o.name}`,
      `in flight ${load.gateway.inFlightMean.toFixed(1)} of ${load.gateway.limitMean.toFixed(1)} (${pct(share)}); ` +
        `p99 ${ms(load.latency.p99)} ms = ${spread.toFixed(2)} × p50 ${ms(load.latency.p50)} ms`,
      verdict(busy && bounded, `${busy ? 'limit kept busy' : 'limit not kept busy'}, ${bounded ? 'tail bounded' : 'tail too long'}`),
    ]);
  }

  rows.push(...deferRows(r.deferred), fairnessRow(r.fairness));

  for (const level of r.overhead.levels.filter((l) => l.latencyMs === latency)) {
    if (level.connections !== 1) {
      rows.push(loadedOverheadRow(level, r.bareOneCall));
      continue;
    }
    rows.push(singleOverheadRow(level));
  }

  rows.push(...cacheRows(r.cache));
  rows.push(authorizationTargetRow(r.authorization));
  rows.push(...fanoutRows(r.subscriptions));
  rows.push(...liveQueryRows(r.liveQueries, r.subscriptions.floor.paced));
  rows.push(intakeRow(r.intake));
  const floors = { bare: r.bareYoga?.screens ?? null, stack: r.stackFloor?.screens ?? null };
  rows.push(
    ...heapRows(r.heap),
    rssRow(r.shipped, r.bareYoga, r.stackFloor),
    ...cpuRows(r.shipped, floors),
    ...allocationRows(r.shipped, floors),
  );
  return rows;
}

/** The record cache's three targets (issue 18): repeats make no call; an event and a mutation show at once. */
function cacheRows(c: CacheResult): string[][] {
  const repeats = c.screens.every((screen) => screen.repeatCalls === 0);
  const { deposit: d, cardUpdate: u } = c;
  const depositShown = d.afterEvent === d.before + d.amount;
  return [
    [
      'record cache: the dashboard and the cards screen repeated within the TTL make 0 upstream calls',
      c.screens.map((screen) => `${screen.name}: ${screen.firstCalls} calls, then ${screen.repeatCalls}`).join('; '),
      verdict(repeats, repeats ? 'every repeat answered from the cache' : 'a repeat reached the bank'),
    ],
    [
      'record cache: after a deposit event the next dashboard shows the new balance',
      `USD available ${d.before}; after the bank's deposit of ${d.amount}, before its event: ${d.beforeEvent}; ` +
        `after deposit.settled: ${d.afterEvent} (${d.balanceCalls} balance read)`,
      verdict(depositShown, depositShown ? 'the event dropped the kept balances' : 'the old balance was shown'),
    ],
    [
      'record cache: after cardUpdate the card shows its new status at once',
      `${u.from} → ${u.to}; the next read: ${u.read} (${u.cardReads} upstream calls between the update's answer and that read)`,
      verdict(u.read === u.to, u.read === u.to ? 'the write dropped the kept card' : 'the old status was shown'),
    ],
  ];
}

/** The memory sampler's name for the subscribers' process (bench/run.ts). */
export const SUBSCRIBERS_CHILD = 'subscribers child';

/**
 * measured vs floor, the ratio, and the verdict against `ratio` (default TARGETS.fanoutFloorRatio);
 * `last` names the gateway's last receipt, `lead` comes before the figures; `bare`, bare Yoga's pass
 * (graphql-yoga with graphql-ws alone), is set beside them.
 */
function floorRow(
  target: string,
  gateway: DeliveryPass | null,
  floor: DeliveryPass | null,
  {
    ratio = TARGETS.fanoutFloorRatio,
    last = 'last receipt',
    lead = '',
    bare = null,
  }: { ratio?: number; last?: string; lead?: string; bare?: DeliveryPass | null } = {},
): string[] {
  if (!gateway || !floor) return [target, 'not run (BENCH_PACED_EVENTS=0)', '**not measured**'];
  const measured = gateway.lastReceipt.p99;
  const limit = ratio * floor.lastReceipt.p99;
  // An event some subscriber never got has no last receipt: its time is infinite, and so is the p99 once it counts.
  if (!Number.isFinite(measured) || !Number.isFinite(limit)) {
    const p99 = (value: number) => (Number.isFinite(value) ? `${ms(value)} ms` : 'none (receipts lost)');
    return [
      target,
      `${lead}POST → ${last} p99: gateway ${p99(measured)}, floor ${p99(floor.lastReceipt.p99)}`,
      verdict(false, 'receipts lost'),
    ];
  }
  const met = measured <= limit;
  const bareP99 = bare?.lastReceipt.p99 ?? Number.NaN;
  const bareText = bare
    ? `; bare Yoga with graphql-ws on the same pass ${ms(bareP99)} ms (${(bareP99 / floor.lastReceipt.p99).toFixed(2)}×)`
    : '';
  return [
    target,
    `${lead}POST → ${last} p99 ${ms(measured)} ms vs floor ${ms(floor.lastReceipt.p99)} ms (${(measured / floor.lastReceipt.p99).toFixed(2)}×)${bareText}`,
    verdict(
      met,
      met
        ? `${ms(limit - measured)} ms to spare under ${ms(limit)} ms`
        : `${ms(measured - limit)} ms over ${ms(limit)} ms${bareAloneOver(bareP99, limit)}`,
    ),
  ];
}

/** The fan-out targets: against the floor of the same run, one event at a time and in a burst, and nothing lost. */
export function fanoutRows(s: SubscriptionResult): string[][] {
  const g = s.gateway;
  const f = s.floor;
  const ratio = TARGETS.fanoutFloorRatio;
  const lost = (p: Passes) => (p.paced?.lost ?? 0) + p.burst.lost;
  const expected = (p: Passes) => ((p.paced?.events ?? 0) + p.burst.events) * s.subscribers;
  const gatewayLost = lost(g);
  return [
    floorRow(`fan-out p99, one event at a time ≤ ${ratio}× floor, ${s.subscribers} subscribers`, g.paced, f.paced, { bare: s.bare.paced }),
    floorRow(`fan-out p99, burst of ${g.burst.events} ≤ ${ratio}× floor, ${s.subscribers} subscribers`, g.burst, f.burst, {
      bare: s.bare.burst,
    }),
    [
      '0 lost',
      `gateway: ${gatewayLost} of ${expected(g)} receipts lost, ${g.subscriptionErrors} subscription errors; floor: ${lost(f)} of ${expected(f)}`,
      gatewayLost === 0 && g.subscriptionErrors === 0
        ? verdict(true, 'every subscriber got every event')
        : verdict(false, `${gatewayLost} receipts never came, ${g.subscriptionErrors} subscriptions failed`),
    ],
  ];
}

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
  const latency = floorRow(
    `live queries: event → last push p99 ≤ ${ratio}× the subscription floor (one event at a time), ${r.clients} live dashboards`,
    pass,
    floor,
    // A receipt here is a push showing the new balance.
    {
      ratio,
      last: 'last push',
      lead: pass && floor ? `POST → last push p50 ${ms(pass.lastReceipt.p50)} ms vs floor ${ms(floor.lastReceipt.p50)} ms; ` : '',
    },
  );
  // What the subscription floor leaves out: a push shows what changed only after the bank was read again.
  if (floor)
    latency[1] += `; a push waits for one bank read first (the sandbox's latency, ${r.bankLatencyMs} ms), which no subscription event does: floor + that read, p99 ${ms(floor.lastReceipt.p99 + r.bankLatencyMs)} ms`;
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

function sequentialTable(r: RunResults): string {
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

function loadTable(r: RunResults): string {
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

/** The one-call overhead at concurrency 1 against its target, with bare Yoga's own on the same probe beside it when measured. */
export function singleOverheadRow(level: OverheadLevel): string[] {
  const diff = level.gateway.latency.p50 - level.direct.latency.p50;
  const target = TARGETS.overheadP50Ms.single;
  const met = diff <= target;
  const yoga = level.bare ? level.bare.latency.p50 - level.direct.latency.p50 : undefined;
  const bareText = yoga === undefined ? '' : `; bare Yoga on the same probe ${signed(yoga)} ms (its ${ms(level.bare!.latency.p50)} ms)`;
  // Where graphql-yoga alone already adds more than the target, no gateway built on it could meet it here.
  const belowFloor =
    !met && yoga !== undefined && yoga > target
      ? `; bare Yoga alone ${ms(yoga - target)} ms over: the target sits below graphql-yoga's own on this machine`
      : '';
  return [
    `gateway overhead ≤ ${target} ms at p50, concurrency ${level.connections}`,
    `${signed(diff)} ms (gateway ${ms(level.gateway.latency.p50)} ms, direct ${ms(level.direct.latency.p50)} ms)${bareText}`,
    verdict(met, met ? `${ms(target - diff)} ms to spare` : `${ms(diff - target)} ms over${belowFloor}`),
  ];
}

function overheadTable(r: RunResults): string {
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

function deferTable(d: DeferResult): string {
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

function fairnessTable(f: FairnessResult): string {
  const g = f.flood.gateway;
  return table(
    ['client', 'runs', 'p50', 'p99', 'req/s', 'errors', 'gateway loop busy', 'limit (mean)', 'in flight (mean)', 'queued (mean)'],
    [
      ['the other client, idle gateway', String(f.idle.count), ms(f.idle.p50), ms(f.idle.p99), '', '0', '', '', '', ''],
      [
        'the other client, under the flood',
        String(f.flooded.count),
        ms(f.flooded.p50),
        ms(f.flooded.p99),
        '',
        '0',
        pct(g.loopBusy),
        g.limitMean.toFixed(1),
        g.inFlightMean.toFixed(1),
        g.queuedMean.toFixed(1),
      ],
      [
        `the flooder, c=${FLOOD_CONNECTIONS}`,
        '',
        ms(f.flood.latency.p50),
        ms(f.flood.latency.p99),
        rps(f.flood.rps),
        String(f.flood.errors),
        '',
        '',
        '',
        '',
      ],
    ],
  );
}

const DELIVERY_HEADER = [
  'server',
  'pass',
  'events',
  'receipts',
  'lost',
  'duplicates',
  'per receipt p50',
  'per receipt p99',
  'per receipt max',
  'last receipt p50',
  'last receipt p99',
  'first POST → last receipt',
  'POST → 202 p50',
];

/** One pass in the subscriptions' and live queries' tables; the floor has no intake. */
const deliveryRow = (server: string, name: string, p: DeliveryPass, intake: boolean): string[] => [
  server,
  name,
  String(p.events),
  String(p.latency.count),
  String(p.lost),
  String(p.duplicates),
  ms(p.latency.p50),
  ms(p.latency.p99),
  ms(p.latency.max),
  ms(p.lastReceipt.p50),
  ms(p.lastReceipt.p99),
  `${ms(p.spanMs)} ms`,
  intake ? ms(p.intake.p50) : '',
];

function subscriptionsTable(s: SubscriptionResult): string {
  // The floor sends with no POST: it has no intake to show.
  const rows = (server: string, passes: Passes, intake = true) => [
    ...(passes.paced ? [deliveryRow(server, 'one at a time', passes.paced, intake)] : []),
    deliveryRow(server, 'burst (all at once)', passes.burst, intake),
  ];
  return table(DELIVERY_HEADER, [
    ...rows('gateway', s.gateway),
    ...rows('floor: bare ws server', s.floor, false),
    ...rows('bare Yoga with graphql-ws (POST /publish)', s.bare),
  ]);
}

/** The live dashboards' pass beside the subscription floor's one at a time. */
function liveQueriesTable(r: LiveQueryResult, floor: DeliveryPass | null): string {
  return table(DELIVERY_HEADER, [
    ...(r.pass ? [deliveryRow('gateway: live queries', 'one at a time', r.pass, true)] : []),
    ...(floor ? [deliveryRow('floor: bare ws server (subscriptions)', 'one at a time', floor, false)] : []),
  ]);
}

function cacheTable(r: RunResults): string {
  return table(
    ['screen', 'calls, first run', 'calls, repeated', 'wall p50 cached', 'wall p50 without the cache'],
    r.cache.screens.map((screen) => {
      const uncached = r.operations.find((o) => o.name === screen.name);
      const without = uncached ? `${ms(uncached.wall.p50)} ms` : 'n/a';
      return [screen.name, String(screen.firstCalls), String(screen.repeatCalls), `${ms(screen.wallP50)} ms`, without];
    }),
  );
}

function memoryTable(m: MemoryReport): string {
  return table(
    ['phase', 'gateway process RSS', 'its V8 heap used', 'its V8 heap reserved', ...m.children.map((c) => `${c} RSS`)],
    m.phases.map((p) => [p.phase, mb(p.gatewayMb), mb(p.heapUsedMb), mb(p.heapTotalMb), ...p.childrenMb.map(mb)]),
  );
}

/** Authorization's figures are hundredths of a millisecond: shown to the microsecond. */
const fine = (value: number): string => (Number.isFinite(value) ? value.toFixed(3) : 'n/a');
const fineSigned = (value: number): string => `${value >= 0 ? '+' : '−'}${fine(Math.abs(value))}`;

/** Whole microseconds, as shown and as process.cpuUsage counts: verdicts agree with the figures printed. */
const micro = (ms: number): number => Math.round(ms * 1000);

/** A difference of medians this close to the A-vs-A floor is not told apart from chance. */
const NOISE_MULTIPLE = 2;

/** What the checks add to one screen: its difference of medians, counted as 0 when negative. */
const checksCost = (s: ScreenScopeCost): number => Math.max(0, s.difference);

/** A cost against the target: PASS or ABOVE, and whether the floor puts the target within reach of it. */
export function authorizationVerdict(costMs: number, floorMs: number): string {
  const target = TARGETS.authorizationMs;
  const word = micro(costMs) <= micro(target) ? '**PASS**' : '**ABOVE**';
  const close = Math.abs(micro(costMs) - micro(target)) <= micro(floorMs) ? ', within the floor of the target' : '';
  return `${fine(costMs)} ms: ${word}${close}`;
}

/** One screen: with and without the checks, their difference beside its floor, and the totals per credential. */
export function authorizationRow(s: ScreenScopeCost, identity: IdentityCosts): string[] {
  const near = Math.abs(micro(s.difference)) <= NOISE_MULTIPLE * micro(s.floor);
  return [
    s.name,
    `${s.checks.fields} ${s.checks.fields === 1 ? 'field' : 'fields'} + ${s.checks.records} records`,
    `${fine(s.checked.p50)} / ${fine(s.checked.p95)}`,
    `${fine(s.unchecked.p50)} / ${fine(s.unchecked.p95)}`,
    `${fineSigned(s.difference)}${near ? ' (within the noise)' : ''}`,
    fine(s.floor),
    authorizationVerdict(checksCost(s) + identity.apiKey.cpu.p50, s.floor),
    authorizationVerdict(checksCost(s) + identity.jwt.cpu.p50, s.floor),
  ];
}

/** Each screen's checks plus each credential's identity check; a mutation's identity plus its audit record. */
function operationTotals(a: AuthorizationResult): { name: string; apiKey: number; jwt: number }[] {
  const { apiKey, jwt } = a.identity;
  return [
    ...a.screens.map((s) => ({ name: s.name, apiKey: checksCost(s) + apiKey.cpu.p50, jwt: checksCost(s) + jwt.cpu.p50 })),
    { name: 'a mutation (identity + audit record)', apiKey: apiKey.cpu.p50 + a.audit.cpu.p50, jwt: jwt.cpu.p50 + a.audit.cpu.p50 },
  ];
}

/** The Targets table's row: every screen, and a mutation, under the target with either credential. */
export function authorizationTargetRow(a: AuthorizationResult): string[] {
  const target = micro(TARGETS.authorizationMs);
  const totals = operationTotals(a);
  const above = totals.filter((t) => micro(t.apiKey) > target || micro(t.jwt) > target).map((t) => t.name);
  return [
    `authorization ≤ ${TARGETS.authorizationMs} ms per operation at concurrency 1 (scope checks + identity; a mutation: identity + its audit record)`,
    `${totals.map((t) => `${t.name} ${fine(t.apiKey)} / ${fine(t.jwt)} ms`).join('; ')} (API key / JWT)`,
    verdict(above.length === 0, above.length === 0 ? 'every operation, with either credential' : `above: ${above.join(', ')}`),
  ];
}

const perCallText = (c: { cpu: { p50: number; p95: number }; wall: { p50: number } }): string =>
  `${fine(c.cpu.p50)} ms CPU (p95 ${fine(c.cpu.p95)}), ${fine(c.wall.p50)} ms elapsed`;

const authorizationTemplate = template('authorization.md');

/** The section "Authorization cost per operation" (also what `npx node bench/authorization.ts` prints). */
export function authorizationSection(a: AuthorizationResult): string {
  const { apiKey, jwt } = a.identity;
  const cached = a.screens.reduce((sum, s) => sum + s.reads.cached, 0);
  const bank = a.screens.reduce((sum, s) => sum + s.reads.bank, 0);
  const header = [
    'screen',
    'checks per run',
    'with checks p50 / p95',
    'without p50 / p95',
    'difference of medians',
    'noise floor (A vs A′)',
    `checks + API key (target ${TARGETS.authorizationMs} ms)`,
    `checks + JWT, seen before (target ${TARGETS.authorizationMs} ms)`,
  ];
  const reads =
    bank === 0
      ? 'Every read is a hit of the record cache, filled by the warm-up, so no I/O is timed:\n' +
        `${cached} reads from the cache and none from the bank during the measured runs.`
      : `**${bank} reads went to the bank during the measured runs** (${cached} from the cache):\nthose runs include bank I/O.`;
  const mutation = operationTotals(a).at(-1)!;
  return authorizationTemplate({
    reads,
    runs: a.screens[0]?.runs ?? 0,
    warmUpRuns: a.warmUpRuns,
    noiseMultiple: NOISE_MULTIPLE,
    screensTable: table(
      header,
      a.screens.map((s) => authorizationRow(s, a.identity)),
    ),
    batches: apiKey.batches,
    apiKeys: a.identity.apiKeys,
    apiKeyCost: perCallText(apiKey),
    jwtCost: perCallText(jwt),
    jwtFirstCost: perCallText(a.identity.jwtFirst),
    auditCost: perCallText(a.audit),
    mutationWithApiKey: authorizationVerdict(mutation.apiKey, 0),
    mutationWithJwt: authorizationVerdict(mutation.jwt, 0),
  });
}

/** The machine and Node a run had, as the report names them. */
export interface Machine {
  cores: number;
  cpu: string;
  ramGb: number;
  platform: string;
  node: string;
}

function thisMachine(): Machine {
  const cpu = cpus();
  return {
    cores: cpu.length,
    cpu: cpu[0]?.model.trim() ?? 'unknown CPU',
    ramGb: Math.round(totalmem() / 1024 ** 3),
    platform: `${process.platform}/${process.arch}`,
    node: process.version,
  };
}

const resultsTemplate = template('results.md');

/** `machine` is where the run took place: this one, unless a test fixes it so the text is the same everywhere. */
export function renderReport(r: RunResults, machine: Machine = thisMachine()): string {
  const { settings, deferred, subscriptions, memory } = r;
  return resultsTemplate({
    startedAt: r.startedAt.toISOString(),
    elapsedSeconds: Math.round(r.elapsedSeconds),
    ...machine,
    gatewayFlags: r.gatewayFlags.join(' '),
    concurrency: r.concurrency,
    perClient: r.perClient,
    latencyMs: settings.latencyMs,
    seconds: settings.seconds,
    connections: settings.connections,
    sequentialRuns: settings.sequentialRuns,
    subscribers: subscriptions.subscribers,
    targetsTable: table(['target', 'measured', 'verdict'], targetRows(r)),
    sequentialTable: sequentialTable(r),
    loadTable: loadTable(r),
    cacheTable: cacheTable(r),
    // The section's file ends in a newline of its own; the blank line after it is this template's.
    authorizationSection: authorizationSection(r.authorization).trimEnd(),
    deferName: deferred.name,
    deferFirstPayloadRounds: deferred.firstPayloadRounds,
    deferCriticalPath: deferred.criticalPath,
    deferRuns: deferred.firstPayload.count,
    deferParts: deferred.parts,
    deferCalls: deferred.calls,
    deferMinimumCalls: deferred.minimumCalls,
    deferTable: deferTable(deferred),
    floodConnections: FLOOD_CONNECTIONS,
    floodSeconds: FLOOD_SECONDS,
    floodAddress: FLOOD_ADDRESS,
    quietAddress: QUIET_ADDRESS,
    fairnessTable: fairnessTable(r.fairness),
    oneCallQuery: ONE_CALL_QUERY,
    oneCallUpstreamCalls: r.overhead.gatewayCalls,
    overheadRounds: String(OVERHEAD_ROUNDS),
    overheadTable: overheadTable(r),
    bareOneCallLine: bareOneCallLine(r.bareOneCall),
    connectMs: ms(subscriptions.gateway.connectMs),
    subscriptionErrors: subscriptions.gateway.subscriptionErrors,
    clockOffsetMs: Math.abs(subscriptions.clock.offsetMs).toFixed(3),
    clockUncertaintyMs: subscriptions.clock.uncertaintyMs.toFixed(3),
    subscriptionsTable: subscriptionsTable(subscriptions),
    liveClients: r.liveQueries.clients,
    liveDocument: WATCHES['live-balances'].query,
    liveDeposit: r.liveQueries.deposit,
    liveThrottleMs: r.liveQueries.throttleMs,
    liveMaxPerCaller: r.liveQueries.maxPerCaller.used,
    liveMaxPerCallerConfigured: r.liveQueries.maxPerCaller.configured,
    liveConnectMs: ms(r.liveQueries.connectMs),
    liveErrors: r.liveQueries.errors,
    liveGatewayRss: mb(r.liveQueries.gatewayMemory.rssMb),
    liveGatewayHeap: mb(r.liveQueries.gatewayMemory.heapUsedMb),
    liveQueriesTable: liveQueriesTable(r.liveQueries, subscriptions.floor.paced),
    heapTable: heapTable(r.heap),
    bareTable: bareTable(r.bareYoga, r.stackFloor, r.shipped),
    memoryTable: memoryTable(memory),
    gatewayPeakSampled: mb(
      peakOf(
        memory,
        () => true,
        (p) => p.gatewayMb,
      ),
    ),
    gatewayPeakKernel: mb(memory.kernelPeakGatewayMb),
    memorySamples: memory.samples,
  });
}
