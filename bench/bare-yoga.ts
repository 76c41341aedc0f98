/**
 * `npx node bench/bare-yoga.ts`: the bare Yoga floor alone on a world of its own, its answers and calls
 * checked against the gateway's, then under load with the gateway measured the same way beside it.
 */

import { randomBytes } from 'node:crypto';
import { directToken } from './bank-client.ts';
import { measureBareOneCall, measureFloorCpu } from './bare-yoga-floor.ts';
import { BareYogaProcess, gatewayPoolOptions } from './floor-servers.ts';
import { GatewayProcess } from './gateway-process.ts';
import { LoadGenerator } from './load.ts';
import { peakRssMb } from './memory.ts';
import { bareYogaLines } from './report/floors.ts';
import { checkSameAnswers } from './same-answers.ts';
import { measureScreensCpu, type ScreenCpu } from './screens-under-load.ts';
import { readSettings } from './settings.ts';
import { graphql, prepareCardsScreen, startSandboxProcess, stopSandboxProcess, type BenchWorld } from './setup.ts';

const settings = readSettings();
const progress = (message: string) => console.error(`[bare-yoga] ${message}`);
const webhooks = { apiKey: randomBytes(16).toString('hex'), signingSecret: randomBytes(16).toString('hex') };
const { child: sandbox, url: sandboxUrl } = await startSandboxProcess(settings.latencyMs, webhooks.signingSecret);
let gateway: GatewayProcess | undefined;
let bare: BareYogaProcess | undefined;
let load: LoadGenerator | undefined;
try {
  gateway = await GatewayProcess.start(sandboxUrl, webhooks);
  const { graphqlUrl } = gateway;
  // prepareCardsScreen and graphql read the world's graphqlUrl alone.
  const world = { graphqlUrl, sandboxUrl } as BenchWorld;
  await graphql(world, '{ balances { currency } }');
  progress(`sandbox ${sandboxUrl} (latency ${settings.latencyMs} ms), gateway pid ${gateway.pid}; issuing the cards screen's cards`);
  await prepareCardsScreen(world);
  bare = await BareYogaProcess.start(sandboxUrl, await directToken(sandboxUrl), gateway.flags);
  progress(
    `bare Yoga ${bare.graphqlUrl} (pid ${bare.pid}, ${bare.flags.join(' ')}, pool ${JSON.stringify(gatewayPoolOptions(sandboxUrl))})`,
  );
  const checks = await checkSameAnswers(graphqlUrl, bare.graphqlUrl, sandboxUrl);
  progress(`same answers and calls: ${checks.map((c) => `${c.name} ${c.calls} calls`).join(', ')}`);
  load = await LoadGenerator.start();
  const options = { sandboxUrl, seconds: settings.seconds, connections: settings.connections };
  progress(`bare Yoga under load: c=${options.connections}, 1 s warm-up + ${options.seconds} s per screen`);
  const bareFloor = await measureFloorCpu(bare, load, options);
  let gatewayCpu: ScreenCpu[] | undefined;
  if (process.env.BARE_YOGA_GATEWAY !== 'off') {
    progress('the gateway the same way, for comparison (BARE_YOGA_GATEWAY=off skips it)');
    gatewayCpu = await measureScreensCpu(gateway, load, options);
  }
  const oneCall = await measureBareOneCall(bare, load, options);
  const lines = bareYogaLines({ checks, bare: bareFloor, gateway: gatewayCpu, oneCall, gatewayPeakRssMb: peakRssMb(gateway.pid) });
  for (const line of lines) console.log(line);
} finally {
  await load?.close();
  await bare?.close();
  await gateway?.close();
  await stopSandboxProcess(sandbox);
}
