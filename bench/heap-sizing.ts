/**
 * Heap sizing, measured rather than guessed: the same screens at c=50 through a gateway process per
 * V8 heap configuration, measured in interleaved rounds (interleaved.ts); `npm start`'s flags among them.
 */

import { GatewayProcess, startHeapFlags } from './gateway-process.ts';
import { measureInterleaved, medianRun } from './interleaved.ts';
import { peakRssMb } from './memory.ts';
import type { BenchOperation } from './operations.ts';
import type { BenchWorld } from './setup.ts';

/** Rounds of the sweep: each is every screen on every configuration. */
const HEAP_ROUNDS = 2;

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
  const tried = process.env.BENCH_HEAP_CONFIGS?.split(';').map((flags) => ({
    label: flags.trim() || "V8's defaults",
    flags: flags.trim().split(/\s+/).filter(Boolean),
  }));
  if (tried) return tried.some((config) => sameFlags(config.flags, shipped)) ? tried : [...tried, { label: 'as shipped', flags: shipped }];
  return HEAP_CONFIGS.some((config) => sameFlags(config.flags, shipped))
    ? HEAP_CONFIGS
    : [...HEAP_CONFIGS, { label: 'as shipped', flags: shipped }];
}

/**
 * One process per configuration, so each peak RSS (VmHWM) is that configuration's alone; all started
 * together on the same sandbox, so the host's drift over minutes falls on every one alike. Per screen
 * the medians of the rounds: throughput, CPU and bytes allocated per operation.
 */
export async function measureHeapConfigs(
  world: Pick<BenchWorld, 'sandboxUrl' | 'webhooks' | 'load'>,
  screens: BenchOperation[],
  options: { connections: number; seconds: number; progress?: (message: string) => void },
): Promise<HeapConfigResult[]> {
  const shipped = startHeapFlags();
  const configs = heapConfigs();
  const gateways: GatewayProcess[] = [];
  try {
    for (const config of configs) gateways.push(await GatewayProcess.start(world.sandboxUrl, world.webhooks, false, config.flags));
    options.progress?.(`heap: ${configs.length} configurations, ${HEAP_ROUNDS} interleaved rounds`);
    const servers = Object.fromEntries(gateways.map((gateway, i) => [String(i), gateway]));
    const runs = await measureInterleaved(servers, world.load, {
      ...options,
      sandboxUrl: world.sandboxUrl,
      operations: screens,
      rounds: HEAP_ROUNDS,
    });
    return configs.map((config, i) => ({
      ...config,
      shipped: sameFlags(config.flags, shipped),
      screens: [...runs.values()].map((screen) => {
        const { name, rps, cpuMsPerOp, allocatedKbPerOp, errors } = medianRun(screen[String(i)]!);
        return { screen: name, rps, cpuMsPerOp, allocatedKbPerOp, errors };
      }),
      peakRssMb: peakRssMb(gateways[i]!.pid),
    }));
  } finally {
    await Promise.all(gateways.map((gateway) => gateway.close()));
  }
}
