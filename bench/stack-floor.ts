import { fileURLToPath } from 'node:url';
import { BareYogaProcess, checkSameAnswers, floorStart } from './bare-yoga.ts';
import { directToken } from './bank-client.ts';
import { ServerProcess } from './child-process.ts';
import { peakRssMb } from './memory.ts';
import { OPERATIONS } from './operations.ts';
import { INTERLEAVED_ROUNDS, measureInterleaved, medianRun, type Runs } from './interleaved.ts';
import type { ScreenCpu } from './screens-under-load.ts';
import { readSettings } from './settings.ts';
import { prepareCardsScreen, startWorld, warmToken } from './setup.ts';

/**
 * The stack floor: what the libraries the gateway is required to use cost by themselves (graphql-yoga,
 * Pothos with the builder's plugins, dataloader, zod read field by field, undici), answering the
 * benchmark's screens from the same upstream calls (bench/stack-floor-child.ts, in its own process).
 * Between bare Yoga (bench/bare-yoga.ts) and the gateway, it splits the gateway's cost over bare
 * Yoga into what the stack takes and what the gateway's own code takes.
 * `npx node bench/stack-floor.ts` checks its answers and calls against the gateway's, as bare Yoga's
 * are, then measures the three interleaved, and prints the medians per screen.
 */

const CHILD_PATH = fileURLToPath(new URL('./stack-floor-child.ts', import.meta.url));

/** The stack floor's server in its own process (bench/stack-floor-child.ts), asked over IPC. */
export class StackFloorProcess extends ServerProcess {
  /** Started as BareYogaProcess.start is: against `sandboxUrl`, with a bank token of its own, its process run with `nodeFlags`. */
  static async start(sandboxUrl: string, token: string, nodeFlags: string[]): Promise<StackFloorProcess> {
    const { child, port } = await ServerProcess.launch(CHILD_PATH, 'stack floor process', nodeFlags, floorStart(sandboxUrl, token));
    return new StackFloorProcess(child, nodeFlags, port);
  }
}

type ServerName = 'bare' | 'stack' | 'gateway';
const SERVER_NAMES: readonly ServerName[] = ['bare', 'stack', 'gateway'];

/** Per screen: the three's median CPU ms/op and KB/op, and their ratios. */
function table(runs: Runs<ServerName>): string {
  const header = [
    'screen',
    'CPU ms/op bare',
    'stack',
    'gateway',
    'stack/bare',
    'gateway/bare',
    'gateway/stack',
    'KB/op bare',
    'stack',
    'gateway',
    'stack/bare',
    'gateway/bare',
    'gateway/stack',
    'errors',
  ];
  const rows = [...runs].map(([name, screen]) => {
    const medians = Object.fromEntries(SERVER_NAMES.map((server) => [server, medianRun(screen[server])])) as Record<ServerName, ScreenCpu>;
    const of = (pick: (run: ScreenCpu) => number) =>
      Object.fromEntries(SERVER_NAMES.map((server) => [server, pick(medians[server])])) as Record<ServerName, number>;
    const ratios = (m: Record<ServerName, number>) =>
      [m.stack / m.bare, m.gateway / m.bare, m.gateway / m.stack].map((r) => `${r.toFixed(2)}x`);
    const cpu = of((run) => run.cpuMsPerOp);
    const kb = of((run) => run.allocatedKbPerOp);
    const errors = SERVER_NAMES.map((server) => medians[server].errors).join('/');
    return [
      name,
      cpu.bare.toFixed(2),
      cpu.stack.toFixed(2),
      cpu.gateway.toFixed(2),
      ...ratios(cpu),
      kb.bare.toFixed(0),
      kb.stack.toFixed(0),
      kb.gateway.toFixed(0),
      ...ratios(kb),
      errors,
    ];
  });
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
}

async function main(): Promise<void> {
  const settings = readSettings();
  const progress = (message: string) => console.error(`[stack-floor] ${message}`);
  const world = await startWorld(settings.latencyMs);
  let bare: BareYogaProcess | undefined;
  let stack: StackFloorProcess | undefined;
  try {
    await warmToken(world);
    progress(
      `sandbox ${world.sandboxUrl} (latency ${settings.latencyMs} ms), gateway pid ${world.gateway.pid}; issuing the cards screen's cards`,
    );
    await prepareCardsScreen(world);
    const token = await directToken(world.sandboxUrl);
    bare = await BareYogaProcess.start(world.sandboxUrl, token, world.gateway.flags);
    stack = await StackFloorProcess.start(world.sandboxUrl, token, world.gateway.flags);
    progress(`bare Yoga pid ${bare.pid}, stack floor pid ${stack.pid} (${stack.flags.join(' ')})`);
    for (const [floor, name] of [
      [bare, 'bare Yoga'],
      [stack, 'the stack floor'],
    ] as const) {
      const checks = await checkSameAnswers(world.graphqlUrl, floor.graphqlUrl, world.sandboxUrl, OPERATIONS, name);
      progress(
        `${name}: the gateway's answers and calls (${checks.map((c) => `${c.name} ${c.calls} calls, rounds ${c.gatewayRounds}/${c.floorRounds}`).join('; ')})`,
      );
    }
    progress(`c=${settings.connections}, 1 s warm-up + ${settings.seconds} s per screen and server, ${INTERLEAVED_ROUNDS} rounds`);
    const options = {
      sandboxUrl: world.sandboxUrl,
      seconds: settings.seconds,
      connections: settings.connections,
      operations: OPERATIONS,
      progress,
    };
    const runs = await measureInterleaved({ bare, stack, gateway: world.gateway }, world.load, options);
    console.log(`Medians of ${INTERLEAVED_ROUNDS} interleaved rounds at c=${settings.connections} (errors: bare/stack/gateway, summed)\n`);
    console.log(table(runs));
    console.log(
      `\npeak RSS: bare Yoga ${peakRssMb(bare.pid).toFixed(0)} MB, stack floor ${peakRssMb(stack.pid).toFixed(0)} MB, gateway ${peakRssMb(world.gateway.pid).toFixed(0)} MB (the gateway's includes issuing the cards)`,
    );
  } finally {
    await stack?.close();
    await bare?.close();
    await world.close();
  }
}

if (import.meta.main) await main();
