import { join } from 'node:path';
import { directHeaders, directToken } from './bank-client.ts';
import type { ServerProcess } from './child-process.ts';
import type { WatchResult } from './gateway-child.ts';
import { graphqlTarget, type HttpTarget, type LoadResult, type LoadRunResult } from './load.ts';
import { countCalls } from './measure.ts';
import { ONE_CALL_QUERY, OVERHEAD_ROUNDS } from './parameters.ts';
import type { Settings } from './settings.ts';
import { setUpstreamLatency, type BenchWorld } from './setup.ts';
import { rotated } from './interleaved.ts';
import { median } from './stats.ts';

/**
 * What the gateway adds to one upstream call: a one-call query against the same endpoint called
 * directly, as a client of the bank would (standard headers, its own token), both under autocannon
 * from the load generator's process at concurrency 1 and at `connections`. With BENCH_CPU_PROFILE set,
 * the gateway's process records a CPU profile of each of its runs there (open it in Chrome DevTools).
 */

const BALANCE_PATH = '/svc/api/v1/account/balance';

/** Bare Yoga's own per-request cost: its one-call query against the same endpoint called directly. */
export interface BareOneCall {
  connections: number;
  direct: LoadRunResult;
  bare: LoadRunResult;
}

export interface OverheadLevel {
  connections: number;
  /** The sandbox's latency during these runs (the last level runs at 0: the hot path, nothing idle). */
  latencyMs: number;
  /** The medians of the rounds' runs (medianOfRuns). */
  gateway: LoadResult;
  direct: LoadRunResult;
  /** The probe through bare Yoga in the same rounds, when it was given: graphql-yoga's own cost at this level. */
  bare?: LoadRunResult;
}

export interface OverheadResult {
  /** Upstream calls of the one-call query (1 expected). */
  gatewayCalls: number;
  levels: OverheadLevel[];
  /** The probe through bare Yoga at the load level, in the same rounds: graphql-yoga's own cost there (also in its level). */
  bareOneCall: BareOneCall | null;
}

/** GET balance as a client of the bank calls it. */
export function directTarget(sandboxUrl: string, token: string): HttpTarget {
  return { url: `${sandboxUrl}${BALANCE_PATH}`, method: 'GET', headers: directHeaders(token), failure: { bodyLacks: '"code":200' } };
}

/** Several runs of one path as one: the median of each figure, the errors summed. */
export function medianOfRuns<R extends LoadRunResult>(runs: readonly R[]): R {
  const of = (pick: (run: R) => number) => median(runs.map(pick));
  const latency = {
    count: runs.reduce((sum, run) => sum + run.latency.count, 0),
    p50: of((r) => r.latency.p50),
    p99: of((r) => r.latency.p99),
    max: Math.max(...runs.map((r) => r.latency.max)),
    mean: of((r) => r.latency.mean),
  };
  const merged = { ...runs[0]!, rps: of((r) => r.rps), latency, errors: runs.reduce((sum, run) => sum + run.errors, 0) };
  const watched = runs as readonly Partial<LoadResult>[];
  if (!watched[0]?.gateway) return merged;
  const watch = (pick: (w: WatchResult) => number) => median(watched.map((run) => pick(run.gateway!)));
  const gateway: WatchResult = {
    loopBusy: watch((w) => w.loopBusy),
    limitMean: watch((w) => w.limitMean),
    inFlightMean: watch((w) => w.inFlightMean),
    queuedMean: watch((w) => w.queuedMean),
    limitAtEnd: watch((w) => w.limitAtEnd),
  };
  return { ...merged, gateway };
}

/**
 * The probe at each level: the direct call, the gateway and (when given) bare Yoga, each warmed for
 * a second, then OVERHEAD_ROUNDS rounds of a run of each, their order rotating from round to round,
 * each figure the median of its rounds. The paths run in the same minutes: a gateway measured
 * minutes away from the path it is set against met a host faster or slower (docs/operations.md,
 * "Benchmarks": an example).
 */
export async function measureOverhead(world: BenchWorld, settings: Settings, bare?: ServerProcess): Promise<OverheadResult> {
  const gateway = graphqlTarget(world.graphqlUrl, ONE_CALL_QUERY);
  const direct = directTarget(world.sandboxUrl, await directToken(world.sandboxUrl));
  const { calls, paths } = await countCalls(world, gateway);
  // The comparison holds only if the query's one call is the endpoint called directly.
  if (paths.join() !== BALANCE_PATH) throw new Error(`the one-call query called ${paths.join(', ') || 'nothing'}, not ${BALANCE_PATH}`);
  const levels: OverheadLevel[] = [];
  const plan = [
    { connections: 1, latencyMs: settings.latencyMs },
    { connections: settings.connections, latencyMs: settings.latencyMs },
    { connections: 1, latencyMs: 0 },
  ];
  const bareTarget = bare ? graphqlTarget(bare.graphqlUrl, ONE_CALL_QUERY) : undefined;
  try {
    for (const { connections, latencyMs } of plan) {
      if (latencyMs !== settings.latencyMs) await setUpstreamLatency(world, latencyMs);
      const runs = { direct: [] as LoadRunResult[], gateway: [] as LoadResult[], bare: [] as LoadRunResult[] };
      const paths = {
        direct: async () => void runs.direct.push(await world.load.runUnwatched(direct, connections, settings.seconds)),
        gateway: async () => void runs.gateway.push(await gatewayRun(world, settings, gateway, connections, latencyMs)),
        bare: async () => void runs.bare.push(await world.load.runUnwatched(bareTarget!, connections, settings.seconds)),
      };
      const order = bareTarget ? (['direct', 'gateway', 'bare'] as const) : (['direct', 'gateway'] as const);
      // Each path warmed at this concurrency.
      for (const target of [direct, gateway, ...(bareTarget ? [bareTarget] : [])]) await world.load.runUnwatched(target, connections, 1);
      for (let round = 0; round < OVERHEAD_ROUNDS; round++) {
        for (const path of rotated(order, round)) await paths[path]();
      }
      levels.push({
        connections,
        latencyMs,
        gateway: medianOfRuns(runs.gateway),
        direct: medianOfRuns(runs.direct),
        ...(bareTarget ? { bare: medianOfRuns(runs.bare) } : {}),
      });
    }
  } finally {
    await setUpstreamLatency(world, settings.latencyMs);
  }
  const load = levels.find((level) => level.connections === settings.connections && level.latencyMs === settings.latencyMs);
  const bareOneCall = load?.bare ? { connections: load.connections, direct: load.direct, bare: load.bare } : null;
  return { gatewayCalls: calls, levels, bareOneCall };
}

/** One measured run through the gateway; with BENCH_CPU_PROFILE set, its process records a CPU profile of the run. */
async function gatewayRun(
  world: BenchWorld,
  settings: Settings,
  target: HttpTarget,
  connections: number,
  latencyMs: number,
): Promise<LoadResult> {
  if (settings.cpuProfileDir) await world.gateway.startProfile();
  const result = await world.load.run(target, connections, settings.seconds);
  if (settings.cpuProfileDir) {
    const file = join(settings.cpuProfileDir, `gateway-overhead-c${connections}-${latencyMs}ms.cpuprofile`);
    console.error(`[bench] the gateway's CPU profile: ${await world.gateway.stopProfile(file)}`);
  }
  return result;
}
