import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DeliveryPass } from '../../bench/subscriptions.ts';
import type { LoadResult } from '../../bench/load.ts';
import type { OperationResult } from '../../bench/measure.ts';
import { renderReport, type Machine, type RunResults } from '../../bench/report/results.ts';
import { summarize, type Summary } from '../../bench/stats.ts';

/**
 * bench/RESULTS.md as the report writes it, from one fixed run made up to reach every section: the
 * text the report wrote before its prose moved out of the code is kept beside this file, so moving
 * or rewrapping the prose cannot change a sentence, a figure, a table or the order of sections.
 */

const summary = (p50: number, p99 = p50 * 1.3, count = 50): Summary => ({ count, p50, p99, max: p99 * 1.1, mean: p50 * 1.05 });
const watched = (limitMean: number, inFlightMean: number, loopBusy: number) => ({
  loopBusy,
  limitMean,
  inFlightMean,
  queuedMean: inFlightMean / 4,
  limitAtEnd: Math.round(limitMean),
});
const load = (connections: number, rps: number, p50: number, gateway = watched(50, 12, 0.3)): LoadResult => ({
  connections,
  seconds: 5,
  rps,
  latency: summary(p50, p50 * 1.6, Math.round(rps * 5)),
  errors: 0,
  gateway,
});

function operation(name: string, calls: number, criticalPath: number, wall: number, floor: number, c50: LoadResult): OperationResult {
  return {
    name,
    minimumCalls: calls,
    calls,
    repeatedCalls: 0,
    criticalPath,
    criticalPathMs: criticalPath * 20,
    observedRounds: criticalPath,
    wall: summary(wall),
    ratio: wall / (criticalPath * 20),
    gatewayCpuMs: 3.4,
    sandboxCpuMs: 1.2,
    bankLate: summary(0.8, 2.1),
    betweenRounds: summary(0.9, 1.5, 50 * (criticalPath - 1)),
    floor: { wall: summary(floor), firstRound: summary(20.6), rounds: criticalPath },
    wallAtZeroLatency: summary(wall - criticalPath * 20),
    loads: [load(1, 20.4, wall), c50],
  };
}

const pass = (events: number, p99: number, lost = 0): DeliveryPass => ({
  events,
  latency: summary(p99 / 2, p99, events * 1000 - lost),
  lastReceipt: summary(p99 * 0.9, p99, events),
  intake: summary(1.1),
  spanMs: events * p99,
  lost,
  duplicates: 0,
});

const perCall = (cpu: number) => ({ batch: 20, batches: 300, cpu: { p50: cpu, p95: 2 * cpu }, wall: { p50: cpu + 0.002, p95: 2 * cpu } });
const spread = (p50: number) => ({ count: 1000, p50, p95: p50 + 0.2 });
const heapScreen = (screen: string, rps: number, cpuMsPerOp: number) => ({ screen, rps, cpuMsPerOp, allocatedKbPerOp: 900, errors: 0 });
const bareScreen = (name: string, rps: number, cpuMsPerOp: number) => ({
  name,
  connections: 50,
  rps,
  operations: rps * 5,
  cpuMsPerOp,
  allocatedKbPerOp: 400,
  latencyP50: 150,
  errors: 0,
});

