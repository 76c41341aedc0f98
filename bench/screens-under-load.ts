import { cpuMs } from './memory.ts';
import type { ServerProcess } from './child-process.ts';
import { graphqlTarget, type LoadGenerator } from './load.ts';
import { OPERATIONS, type BenchOperation } from './operations.ts';
import { waitForQuiet } from './setup.ts';

/**
 * A server's CPU and bytes per operation under load, each screen measured the same way for every
 * server the benchmark compares: the gateway under each heap sizing (heap.ts), and the bare Yoga
 * floor (bare-yoga.ts).
 */

export interface ScreenCpu {
  name: string;
  connections: number;
  /** Successful operations per second over the measured run. */
  rps: number;
  /** Successful operations of the measured run. */
  operations: number;
  /** The server process's CPU (user + system, /proc ticks of 10 ms) over the measured run, per successful operation. */
  cpuMsPerOp: number;
  /** JS heap bytes the server allocated per successful operation, KB. */
  allocatedKbPerOp: number;
  /** Where this is the median of interleaved rounds (interleaved.ts): each round's CPU per operation, in order. */
  cpuMsPerOpByRound?: number[];
  /** The same rounds' KB allocated per operation. */
  allocatedKbPerOpByRound?: number[];
  /** Median latency, ms. */
  latencyP50: number;
  errors: number;
}

/** A floor (bare Yoga, the stack floor): per screen its req/s, CPU and bytes per operation at c=50 (by default); its process's peak RSS over them all. */
export interface BareFloor {
  screens: ScreenCpu[];
  /** The kernel's high-water mark of the floor server's resident set over its screens (VmHWM), MB. */
  peakRssMb: number;
  /** Its JS heap right after a full collection taken mid-load at c=50, the largest over the screens, MB (where measured). */
  liveHeapMb?: number;
}

export interface CpuMeasureOptions {
  /** The sandbox, waited on until quiet before each measured run (what the warm-up left in flight). */
  sandboxUrl: string;
  /** Seconds of each measured run (after 1 s of warm-up). */
  seconds: number;
  /** autocannon connections (default 50). */
  connections?: number;
  operations?: readonly BenchOperation[];
}

/**
 * Every operation for a second, unmeasured; then for each: autocannon at `connections` against
 * `server` (its GraphQL endpoint) from the load generator's process, 1 s unmeasured, then as many
 * requests as its rate fills `seconds` with (each answered before the figures are read), with the
 * server process's CPU read from /proc before and after. Any server process: the floors' (bare
 * Yoga, the stack floor), or the gateway's for the same figure beside them. The load generator may
 * be one started without a gateway (runUnwatched).
 */
export async function measureScreensCpu(server: ServerProcess, load: LoadGenerator, options: CpuMeasureOptions): Promise<ScreenCpu[]> {
  const connections = options.connections ?? 50;
  const results: ScreenCpu[] = [];
  const operations = options.operations ?? OPERATIONS;
  // Every screen once, unmeasured, before any is measured: a server process just started (a heap
  // configuration's gateway) compiles its code under the first screen's load, and V8's compiler
  // threads count in the process's CPU, so the first screen measured carried the warm-up of all of them.
  for (const operation of operations)
    await load.runUnwatched(graphqlTarget(server.graphqlUrl, operation.query, operation.variables), connections, 1);
  for (const operation of operations) {
    const target = graphqlTarget(server.graphqlUrl, operation.query, operation.variables);
    const warmUp = await load.runUnwatched(target, connections, 1);
    await waitForQuiet({ sandboxUrl: options.sandboxUrl });
    // As many operations as the warm-up's rate fills `seconds` with, each answered before the counts
    // are read: the work counted is that of the operations counted, and none of a request the end
    // of a timed run cut off (which the gateway abandons, with an error per field left, and bare
    // Yoga finishes for nobody).
    const amount = Math.max(connections * 4, Math.round(warmUp.rps * options.seconds));
    const before = cpuMs(server.pid);
    await server.startAllocations();
    const run = await load.runCount(target, connections, amount);
    const allocated = await server.stopAllocations();
    const after = cpuMs(server.pid);
    const operations = Math.round(run.rps * run.seconds);
    results.push({
      name: operation.name,
      connections,
      rps: run.rps,
      operations,
      cpuMsPerOp: before === null || after === null || operations === 0 ? Number.NaN : (after - before) / operations,
      allocatedKbPerOp: operations === 0 ? Number.NaN : allocated / operations / 1024,
      latencyP50: run.latency.p50,
      errors: run.errors,
    });
  }
  await waitForQuiet({ sandboxUrl: options.sandboxUrl });
  return results;
}
