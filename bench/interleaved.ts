import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerProcess } from './child-process.ts';
import { GatewayProcess } from './gateway-process.ts';
import { graphqlTarget, type LoadGenerator } from './load.ts';
import { peakRssMb } from './memory.ts';
import type { CompiledDocument } from './compiled-execution.ts';
import type { BenchOperation } from './operations.ts';
import { answerOf } from './same-answers.ts';
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
    allocatedKbPerOpByRound: runs.map((run) => run.allocatedKbPerOp),
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

/** The servers the targets compare: the two floors and the gateway as shipped; and the gateway with compiled execution, tried beside it. */
export type Compared = 'bare' | 'stack' | 'gateway';

/** The compiled gateway (bench/compiled-execution.ts) in the same rounds: its figures, what it compiled, and whether its answers were the shipped one's. */
export interface CompiledTrial extends BareFloor {
  /** Per screen: its document's compilation, and whether the compiled gateway's answer was byte for byte the shipped one's. */
  documents: (Omit<CompiledDocument, 'operationName'> & { name: string; same: boolean })[];
}

/**
 * Each screen's document as the compiled gateway compiled it, and its answer from both gateways
 * compared as bytes (the screens only read, so both see the same bank).
 */
async function compiledScreens(shipped: ServerProcess, compiled: GatewayProcess, operations: readonly BenchOperation[]) {
  const answer = async (server: ServerProcess, operation: BenchOperation) => (await answerOf(server.graphqlUrl, operation)).text;
  const documents = await compiled.compiledDocuments();
  const screens: CompiledTrial['documents'] = [];
  for (const operation of operations) {
    const document = documents.find((d) => d.operationName === operation.operationName);
    screens.push({
      name: operation.name,
      compileMs: document?.compileMs ?? Number.NaN,
      checkedTypes: document?.checkedTypes ?? [],
      same: (await answer(shipped, operation)) === (await answer(compiled, operation)),
    });
  }
  return screens;
}

/**
 * Bare Yoga, the stack floor and a fresh gateway process with the benchmark gateway's flags (`npm
 * start`'s), in interleaved rounds: each one's medians per screen, and its process's peak RSS over
 * the same rounds. The gateway's own process is fresh so that its peak holds these screens alone, as
 * the floors' do; each of the three runs every screen once, unmeasured, before the rounds, so all
 * three have compiled their code and met the same load before any figure is taken. A fourth, the
 * gateway with compiled execution, takes its turn in the same rounds: the trial of issue 57.
 */
export async function measureBesideFloors(
  world: Pick<BenchWorld, 'sandboxUrl' | 'webhooks' | 'gateway' | 'load'>,
  floors: { bare: ServerProcess; stack: ServerProcess },
  options: InterleavedOptions,
): Promise<Record<Compared, BareFloor> & { compiled: CompiledTrial }> {
  const gateway = await GatewayProcess.start(world.sandboxUrl, world.webhooks, false, world.gateway.flags);
  const compiled = await GatewayProcess.startCompiled(world.sandboxUrl, world.webhooks, world.gateway.flags);
  try {
    const servers = { bare: floors.bare, stack: floors.stack, gateway, compiled };
    const liveHeap = { bare: 0, stack: 0, gateway: 0, compiled: 0 };
    for (const name of Object.keys(servers) as (keyof typeof servers)[])
      liveHeap[name] = await warmAndWeigh(servers[name], world.load, options);
    const runs = await measureInterleaved(servers, world.load, options);
    return {
      bare: floorOf(runs, 'bare', floors.bare, liveHeap.bare),
      stack: floorOf(runs, 'stack', floors.stack, liveHeap.stack),
      gateway: floorOf(runs, 'gateway', gateway, liveHeap.gateway),
      compiled: {
        ...floorOf(runs, 'compiled', compiled, liveHeap.compiled),
        documents: await compiledScreens(gateway, compiled, options.operations),
      },
    };
  } finally {
    await compiled.close();
    await gateway.close();
  }
}