export const RUN: RunResults = {
  settings: {
    latencyMs: 20,
    seconds: 5,
    sequentialRuns: 50,
    connections: 50,
    subscribers: 1000,
    burstEvents: 50,
    cpuProfileDir: undefined,
    pacedEvents: 100,
    authorizationRuns: 1000,
  },
  gatewayFlags: ['--max-old-space-size=512', '--max-semi-space-size=64'],
  concurrency: 'adaptive on, from 50 within 4..96 (UPSTREAM_*_CONCURRENCY)',
  perClient:
    "no limit on operations per window, no cap on one client's calls in flight (the fair queue alone) (CLIENT_RATE_LIMIT_OPERATIONS, CLIENT_MAX_UPSTREAM_IN_FLIGHT: the shipped defaults)",
  startedAt: new Date('2026-11-27T14:26:59.130Z'),
  elapsedSeconds: 510.4,
  operations: [
    operation('dashboard', 9, 2, 49, 44.2, load(50, 320, 153.6, watched(95.6, 95.5, 0.62))),
    operation('cards screen (50 cards)', 55, 3, 64.8, 62.4, load(50, 54, 913.6, watched(94.5, 80.1, 0.91))),
  ],
  deferred: {
    name: 'cards screen (50 cards), details @defer',
    minimumCalls: 55,
    calls: 55,
    firstPayloadRounds: 1,
    criticalPath: 3,
    firstPayload: summary(21.5),
    lastPayload: summary(65),
    parts: 51,
    floor: { firstRound: summary(20.6), wall: summary(62), rounds: 3 },
    bare: {
      calls: 55,
      firstPayload: summary(21.9),
      lastPayload: summary(64.1),
      parts: 51,
      floor: { firstRound: summary(20.5), wall: summary(62.2), rounds: 3 },
    },
  },
  fairness: { operation: 'dashboard', idle: summary(45.5), flooded: summary(49.9), flood: load(100, 216, 359.1, watched(96, 94, 0.97)) },
  overhead: {
    gatewayCalls: 1,
    levels: [
      { connections: 1, latencyMs: 20, gateway: load(1, 45, 22.1), direct: load(1, 48, 20.5) },
      { connections: 50, latencyMs: 20, gateway: load(50, 1850, 26.8), direct: load(50, 2300, 21.5) },
      { connections: 1, latencyMs: 0, gateway: load(1, 610, 1.6), direct: load(1, 2400, 0.4) },
    ],
    bareOneCall: null,
  },
  cache: {
    screens: [
      { name: 'dashboard', firstCalls: 10, repeatCalls: 0, wallP50: 2.4 },
      { name: 'cards screen (50 cards)', firstCalls: 55, repeatCalls: 0, wallP50: 9.8 },
    ],
    deposit: { amount: 1250, before: 431454.28, beforeEvent: 431454.28, afterEvent: 432704.28, balanceCalls: 1 },
    cardUpdate: { from: 'ACTIVE', to: 'FROZEN', read: 'FROZEN', cardReads: 1 },
  },
  authorization: {
    warmUpRuns: 200,
    screens: [
      {
        name: 'dashboard',
        runs: 1000,
        checked: spread(0.161),
        unchecked: spread(0.151),
        control: spread(0.162),
        difference: 0.01,
        floor: 0.001,
        checks: { fields: 3, records: 7 },
        reads: { cached: 9000, bank: 0 },
      },
      {
        name: 'cards screen (50 cards)',
        runs: 1000,
        checked: spread(0.775),
        unchecked: spread(0.747),
        control: spread(0.776),
        difference: 0.028,
        floor: 0.001,
        checks: { fields: 1, records: 125 },
        reads: { cached: 55000, bank: 0 },
      },
    ],
    identity: { apiKeys: 5, apiKey: perCall(0.001), jwt: perCall(0.043), jwtFirst: perCall(0.085) },
    audit: perCall(0.004),
  },
  subscriptions: {
    subscribers: 1000,
    clock: { offsetMs: -0.0123, uncertaintyMs: 0.041 },
    gateway: { connectMs: 812, subscriptionErrors: 0, paced: pass(100, 31.2), burst: pass(50, 410.5) },
    floor: { connectMs: 640, subscriptionErrors: 0, paced: pass(100, 19.8), burst: pass(50, 260.3) },
    bare: { connectMs: 905, subscriptionErrors: 0, paced: pass(100, 58.4), burst: pass(50, 702.9) },
  },
  liveQueries: {
    clients: 1000,
    maxPerCaller: { used: 1000, configured: 100 },
    throttleMs: 250,
    bankLatencyMs: 20,
    deposit: 125,
    connectMs: 799.4,
    errors: 0,
    pass: pass(100, 36.5),
    balanceReads: Array.from({ length: 100 }, () => 1),
    balanceReadMs: summarize(Array.from({ length: 100 }, (_, i) => 20.1 + i / 100)),
    upstreamCalls: Array.from({ length: 100 }, () => 1),
    gatewayMemory: { rssMb: 402.6, heapUsedMb: 181.2 },
  },
  intake: {
    concurrency: 100,
    waves: 20,
    answer: summary(8.2, 41.7, 2000),
    statuses: { 202: 2100 },
    events: 2100,
    subscribers: 1000,
    delivered: 2_100_000,
    expected: 2_100_000,
    duplicates: 0,
    subscriptionErrors: 0,
    lastReceiptMs: 9100,
    replicaAck: {
      timeoutMs: 500,
      subscribers: 100,
      without: summary(6.1, 30.2, 1000),
      with: summary(7.4, 33.9, 1000),
      statuses: { 202: 1100 },
    },
  },
  heap: [
    {
      label: "V8's defaults",
      flags: [],
      shipped: false,
      peakRssMb: 410,
      screens: [heapScreen('dashboard', 330, 2.5), heapScreen('cards screen (50 cards)', 55, 12.9)],
    },
    {
      label: 'old 512 MB, semi-space 64 MB',
      flags: ['--max-old-space-size=512', '--max-semi-space-size=64'],
      shipped: true,
      peakRssMb: 276,
      screens: [heapScreen('dashboard', 320, 2.3), heapScreen('cards screen (50 cards)', 54, 12.1)],
    },
  ],
  bareYoga: { peakRssMb: 187, screens: [bareScreen('dashboard', 410, 1.4), bareScreen('cards screen (50 cards)', 71, 7.9)] },
  stackFloor: { peakRssMb: 205, screens: [bareScreen('dashboard', 380, 1.7), bareScreen('cards screen (50 cards)', 68, 8.1)] },
  shipped: {
    flags: ['--max-old-space-size=512', '--max-semi-space-size=64'],
    peakRssMb: 276,
    screens: [
      { ...bareScreen('dashboard', 320, 2.3), allocatedKbPerOp: 900 },
      { ...bareScreen('cards screen (50 cards)', 54, 12.1), allocatedKbPerOp: 900 },
    ],
  },
  bareOneCall: {
    connections: 50,
    direct: { connections: 50, seconds: 5, rps: 2280, latency: summary(21.6), errors: 0 },
    bare: { connections: 50, seconds: 5, rps: 2010, latency: summary(24.1), errors: 0 },
  },
  bareSequential: [
    { name: 'dashboard', wall: summary(45.9), floor: { wall: summary(44.4), firstRound: summary(22.1), rounds: 2 } },
    { name: 'cards screen (50 cards)', wall: summary(63.9), floor: { wall: summary(62.1), firstRound: summary(21.6), rounds: 3 } },
  ],
  memory: {
    children: ['subscribers child', 'sandbox'],
    phases: [
      { phase: 'operation: dashboard', gatewayMb: 140.2, heapUsedMb: 61, heapTotalMb: 90, childrenMb: [60, 120] },
      { phase: 'subscriptions: gateway, 1000 clients', gatewayMb: 231.7, heapUsedMb: 118, heapTotalMb: 160, childrenMb: [210, null] },
    ],
    kernelPeakGatewayMb: 240.3,
    samples: 5104,
  },
};

