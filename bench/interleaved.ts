import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerProcess } from './child-process.ts';
import { GatewayProcess } from './gateway-process.ts';
import { graphqlTarget, type LoadGenerator } from './load.ts';
import { peakRssMb } from './memory.ts';
import type { BenchOperation } from './operations.ts';
import { measureScreensCpu, type BareFloor, type ScreenCpu } from './screens-under-load.ts';
import type { BenchWorld } from './setup.ts';
import { median } from './stats.ts';

/**
 * Servers compared screen by screen in interleaved rounds: each round measures every screen on
 * every server, the servers' order rotating from screen to screen and round to round, so none is
 * always measured first or last. The machine's state drifts over minutes (by how much:
 * docs/operations.md, "Benchmarks"), so figures measured minutes apart cannot be set against one
 * another; figures measured in the same rounds can. What `npm run bench` sets against its CPU,
 * bytes and peak RSS targets, and what `bench/stack-floor.ts` prints.
 */

/** Rounds of every screen on every server; each figure is the median over them. */
export const INTERLEAVED_ROUNDS = 5;

export interface InterleavedOptions {
  sandboxUrl: string;
  seconds: number;
  connections: number;
  operations: readonly BenchOperation[];
  rounds?: number;
  progress?: (message: string) => void;
}

/** `list` started `shift` places on (wrapping): the order of a round in which servers take turns. */
export function rotated<T>(list: readonly T[], shift: number): T[] {
  const at = shift % list.length;
  return [...list.slice(at), ...list.slice(0, at)];
}

/** Each screen's runs per server, one a round. */
export type Runs<Name extends string> = Map<string, Record<Name, ScreenCpu[]>>;

export async function measureInterleaved<Name extends string>(
  servers: Record<Name, ServerProcess>,
  load: LoadGenerator,
  options: InterleavedOptions,
): Promise<Runs<Name>> {
  const names = Object.keys(servers) as Name[];
  const rounds = options.rounds ?? INTERLEAVED_ROUNDS;
  const runs: Runs<Name> = new Map();
  for (let round = 0; round < rounds; round++) {
    for (const [i, operation] of options.operations.entries()) {
      const order = rotated(names, round + i);
      const screen =
        runs.get(operation.name) ?? (Object.fromEntries(names.map((name) => [name, []])) as unknown as Record<Name, ScreenCpu[]>);
      runs.set(operation.name, screen);
      for (const name of order) {
        const measureOptions = {
          sandboxUrl: options.sandboxUrl,
          seconds: options.seconds,
          connections: options.connections,
          operations: [operation],
        };
        const [figures] = await measureScreensCpu(servers[name], load, measureOptions);
        screen[name].push(figures!);
      }
    }
    options.progress?.(`round ${round + 1} of ${rounds} done`);
  }
  return runs;
}

/** One screen's runs on one server as one: the medians of its rates and costs, its operations and errors summed. */
export function medianRun(runs: readonly ScreenCpu[]): ScreenCpu {
  const of = (pick: (run: ScreenCpu) => number) => median(runs.map(pick));
  return {
    name: runs[0]!.name,
    connections: runs[0]!.connections,
    rps: of((run) => run.rps),
    operations: runs.reduce((sum, run) => sum + run.operations, 0),
    cpuMsPerOp: of((run) => run.cpuMsPerOp),
    cpuMsPerOpByRound: runs.map((run) => run.cpuMsPerOp),
    allocatedKbPerOp: of((run) => run.allocatedKbPerOp),
    latencyP50: of((run) => run.latencyP50),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  };
}

/** A server's figures of the rounds: per screen the medians, its process's peak RSS (VmHWM) so far, and its live heap under load. */
function floorOf<Name extends string>(runs: Runs<Name>, name: Name, server: ServerProcess, liveHeapMb: number): BareFloor {
  return { screens: [...runs.values()].map((screen) => medianRun(screen[name])), peakRssMb: peakRssMb(server.pid), liveHeapMb };
}

/** How far into a warm-up run its live heap is taken: the load is up to its concurrency by then. */
const LIVE_HEAP_AFTER_MS = 500;

/**
 * Every screen once on `server`, unmeasured, at `connections` for a second; halfway into each, its
 * live heap (ServerProcess.liveHeapMb). Returns the largest: what the server holds live at that load,
 * a steadier measure of its memory than its RSS's high-water mark, which moves with when V8 collects.
 */
async function warmAndWeigh(server: ServerProcess, load: LoadGenerator, options: InterleavedOptions): Promise<number> {
  let largest = 0;
  for (const operation of options.operations) {
    const running = load.runUnwatched(graphqlTarget(server.graphqlUrl, operation.query, operation.variables), options.connections, 1);
    await sleep(LIVE_HEAP_AFTER_MS);
    largest = Math.max(largest, await server.liveHeapMb());
    await running;
  }
  return largest;
}

/** The servers the targets compare: the two floors and the gateway as shipped. */
export type Compared = 'bare' | 'stack' | 'gateway';

/**
 * Bare Yoga, the stack floor and a fresh gateway process with the benchmark gateway's flags (`npm
 * start`'s), in interleaved rounds: each one's medians per screen, and its process's peak RSS over
 * the same rounds. The gateway's own process is fresh so that its peak holds these screens alone, as
 * the floors' do; each of the three runs every screen once, unmeasured, before the rounds, so all
 * three have compiled their code and met the same load before any figure is taken.
 */
export async function measureBesideFloors(
  world: Pick<BenchWorld, 'sandboxUrl' | 'webhooks' | 'gateway' | 'load'>,
  floors: { bare: ServerProcess; stack: ServerProcess },
  options: InterleavedOptions,
): Promise<Record<Compared, BareFloor>> {
  const gateway = await GatewayProcess.start(world.sandboxUrl, world.webhooks, false, world.gateway.flags);
  try {
    const servers: Record<Compared, ServerProcess> = { bare: floors.bare, stack: floors.stack, gateway };
    const liveHeap = { bare: 0, stack: 0, gateway: 0 };
    for (const name of Object.keys(servers) as Compared[]) liveHeap[name] = await warmAndWeigh(servers[name], world.load, options);
    const runs = await measureInterleaved(servers, world.load, options);
    return {
      bare: floorOf(runs, 'bare', floors.bare, liveHeap.bare),
      stack: floorOf(runs, 'stack', floors.stack, liveHeap.stack),
      gateway: floorOf(runs, 'gateway', gateway, liveHeap.gateway),
    };
  } finally {
    await gateway.close();
  }
}
