/**
 * What a server's live heap is made of, by who holds it: heap snapshots of a server process (the
 * gateway, bare Yoga) idle and mid-load under each screen, each attributed to retainer categories
 * (bench/heap-snapshot.ts). It exists because the gateway's live heap under load was twice bare
 * Yoga's and no figure said where the difference went. `measureRetainers` returns the figures,
 * bench/report/memory-retainers.ts renders them; `npx node bench/memory-retainers.ts` measures the
 * gateway and bare Yoga and prints the tables (MEMORY_SNAPSHOTS_DIR keeps the snapshots there).
 */

import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { directToken } from './bank-client.ts';
import type { ServerProcess } from './child-process.ts';
import { BareYogaProcess } from './floor-servers.ts';
import { analyseHeapSnapshot, RETAINER_CATEGORIES, type RetainerBreakdown, type RetainerCategory } from './heap-retainers.ts';
import { graphqlTarget, type LoadGenerator } from './load.ts';
import { OPERATIONS, type BenchOperation } from './operations.ts';
import { retainersLines, type RetainerFigures, type ServerRetainers } from './report/memory-retainers.ts';
import { readSettings } from './settings.ts';
import { prepareCardsScreen, startWorld, warmToken } from './setup.ts';

const MB = 1024 * 1024;

/** What measureRetainers measures, and how. */
export interface RetainerOptions {
  /** The server's name in the tables. */
  name: string;
  operations: readonly BenchOperation[];
  /** The load's concurrency (the benchmark's BENCH_CONNECTIONS). */
  connections: number;
  /** Where the snapshots are kept; by default they go to a temporary folder, removed once read. */
  keepSnapshotsIn?: string | undefined;
  progress?: (message: string) => void;
}

/**
 * How far into a load run the snapshot is taken: the load is up to its concurrency by then (as
 * bench/interleaved.ts weighs the live heap).
 */
const SNAPSHOT_AFTER_MS = 500;
/** Each load run's length: the snapshot stops the server for a second or two within it. */
const RUN_SECONDS = 1;
/** After a run, time for the server to finish what autocannon left in flight before the next snapshot. */
const SETTLE_MS = 1_000;

/** A breakdown's bytes in MB, beside the live heap read just before its snapshot. */
function figuresOf(breakdown: RetainerBreakdown, liveHeapMb: number): RetainerFigures {
  const mb = Object.fromEntries(RETAINER_CATEGORIES.map((name) => [name, breakdown.bytes[name] / MB])) as Record<RetainerCategory, number>;
  return {
    mb,
    heapMb: (breakdown.totalBytes - breakdown.bytes['off-heap']) / MB,
    liveHeapMb,
    otherTop: breakdown.otherTop.map(({ name, bytes }) => ({ name, mb: bytes / MB })),
    codeByPackage: breakdown.codeByPackage.map(({ name, codeBytes, sourceBytes }) => ({
      name,
      codeMb: codeBytes / MB,
      sourceMb: sourceBytes / MB,
    })),
  };
}

/** A load run of `operation` on `server` at `connections`, unwatched (bench/load.ts). */
function loadRun(server: ServerProcess, load: LoadGenerator, operation: BenchOperation, connections: number) {
  return load.runUnwatched(graphqlTarget(server.graphqlUrl, operation.query, operation.variables), connections, RUN_SECONDS);
}

/** Every screen once at the load's concurrency, unmeasured: the code the screens run is compiled, their connections open. */
async function warm(server: ServerProcess, load: LoadGenerator, options: RetainerOptions): Promise<void> {
  for (const operation of options.operations) await loadRun(server, load, operation, options.connections);
  await sleep(SETTLE_MS);
}

/** Where a server's snapshots are written, and whether they are removed once read. */
interface SnapshotPlace {
  fileOf(label: string): string;
  keep: boolean;
}

/**
 * The server's live heap (ServerProcess.liveHeapMb) and, right after, its heap snapshot, read
 * against `baseline` (the idle snapshot's ids) when given; the file is removed once read unless kept.
 */
async function weigh(server: ServerProcess, place: SnapshotPlace, label: string, baseline?: Uint32Array) {
  const liveHeapMb = await server.liveHeapMb();
  const path = await server.heapSnapshot(place.fileOf(label));
  const analysis = analyseHeapSnapshot(path, { baseline });
  if (!place.keep) await rm(path, { force: true });
  return { figures: figuresOf(analysis.breakdown, liveHeapMb), nodeIds: analysis.nodeIds };
}

/**
 * The server's heap snapshots, idle and under each screen at `connections`, each read as soon as
 * it is written. Idle is after one load run of every screen, so what the screens compile is in
 * it; the snapshot under a screen is taken SNAPSHOT_AFTER_MS into a run of it, and what it holds
 * beyond idle that no store claims counts as the in-flight requests' (bench/heap-snapshot.ts).
 */
export async function measureRetainers(server: ServerProcess, load: LoadGenerator, options: RetainerOptions): Promise<ServerRetainers> {
  const directory = options.keepSnapshotsIn ?? (await mkdtemp(join(tmpdir(), 'heap-retainers-')));
  await mkdir(directory, { recursive: true });
  const place = {
    fileOf: (label: string) => join(directory, `${options.name}-${label}.heapsnapshot`.replace(/[^\w.-]+/g, '-')),
    keep: options.keepSnapshotsIn !== undefined,
  };
  try {
    await warm(server, load, options);
    const idle = await weigh(server, place, 'idle');
    options.progress?.(`${options.name}: idle, ${idle.figures.heapMb.toFixed(1)} MB of JS heap`);
    const underLoad: ServerRetainers['underLoad'] = [];
    for (const operation of options.operations) {
      const running = loadRun(server, load, operation, options.connections);
      await sleep(SNAPSHOT_AFTER_MS);
      const { figures } = await weigh(server, place, operation.name, idle.nodeIds);
      await running;
      underLoad.push({ screen: operation.name, figures });
      options.progress?.(`${options.name}: ${operation.name}, ${figures.heapMb.toFixed(1)} MB of JS heap`);
      await sleep(SETTLE_MS);
    }
    return { server: options.name, connections: options.connections, snapshotAfterMs: SNAPSHOT_AFTER_MS, idle: idle.figures, underLoad };
  } finally {
    if (!place.keep) await rm(directory, { recursive: true, force: true });
  }
}

/** The standalone run: the benchmark's world, bare Yoga beside its gateway, both measured, the tables printed. */
async function main(): Promise<void> {
  const settings = readSettings();
  const progress = (message: string) => console.error(`[memory-retainers] ${message}`);
  const world = await startWorld(settings.latencyMs);
  let bare: BareYogaProcess | undefined;
  try {
    await warmToken(world);
    progress(`sandbox ${world.sandboxUrl}, gateway pid ${world.gateway.pid}; issuing the cards screen's cards`);
    await prepareCardsScreen(world);
    bare = await BareYogaProcess.start(world.sandboxUrl, await directToken(world.sandboxUrl), world.gateway.flags);
    progress(`bare Yoga pid ${bare.pid} (${bare.flags.join(' ')})`);
    const options = {
      operations: OPERATIONS,
      connections: settings.connections,
      keepSnapshotsIn: process.env.MEMORY_SNAPSHOTS_DIR || undefined,
      progress,
    };
    const gateway = await measureRetainers(world.gateway, world.load, { ...options, name: 'gateway' });
    const bareYoga = await measureRetainers(bare, world.load, { ...options, name: 'bare Yoga' });
    for (const line of retainersLines(gateway, bareYoga)) console.log(line);
  } finally {
    await bare?.close();
    await world.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
