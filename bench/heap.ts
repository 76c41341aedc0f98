import { GatewayProcess, startHeapFlags } from './gateway-process.ts';
import { LoadGenerator } from './load.ts';
import { peakRssMb } from './memory.ts';
import type { BenchOperation } from './operations.ts';
import { meanOfRounds, measureScreensCpu } from './screens-under-load.ts';
import type { BenchWorld } from './setup.ts';

/**
 * Heap sizing, measured rather than guessed: the same screens at c=50 through a fresh gateway process
 * per configuration of V8's heap (one process each, so each peak RSS is that configuration's alone),
 * one after another on the same sandbox, in two rounds (the second in reverse order) averaged. Per screen: throughput, the gateway's CPU per operation and
 * the bytes it allocates per operation; per configuration: the process's peak RSS (the kernel's
 * high-water mark, VmHWM). What `npm start` ships is one of them, marked.
 */

interface HeapConfig {
  label: string;
  /** Node flags of the gateway's process. */
  flags: string[];
}

/** The candidates: the first container sizing, V8's own, small and large young generations under a 512 MB old-space cap, and 16 MB semi-spaces under larger caps. */
const HEAP_CONFIGS: HeapConfig[] = [
  { label: 'old 128 MB, semi-space 8 MB (shipped first)', flags: ['--max-old-space-size=128', '--max-semi-space-size=8'] },
  { label: "V8's defaults", flags: [] },
  { label: 'old 512 MB, semi-space 16 MB', flags: ['--max-old-space-size=512', '--max-semi-space-size=16'] },
  { label: 'old 512 MB, semi-space 64 MB (shipped before)', flags: ['--max-old-space-size=512', '--max-semi-space-size=64'] },
  { label: 'old 1024 MB, semi-space 16 MB', flags: ['--max-old-space-size=1024', '--max-semi-space-size=16'] },
  { label: 'old 2048 MB, semi-space 16 MB', flags: ['--max-old-space-size=2048', '--max-semi-space-size=16'] },
];

interface ScreenUnderLoad {
  screen: string;
  rps: number;
  /** The gateway process's CPU (user + system) per successful operation, ms. */
  cpuMsPerOp: number;
  /** JS heap bytes the gateway allocated per successful operation. */
  allocatedKbPerOp: number;
  errors: number;
}

export interface HeapConfigResult extends HeapConfig {
  /** Whether these are the flags `npm start` ships. */
  shipped: boolean;
  screens: ScreenUnderLoad[];
  /** The gateway process's peak RSS over all its screens, MB. */
  peakRssMb: number;
}

/** The screens measured under load (bench/operations.ts names). */
export const LOADED_SCREENS = ['dashboard', 'cards screen (50 cards)', 'fx screen', 'direct debit screen'];

const sameFlags = (a: string[], b: string[]) => [...a].sort().join(' ') === [...b].sort().join(' ');

/** Every candidate (BENCH_HEAP_CONFIGS: `;`-separated flag sets, to try others), with `npm start`'s flags added when they are none of them. */
function heapConfigs(): HeapConfig[] {
  const shipped = startHeapFlags();
  const tried = process.env.BENCH_HEAP_CONFIGS?.split(';').map((flags) => ({ label: flags.trim() || "V8's defaults", flags: flags.trim().split(/\s+/).filter(Boolean) }));
  if (tried) return tried.some((config) => sameFlags(config.flags, shipped)) ? tried : [...tried, { label: 'as shipped', flags: shipped }];
  return HEAP_CONFIGS.some((config) => sameFlags(config.flags, shipped)) ? HEAP_CONFIGS : [...HEAP_CONFIGS, { label: 'as shipped', flags: shipped }];
}

export async function measureHeapConfigs(
  world: Pick<BenchWorld, 'sandboxUrl' | 'webhooks'>,
  screens: BenchOperation[],
  options: { connections: number; seconds: number; progress?: (message: string) => void },
): Promise<HeapConfigResult[]> {
  const shipped = startHeapFlags();
  const configs = heapConfigs();
  // Two rounds, the second in reverse order: what drifts over a run (the sandbox's growing request
  // log, the machine's other work) falls on every configuration alike, not on the last ones.
  const rounds: { screens: ScreenUnderLoad[]; peakRssMb: number }[][] = [[], []];
  for (const [round, order] of [configs, [...configs].reverse()].entries()) {
    for (const config of order) {
      options.progress?.(`heap, round ${round + 1} of 2: ${config.label} (${config.flags.join(' ') || 'no flags'})`);
      rounds[round]![configs.indexOf(config)] = await measureOneConfig(world, config, screens, options);
    }
  }
  return configs.map((config, index) => ({ ...config, shipped: sameFlags(config.flags, shipped), ...meanOfRounds(rounds[0]![index]!, rounds[1]![index]!) }));
}


async function measureOneConfig(
  world: Pick<BenchWorld, 'sandboxUrl' | 'webhooks'>,
  config: HeapConfig,
  screens: BenchOperation[],
  { connections, seconds }: { connections: number; seconds: number },
): Promise<{ screens: ScreenUnderLoad[]; peakRssMb: number }> {
  const gateway = await GatewayProcess.start(world.sandboxUrl, world.webhooks, false, config.flags);
  const load = await LoadGenerator.start(gateway);
  try {
    // Measured as the bare Yoga floor is: the same warm-up, waits, CPU and bytes per operation.
    const measured = await measureScreensCpu(gateway, load, { sandboxUrl: world.sandboxUrl, seconds, connections, operations: screens });
    return {
      screens: measured.map(({ name, rps, cpuMsPerOp, allocatedKbPerOp, errors }) => ({ screen: name, rps, cpuMsPerOp, allocatedKbPerOp, errors })),
      peakRssMb: peakRssMb(gateway.pid),
    };
  } finally {
    await load.close();
    await gateway.close();
  }
}

/** `node bench/heap.ts`: the sweep alone, on a world of its own, printed as a table. */
if (import.meta.main) {
  const { readSettings } = await import('./settings.ts');
  const { OPERATIONS } = await import('./operations.ts');
  const { prepareCardsScreen, startWorld, warmToken } = await import('./setup.ts');
  const settings = readSettings();
  const world = await startWorld(settings.latencyMs);
  try {
    await warmToken(world);
    await prepareCardsScreen(world);
    const screens = OPERATIONS.filter((operation) => LOADED_SCREENS.includes(operation.name));
    const results = await measureHeapConfigs(world, screens, { connections: settings.connections, seconds: settings.seconds, progress: (m) => console.error(m) });
    for (const config of results) {
      console.log(`${config.shipped ? '* ' : '  '}${config.label}: peak RSS ${config.peakRssMb.toFixed(0)} MB`);
      for (const s of config.screens) console.log(`    ${s.screen.padEnd(26)} ${s.rps.toFixed(0).padStart(5)} req/s  ${s.cpuMsPerOp.toFixed(2)} ms CPU/op  ${s.allocatedKbPerOp.toFixed(0)} KB/op  ${s.errors} errors`);
    }
  } finally {
    await world.close();
  }
}
