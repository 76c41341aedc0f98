/** What graphql-yoga alone costs on the benchmark's screens: the bare Yoga floor under load, at concurrency 1 beside the bank floor, and on the overhead probe. */

import { directToken } from './bank-client.ts';
import type { ServerProcess } from './child-process.ts';
import { timedBesideItsFloor, type Floor } from './floor.ts';
import type { BareYogaProcess } from './floor-servers.ts';
import { graphqlTarget, timeOnce, type LoadGenerator } from './load.ts';
import { peakRssMb } from './memory.ts';
import type { BenchOperation } from './operations.ts';
import { directTarget, type BareOneCall } from './overhead.ts';
import { ONE_CALL_QUERY } from './parameters.ts';
import { measureScreensCpu, type BareFloor, type CpuMeasureOptions } from './screens-under-load.ts';
import { waitForQuiet } from './setup.ts';
import { summarize } from './stats.ts';

/** Each screen under load on `floor`, and its process's peak RSS over them. */
export async function measureFloorCpu(floor: ServerProcess, load: LoadGenerator, options: CpuMeasureOptions): Promise<BareFloor> {
  const screens = await measureScreensCpu(floor, load, options);
  return { screens, peakRssMb: peakRssMb(floor.pid) };
}

/** One screen at concurrency 1 through bare Yoga, beside the floor of the same calls, run for run. */
export interface BareSequential {
  name: string;
  wall: Floor['wall'];
  floor: Floor;
}

/**
 * What graphql-yoga alone adds at concurrency 1: each screen timed `runs` times through bare Yoga
 * (after a second of unmeasured runs, as the gateway's are), each run followed by the same calls
 * replayed straight to the sandbox in the same rounds (bench/floor.ts), so the two share the
 * machine's state, as the gateway's runs and theirs do. The gateway's wall time over its floor has
 * this beside it.
 */
export async function measureBareSequential(
  bare: BareYogaProcess,
  sandboxUrl: string,
  operations: readonly BenchOperation[],
  runs: number,
): Promise<BareSequential[]> {
  const results: BareSequential[] = [];
  for (const operation of operations) {
    const target = graphqlTarget(bare.graphqlUrl, operation.query, operation.variables);
    const beside = await timedBesideItsFloor(sandboxUrl, () => timeOnce(target), runs);
    results.push({ name: operation.name, wall: summarize(beside.samples), floor: beside.floor });
  }
  return results;
}

/**
 * The gateway-overhead probe (bench/overhead.ts) through bare Yoga: the one-call query at
 * `connections` against GET balance called directly with a bank token, each warmed for 1 s at the
 * same concurrency and then measured, so the gateway's overhead has graphql-yoga's own beside it.
 */
export async function measureBareOneCall(bare: BareYogaProcess, load: LoadGenerator, options: CpuMeasureOptions): Promise<BareOneCall> {
  const connections = options.connections ?? 50;
  const direct = directTarget(options.sandboxUrl, await directToken(options.sandboxUrl));
  const query = graphqlTarget(bare.graphqlUrl, ONE_CALL_QUERY);
  await load.runUnwatched(direct, connections, 1);
  await load.runUnwatched(query, connections, 1);
  await waitForQuiet({ sandboxUrl: options.sandboxUrl });
  const directRun = await load.runUnwatched(direct, connections, options.seconds);
  const bareRun = await load.runUnwatched(query, connections, options.seconds);
  await waitForQuiet({ sandboxUrl: options.sandboxUrl });
  return { connections, direct: directRun, bare: bareRun };
}
