/**
 * Performance as shipped in the report (issue 30): the gateway's time per round of calls, its peak RSS,
 * CPU and bytes per operation against bare Yoga's, the load level's overhead, and the floors' table.
 */

import type { BareSequential } from '../bare-yoga-floor.ts';
import type { OperationResult } from '../measure.ts';
import type { BareOneCall, OverheadLevel } from '../overhead.ts';
import type { BareFloor, ScreenCpu as BareScreenCpu } from '../screens-under-load.ts';
import { fixed, ms, overBareVerdict, table, verdict } from './format.ts';
import { SHIPPED_TARGETS } from './targets.ts';

/**
 * At concurrency 1, the gateway's wall time over the bare floor of its calls, against bare Yoga's over
 * its own floor (the same screen, same run) plus an allowance per round of calls.
 */
export function perRoundRow(
  o: Pick<OperationResult, 'name' | 'wall' | 'floor' | 'criticalPath' | 'betweenRounds'>,
  bare?: BareSequential,
): string[] {
  const perRound = SHIPPED_TARGETS.perRoundOverBareMs;
  const allowance = perRound * o.criticalPath;
  const over = o.wall.p50 - o.floor.wall.p50;
  const bareOver = bare ? bare.wall.p50 - bare.floor.wall.p50 : Number.NaN;
  const bareText = bare ? `; bare Yoga ${ms(bare.wall.p50)} ms vs its floor ${ms(bare.floor.wall.p50)} ms: +${ms(bareOver)} ms` : '';
  return [
    `wall p50 over the bare floor ≤ bare Yoga's over its floor + ${perRound} ms per round at concurrency 1: ${o.name}`,
    `${ms(o.wall.p50)} ms vs floor ${ms(o.floor.wall.p50)} ms: +${ms(over)} ms${bareText}; allowed +${ms(bareOver)} + ${o.criticalPath} × ${perRound} ms; ` +
      `the gateway between rounds p50 ${ms(o.betweenRounds.p50)} ms (n=${o.betweenRounds.count})`,
    overBareVerdict(over, bareOver, allowance),
  ];
}

/**
 * The gateway as shipped, measured beside the floors in the same interleaved rounds (interleaved.ts):
 * its screens' medians and its process's peak RSS over them, with the flags it ran with.
 */
export interface Shipped extends BareFloor {
  flags: string[];
}

/** Peak RSS over the interleaved rounds, against bare Yoga's over the same rounds. */
export function rssRow(shipped: Shipped | null, bare: BareFloor | null = null, stack: BareFloor | null = null): string[] {
  const what = `as shipped, peak RSS at c=50 ≤ ${SHIPPED_TARGETS.rssOfBare} × bare Yoga's with the same flags (the four screens, the same rounds)`;
  if (!shipped) return [what, 'the gateway as shipped was not measured', verdict(false, 'no figure')];
  const rssLimit = (bare?.peakRssMb ?? Number.NaN) * SHIPPED_TARGETS.rssOfBare;
  const rssMet = shipped.peakRssMb <= rssLimit;
  const floor =
    (bare
      ? `bare Yoga with the same flags ${fixed(bare.peakRssMb, 0)} MB (× ${SHIPPED_TARGETS.rssOfBare}: ${fixed(rssLimit, 0)} MB)`
      : 'bare Yoga not measured') +
    (stack ? `, the stack floor ${fixed(stack.peakRssMb, 0)} MB (${fixed(stack.peakRssMb / (bare?.peakRssMb ?? Number.NaN))} × bare)` : '');
  return [
    what,
    `${fixed(shipped.peakRssMb, 0)} MB (${shipped.flags.join(' ') || "V8's defaults"}); ${floor}; ` +
      `${fixed(shipped.peakRssMb / (bare?.peakRssMb ?? Number.NaN))} × bare`,
    verdict(
      rssMet,
      rssMet
        ? `${Math.round(rssLimit - shipped.peakRssMb)} MB to spare`
        : Number.isFinite(rssLimit)
          ? `${Math.round(shipped.peakRssMb - rssLimit)} MB over`
          : 'no floor',
    ),
  ];
}

/**
 * The live heap right after a full collection taken mid-load (the largest over the screens) against bare
 * Yoga's: what each process holds, which does not move with when V8 happens to collect as the peak does.
 */
