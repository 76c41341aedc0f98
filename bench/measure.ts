import type { RequestLogEntry } from '@banking-gateway/sandbox';
import type { BenchOperation } from './operations.ts';
import { graphqlTarget, timeOnce, timeSequential, warmUp, type HttpTarget, type LoadResult } from './load.ts';
import type { Settings } from './settings.ts';
import { cpuMs } from './memory.ts';
import { clearUpstreamLog, setUpstreamLatency, upstreamLog, waitForQuiet, type BenchWorld } from './setup.ts';
import { summarize, type Summary } from './stats.ts';
import { directToken } from './bank-client.ts';
import { floorReplay, timedBesideFloor, type Floor } from './floor.ts';
import { gatewayTimeBetweenRounds, roundsOf } from './rounds.ts';

/**
 * Per operation of bench/operations.ts: the upstream calls one run makes (against its minimum), its
 * wall time alone (against its critical path × the sandbox latency), then throughput and latency
 * under autocannon at concurrency 1 and at `connections`.
 *
 * Two figures explain the wall time: the rounds of calls the run actually made (from the request
 * log), and the wall time with the sandbox's latency at 0 (the fixed cost: gateway, sandbox and
 * client CPU). Wall time ≈ rounds × latency + fixed cost.
 */

export interface OperationResult {
  name: string;
  minimumCalls: number;
  calls: number;
  /** Calls that repeat an earlier one of the same run (same method, path, query and subject headers). */
  repeatedCalls: number;
  criticalPath: number;
  criticalPathMs: number;
  /** Rounds of calls the run made: a call starts a new round once a call of the current round had completed before it arrived. */
  observedRounds: number;
  /** Sequential runs, one at a time, each followed by one of its floor's. */
  wall: Summary;
  /** wall.p50 / criticalPathMs. */
  ratio: number;
  /** CPU per sequential run: the gateway's process (gateway and the timing client) and the sandbox's, ms. */
  gatewayCpuMs: number;
  sandboxCpuMs: number | null;
  /**
   * How long after its latency the sandbox answered each call of the sequential runs (its request
   * log's duration minus the latency): the bank's share of the wall time above the critical path.
   */
  bankLate: Summary;
  /** The gateway's own time from a round's first answer to the next round's first call, over the sequential runs (rounds.ts). */
  betweenRounds: Summary;
  /** The same calls in the same rounds, straight to the sandbox from a bare client (bench/floor.ts), a replay after each run. */
  floor: Floor;
  /** Sequential runs with the sandbox's latency at 0. */
  wallAtZeroLatency: Summary;
  loads: LoadResult[];
}

export interface CallCount {
  /** The run's calls as the sandbox logged them. */
  log: RequestLogEntry[];
  calls: number;
  repeated: number;
  rounds: number;
  paths: string[];
}

/** Upstream calls of one run of `target` on a quiet upstream, counted in the sandbox's request log (cleared first). */
export async function countCalls(world: BenchWorld, target: HttpTarget): Promise<CallCount> {
  await waitForQuiet(world);
  await timeOnce(target);
  const log = await upstreamLog(world);
  const keys = log.map((entry) => `${entry.method} ${entry.path} ${JSON.stringify(entry.query)} ${JSON.stringify(entry.subject)}`);
  return {
    log,
    calls: log.length,
    repeated: keys.length - new Set(keys).size,
    rounds: roundsOf(log),
    paths: log.map((entry) => entry.path),
  };
}

export async function measureOperation(world: BenchWorld, operation: BenchOperation, settings: Settings): Promise<OperationResult> {
  const target = graphqlTarget(world.graphqlUrl, operation.query, operation.variables);
  // Unmeasured runs first, for a second as before the autocannon runs: connections are open and
  // the code paths optimised, so the wall time is the steady state a running gateway gives.
  await warmUp(() => timeOnce(target));
  const { log, calls, repeated, rounds } = await countCalls(world, target);
  // The wall time run for run beside its floor (floor.ts): the target's figure, free of the host's drift.
  const beside = await timedBesideFloor(
    () => timeOnce(target),
    floorReplay(world.sandboxUrl, await directToken(world.sandboxUrl), log),
    settings.sequentialRuns,
  );
  const wall = summarize(beside.samples);
  const floor = beside.floor;
  // The CPU per run and the bank's share: as many runs again, the gateway's alone (the floor's calls
  // would count in the sandbox's CPU and its log).
  const cpuBefore = { gateway: cpuMs(world.gateway.pid), sandbox: cpuMs(world.sandboxPid) };
  await clearUpstreamLog(world);
  await timeSequential(target, settings.sequentialRuns);
  const runsLog = await upstreamLog(world);
  const bankLate = summarize(runsLog.map((entry) => entry.durationMs - settings.latencyMs));
  const betweenRounds = summarize(gatewayTimeBetweenRounds(runsLog));
  const gatewayAfter = cpuMs(world.gateway.pid);
  const gatewayCpuMs =
    gatewayAfter === null || cpuBefore.gateway === null ? Number.NaN : (gatewayAfter - cpuBefore.gateway) / settings.sequentialRuns;
  const sandboxAfter = cpuMs(world.sandboxPid);
  const sandboxCpuMs =
    sandboxAfter === null || cpuBefore.sandbox === null ? null : (sandboxAfter - cpuBefore.sandbox) / settings.sequentialRuns;

  await setUpstreamLatency(world, 0);
  let wallAtZeroLatency: Summary;
  try {
    await warmUp(() => timeOnce(target));
    wallAtZeroLatency = await timeSequential(target, settings.sequentialRuns);
  } finally {
    await setUpstreamLatency(world, settings.latencyMs);
  }

  const loads: LoadResult[] = [];
  for (const connections of [1, settings.connections]) {
    // A short unmeasured run first at c > 1: the gateway's upstream pool opens to size. autocannon
    // walks away from the requests it has open when a run ends; the gateway finishes them, so the
    // measured run starts once their upstream calls are done rather than with twice its load.
    if (connections > 1) {
      await world.load.run(target, connections, 1);
      await waitForQuiet(world);
    }
    loads.push(await world.load.run(target, connections, settings.seconds));
  }
  const criticalPathMs = operation.criticalPath * settings.latencyMs;
  return {
    name: operation.name,
    minimumCalls: operation.minimumCalls,
    calls,
    repeatedCalls: repeated,
    criticalPath: operation.criticalPath,
    criticalPathMs,
    observedRounds: rounds,
    wall,
    ratio: criticalPathMs > 0 ? wall.p50 / criticalPathMs : Number.NaN,
    gatewayCpuMs,
    sandboxCpuMs,
    bankLate,
    betweenRounds,
    floor,
    wallAtZeroLatency,
    loads,
  };
}
