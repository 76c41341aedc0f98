/**
 * `npx node bench/stack-floor.ts`: the stack floor's answers and calls checked against the gateway's,
 * then bare Yoga, the stack floor and the gateway in interleaved rounds on every screen, their medians printed.
 */

import { directToken } from './bank-client.ts';
import { BareYogaProcess, StackFloorProcess } from './floor-servers.ts';
import { INTERLEAVED_ROUNDS, measureInterleaved, medianRun, type Compared } from './interleaved.ts';
import { peakRssMb } from './memory.ts';
import { OPERATIONS } from './operations.ts';
import { stackFloorLines } from './report/floors.ts';
import { checkSameAnswers } from './same-answers.ts';
import type { ScreenCpu } from './screens-under-load.ts';
import { readSettings } from './settings.ts';
import { prepareCardsScreen, startWorld, warmToken } from './setup.ts';

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
  const servers = { bare, stack, gateway: world.gateway };
  const runs = await measureInterleaved(servers, world.load, options);
  const screens = [...runs].map(([name, screen]): [string, Record<Compared, ScreenCpu>] => [
    name,
    { bare: medianRun(screen.bare), stack: medianRun(screen.stack), gateway: medianRun(screen.gateway) },
  ]);
  const peak = { bare: peakRssMb(bare.pid), stack: peakRssMb(stack.pid), gateway: peakRssMb(world.gateway.pid) };
  const lines = stackFloorLines({ rounds: INTERLEAVED_ROUNDS, connections: settings.connections, screens, peakRssMb: peak });
  for (const line of lines) console.log(line);
} finally {
  await stack?.close();
  await bare?.close();
  await world.close();
}