export function liveHeapRow(shipped: Shipped | null, bare: BareFloor | null = null, stack: BareFloor | null = null): string[] {
  const ratio = SHIPPED_TARGETS.liveHeapOfBare;
  const what = `as shipped, live heap after a full collection mid-load at c=50 ≤ ${ratio} × bare Yoga's (the largest of the screens)`;
  if (shipped?.liveHeapMb === undefined) return [what, 'the gateway as shipped was not measured', verdict(false, 'no figure')];
  if (bare?.liveHeapMb === undefined)
    return [what, `${fixed(shipped.liveHeapMb, 0)} MB; bare Yoga not measured`, verdict(false, 'no floor')];
  const limit = bare.liveHeapMb * ratio;
  const stackText = stack?.liveHeapMb === undefined ? '' : `, the stack floor ${fixed(stack.liveHeapMb, 0)} MB`;
  const met = shipped.liveHeapMb <= limit;
  return [
    what,
    `${fixed(shipped.liveHeapMb, 1)} MB; bare Yoga ${fixed(bare.liveHeapMb, 1)} MB (× ${ratio}: ${fixed(limit, 1)} MB)${stackText}; ` +
      `${fixed(shipped.liveHeapMb / bare.liveHeapMb)} × bare`,
    verdict(met, met ? `${fixed(limit - shipped.liveHeapMb, 1)} MB to spare` : `${fixed(shipped.liveHeapMb - limit, 1)} MB over`),
  ];
}

/** Each screen's figures on the two floors: bare Yoga (the targets' floor) and the stack floor, shown beside it. */
export interface Floors {
  bare: BareScreenCpu[] | null;
  stack: BareScreenCpu[] | null;
}

interface OfBare {
  what: string;
  ratio: number;
  /** The screen's figure set against bare Yoga's. */
  figure: 'cpuMsPerOp' | 'allocatedKbPerOp';
  unit: string;
  digits: number;
}

const CPU: OfBare = { what: 'CPU per operation', ratio: SHIPPED_TARGETS.cpuOfBare, figure: 'cpuMsPerOp', unit: 'ms', digits: 2 };
const BYTES: OfBare = {
  what: 'JS heap allocated per operation',
  ratio: SHIPPED_TARGETS.allocatedOfBare,
  figure: 'allocatedKbPerOp',
  unit: 'KB',
  digits: 0,
};

/** CPU per operation, and JS heap bytes allocated per operation: each screen against bare Yoga's. */
export const cpuRows = (shipped: Shipped | null, floors: Floors): string[][] => ofBareRows(shipped, floors, CPU);
export const allocationRows = (shipped: Shipped | null, floors: Floors): string[][] => ofBareRows(shipped, floors, BYTES);

/** The gateway's figure over bare Yoga's, round by round (each round measures both within seconds): how far the rounds agree. */
function roundRatios(gateway: number[] | undefined, bare: number[] | undefined): string {
  if (!gateway || !bare || gateway.length !== bare.length || gateway.length < 2) return '';
  return `; round by round ${gateway.map((value, i) => fixed(value / bare[i]!)).join(', ')} × bare`;
}

/** Each screen as shipped at c=50 against bare Yoga's figure of the same run, within `ratio` of it. */
function ofBareRows(shipped: Shipped | null, floors: Floors, { what, ratio, figure, unit, digits }: OfBare): string[][] {
  if (!shipped) return [];
  const of = (screen: BareScreenCpu) => screen[figure];
  return shipped.screens.map((screen) => {
    const bareScreen = floors.bare?.find((b) => b.name === screen.name);
    const floor = bareScreen ? of(bareScreen) : Number.NaN;
    const limit = floor * ratio;
    const measured = of(screen);
    const met = measured <= limit;
    const missed = Number.isFinite(limit) ? `${fixed(measured - limit, digits)} ${unit} over ${fixed(limit, digits)} ${unit}` : 'no floor';
    const stackScreen = floors.stack?.find((s) => s.name === screen.name);
    const stack = stackScreen
      ? `; the stack floor (the required libraries alone) ${fixed(of(stackScreen), digits)} ${unit}, ${fixed(of(stackScreen) / floor)} × bare, the gateway ${fixed(measured / of(stackScreen))} × it`
      : '';
    // Round by round beside the median: how far the rounds agree.
    const byRound = figure === 'cpuMsPerOp' ? 'cpuMsPerOpByRound' : 'allocatedKbPerOpByRound';
    const rounds = roundRatios(screen[byRound], bareScreen?.[byRound]);
    return [
      `as shipped, ${what} at c=50 ≤ ${ratio} × bare Yoga's: ${screen.name}`,
      `${fixed(measured, digits)} ${unit} vs bare Yoga ${fixed(floor, digits)} ${unit} (× ${ratio}: ${fixed(limit, digits)}); ${fixed(measured / floor)} × bare${stack}${rounds}`,
      verdict(met, met ? `${fixed(limit - measured, digits)} ${unit} to spare` : missed),
    ];
  });
}

