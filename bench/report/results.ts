/** bench/RESULTS.md: the machine, the targets met or missed, then every figure behind them, filled into templates/results.md. */

import type { EstimateCost } from '../bank-call-estimate.ts';
import { estimateCostRow } from './bank-calls.ts';
import { cpus, totalmem } from 'node:os';
import type { ClientRateLimitConfig } from '../../src/settings/index.ts';
import type { AuthorizationResult } from '../authorization-cost.ts';
import type { BareSequential } from '../bare-yoga-floor.ts';
import type { CacheResult } from '../cache.ts';
import type { DeferResult } from '../defer.ts';
import type { FairnessResult } from '../fairness.ts';
import type { HeapConfigResult } from '../heap-sizing.ts';
import type { IntakeFloodResult } from '../intake-flood.ts';
import type { LiveQueryResult } from '../live-dashboards.ts';
import type { OperationResult } from '../measure.ts';
import type { MemoryReport } from '../memory.ts';
import type { BareOneCall, OverheadResult } from '../overhead.ts';
import {
  FLOOD_ADDRESS,
  FLOOD_CONNECTIONS,
  FLOOD_SECONDS,
  LIVE_DASHBOARD_QUERY,
  ONE_CALL_QUERY,
  OVERHEAD_ROUNDS,
  QUIET_ADDRESS,
} from '../parameters.ts';
import type { BareFloor } from '../screens-under-load.ts';
import type { Settings } from '../settings.ts';
import type { SubscriptionResult } from '../subscriptions.ts';
import { authorizationSection, authorizationTargetRow } from './authorization.ts';
import { cacheRows, cacheTable } from './cache.ts';
import { deferRows, deferTable } from './defer.ts';
import { fairnessRow, fairnessTable } from './fairness.ts';
import { mb, ms, table } from './format.ts';
import { heapRows, heapTable } from './heap.ts';
import { intakeRow } from './intake.ts';
import { liveQueriesTable, liveQueryRows } from './live-queries.ts';
import { gatewayPeakMb, memoryTable } from './memory.ts';
import { callsRow, loadLevelRows, loadTable, sequentialTable } from './operations.ts';
import { overheadRows, overheadTable } from './overhead.ts';
import type { CompiledTrial } from '../interleaved.ts';
import { compiledSection } from './compiled.ts';
import { retainersLines, type ServerRetainers } from './memory-retainers.ts';
import { allocationRows, bareOneCallLine, bareTable, cpuRows, liveHeapRow, perRoundRow, rssRow, type Shipped } from './shipped.ts';
import { fanoutRows, subscriptionsTable } from './subscriptions.ts';
import { template } from './template.ts';

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
  /** What pricing each screen in bank calls costs (bench/bank-call-estimate.ts); absent from runs before it was measured. */
  estimateCost?: EstimateCost[];
  subscriptions: SubscriptionResult;
  /** Live dashboards on a gateway of their own with the record cache on (bench/live-dashboards.ts). */
  liveQueries: LiveQueryResult;
  /** The webhook intake under a flood, on a gateway of its own with Redis (bench/intake-flood.ts); null when Redis did not answer. */
  intake: IntakeFloodResult | null;
  /** The screens at c=50 through a gateway process per heap configuration (bench/heap-sizing.ts). */
  heap: HeapConfigResult[];
  /** The same screens through a bare Yoga server making the same calls (bench/bare-yoga-floor.ts), in the rounds of `shipped`. */
  bareYoga: BareFloor | null;
  /** The same screens through the stack floor (bench/stack-floor.ts: the required libraries, none of the gateway's code), in the same rounds. */
  stackFloor: BareFloor | null;
  /** The same screens through a fresh gateway process with `npm start`'s flags, in interleaved rounds with the two floors (bench/interleaved.ts). */
  shipped: Shipped | null;
  /** Heap snapshots by retainer of the benchmark's gateway and of bare Yoga (bench/memory-retainers.ts); absent from runs before they were taken. */
  retainers?: { gateway: ServerRetainers; bare: ServerRetainers } | undefined;
  /** The gateway with graphql-jit in the same rounds as `shipped` (bench/compiled-execution.ts); absent from runs before it was tried. */
  compiled?: CompiledTrial | null;
  /** The overhead probe through bare Yoga at the load level: graphql-yoga's own per-request cost, in the same run. */
  bareOneCall: BareOneCall | null;
  /** Each screen at concurrency 1 through bare Yoga, beside its floor run for run: what graphql-yoga alone adds. */
  bareSequential: BareSequential[] | null;
  memory: MemoryReport;
}

/** The limits per client in force, in words, saying whether they are the shipped defaults (both off). */
export function perClientLimits(maxInFlight: number, rate: Pick<ClientRateLimitConfig, 'operations' | 'windowSeconds'>): string {
  const window = rate.operations > 0 ? `${rate.operations} operations per ${rate.windowSeconds} s` : 'no limit on operations per window';
  const cap =
    maxInFlight > 0 ? `at most ${maxInFlight} calls in flight per client` : "no cap on one client's calls in flight (the fair queue alone)";
  const shipped = rate.operations === 0 && maxInFlight === 0 ? 'the shipped defaults' : 'set for this run, not the shipped defaults';
  return `${window}, ${cap} (CLIENT_RATE_LIMIT_OPERATIONS, CLIENT_MAX_UPSTREAM_IN_FLIGHT: ${shipped})`;
}

/** The Targets table: every target of the run, met or not, in the order RESULTS.md lists them. */
function targetRows(r: RunResults): string[][] {
  const floors = { bare: r.bareYoga?.screens ?? null, stack: r.stackFloor?.screens ?? null };
  return [
    callsRow(r.operations),
    ...r.operations.map((o) =>
      perRoundRow(
        o,
        r.bareSequential?.find((b) => b.name === o.name),
      ),
    ),
    ...loadLevelRows(r.operations, r.settings.connections),
    ...deferRows(r.deferred),
    fairnessRow(r.fairness),
    ...overheadRows(r.overhead, r.settings.latencyMs, r.bareOneCall),
    ...cacheRows(r.cache),
    authorizationTargetRow(r.authorization),
    ...(r.estimateCost ? [estimateCostRow(r.estimateCost, r.shipped)] : []),
    ...fanoutRows(r.subscriptions),
    ...liveQueryRows(r.liveQueries, r.subscriptions.floor.paced),
    intakeRow(r.intake),
    ...heapRows(r.heap),
    rssRow(r.shipped, r.bareYoga, r.stackFloor),
    liveHeapRow(r.shipped, r.bareYoga, r.stackFloor),
    ...cpuRows(r.shipped, floors),
    ...allocationRows(r.shipped, floors),
  ];
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
    liveDocument: LIVE_DASHBOARD_QUERY,
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
    compiledSection: compiledSection(r.compiled, r.shipped?.screens ?? null),
    retainersSection: r.retainers ? retainersLines(r.retainers.gateway, r.retainers.bare).join('\n') : 'Not measured in this run.',
    memoryTable: memoryTable(memory),
    gatewayPeakSampled: mb(gatewayPeakMb(memory)),
    gatewayPeakKernel: mb(memory.kernelPeakGatewayMb),
    memorySamples: memory.samples,
  });
}