const MACHINE: Machine = { cores: 2, cpu: 'AMD EPYC', ramGb: 24, platform: 'linux/x64', node: 'v24.21.0' };

/**
 * The text as Markdown renders it, line breaks aside: a paragraph's lines, and a list item's indented
 * ones, joined by a space. Tables, headings, list items and blank lines stay where they are.
 */
function unwrapped(markdown: string): string {
  const lines: string[] = [];
  for (const line of markdown.split('\n')) {
    const previous = lines.at(-1)?.trim();
    const continues = previous && !/^[|#]/.test(previous) && line.trim() !== '' && !/^(\||#|- )/.test(line.trimStart());
    if (continues) lines[lines.length - 1] += ` ${line.trimStart()}`;
    else lines.push(line);
  }
  return lines.join('\n');
}

describe('the report bench/RESULTS.md', () => {
  const expectedPath = new URL('bench-results.expected.md', import.meta.url);
  // BENCH_REPORT_UPDATE=1 writes what the report says now, after a change of its words: review the diff.
  if (process.env.BENCH_REPORT_UPDATE === '1') writeFileSync(expectedPath, renderReport(RUN, MACHINE));
  const before = readFileSync(expectedPath, 'utf8');

  it('says what it said before its prose moved out of the code, in the same order', () => {
    expect(unwrapped(renderReport(RUN, MACHINE))).toBe(unwrapped(before));
  });

  it('tells a change of words from a change of line breaks', () => {
    expect(unwrapped('- a list item\n  wrapped\n- the next\n\nA paragraph\nwrapped.\n| a | table |')).toBe(
      '- a list item wrapped\n- the next\n\nA paragraph wrapped.\n| a | table |',
    );
    expect(unwrapped('one\ntwo')).not.toBe(unwrapped('one  two'));
  });
});