export function bareTable(bare: BareFloor | null, stack: BareFloor | null, shipped: Shipped | null): string {
  if (!bare) return 'The bare Yoga floor was not measured in this run.';
  const header = [
    'screen',
    'bare Yoga req/s',
    'bare Yoga CPU ms/op',
    'stack floor CPU ms/op',
    'gateway as shipped CPU ms/op',
    'gateway ÷ bare',
    'gateway ÷ stack floor',
    'bare Yoga KB allocated/op',
    'stack floor KB allocated/op',
    'gateway as shipped KB allocated/op',
  ];
  const rows = bare.screens.map((b) => {
    const gateway = shipped?.screens.find((s) => s.name === b.name);
    const floor = stack?.screens.find((s) => s.name === b.name);
    const cpu = gateway?.cpuMsPerOp ?? Number.NaN;
    const stackCpu = floor?.cpuMsPerOp ?? Number.NaN;
    return [
      b.name,
      fixed(b.rps, 0),
      fixed(b.cpuMsPerOp),
      fixed(stackCpu),
      fixed(cpu),
      `${fixed(cpu / b.cpuMsPerOp)}×`,
      `${fixed(cpu / stackCpu)}×`,
      fixed(b.allocatedKbPerOp, 0),
      fixed(floor?.allocatedKbPerOp ?? Number.NaN, 0),
      fixed(gateway?.allocatedKbPerOp ?? Number.NaN, 0),
    ];
  });
  const stackRss = stack ? `; the stack floor's ${fixed(stack.peakRssMb, 0)} MB` : '';
  const gatewayRss = shipped ? `; the gateway's as shipped ${fixed(shipped.peakRssMb, 0)} MB` : '';
  return (
    `${table(header, rows)}\n\n` +
    `Peak RSS over these rounds: bare Yoga's ${fixed(bare.peakRssMb, 0)} MB${stackRss}${gatewayRss} ` +
    "(each process's high-water mark, VmHWM), all with the gateway's shipped flags."
  );
}

const overheadOf = (server: { latency: { p50: number } }, direct: { latency: { p50: number } }) => server.latency.p50 - direct.latency.p50;
const signedMs = (value: number) => `${value >= 0 ? '+' : ''}${fixed(value)}`;

/**
 * The c=50 one-call overhead: met within the target, or when what lies above the target is no more
 * than bare Yoga's own overhead on the same probe in this run (the part graphql-yoga costs any server).
 */
export function loadedOverheadRow(level: OverheadLevel, bare: BareOneCall | null): string[] {
  const target = SHIPPED_TARGETS.loadedOverheadMs;
  const gateway = overheadOf(level.gateway, level.direct);
  const yoga = bare ? overheadOf(bare.bare, bare.direct) : Number.NaN;
  const above = gateway - target;
  const withinTarget = gateway <= target;
  const yogaExplains = !withinTarget && Number.isFinite(yoga) && above <= yoga;
  const bareText = bare
    ? `; bare Yoga on the same probe ${signedMs(yoga)} ms (its ${fixed(bare.bare.latency.p50)} ms, direct ${fixed(bare.direct.latency.p50)} ms)`
    : '; bare Yoga not measured';
  const besideYoga = yogaExplains
    ? `, within bare Yoga's ${fixed(yoga)} ms`
    : Number.isFinite(yoga)
      ? `, more than bare Yoga's ${fixed(yoga)} ms`
      : '';
  return [
    `gateway overhead ≤ ${target} ms at p50, concurrency ${level.connections}, or above it no more than graphql-yoga's own (bare Yoga, same run)`,
    `${signedMs(gateway)} ms (gateway ${fixed(level.gateway.latency.p50)} ms, direct ${fixed(level.direct.latency.p50)} ms)${bareText}`,
    withinTarget
      ? verdict(true, `${fixed(target - gateway)} ms to spare`)
      : verdict(yogaExplains, `${fixed(above)} ms over ${target} ms${besideYoga}`),
  ];
}

/** The line under the overhead table: the same probe through bare Yoga, taking turns with the gateway. */
export function bareOneCallLine(bare: BareOneCall | null): string {
  if (!bare) return 'Bare Yoga was not measured on the one-call probe in this run.';
  return [
    'The same probe through the bare Yoga floor (bench/bare-yoga-child.ts, its own process,',
    `the gateway's flags) at concurrency ${bare.connections}, in the same rounds as the gateway's runs:`,
    `direct p50 ${fixed(bare.direct.latency.p50)} ms, bare Yoga p50 ${fixed(bare.bare.latency.p50)} ms,`,
    `Δ ${signedMs(overheadOf(bare.bare, bare.direct))} ms (graphql-yoga's own per-request cost at this load);`,
    `${fixed(bare.bare.rps, 0)} req/s, ${bare.direct.errors + bare.bare.errors} errors.`,
  ].join('\n');
}
