import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { BareYogaProcess, measureBareYogaCpu } from './bare-yoga.ts';
import { directToken } from './bank-client.ts';
import { GatewayProcess } from './gateway-process.ts';
import { LoadGenerator } from './load.ts';
import { OPERATIONS } from './operations.ts';
import { graphql, prepareCardsScreen, startSandboxProcess, stopSandboxProcess, type BenchWorld } from './setup.ts';
const flagsList = (process.env.FLAGS ?? '--max-old-space-size=512 --max-semi-space-size=64').split(';');
const webhooks = { apiKey: randomBytes(16).toString('hex'), signingSecret: randomBytes(16).toString('hex') };
const { child: sandbox, url: sandboxUrl } = await startSandboxProcess(20, webhooks.signingSecret);
const gateway = await GatewayProcess.start(sandboxUrl, webhooks);
const world = { graphqlUrl: `http://127.0.0.1:${gateway.port}/graphql`, sandboxUrl } as BenchWorld;
await graphql(world, '{ balances { currency } }');
await prepareCardsScreen(world);
await gateway.close();
const load = await LoadGenerator.start();
for (const flags of flagsList) {
  const bare = await BareYogaProcess.start(sandboxUrl, await directToken(sandboxUrl), flags.split(' ').filter(Boolean));
  const r = await measureBareYogaCpu(bare, load, { sandboxUrl, seconds: 5, operations: OPERATIONS.filter((o) => o.name.startsWith('cards screen (')) });
  const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${bare.pid}/status`, 'utf8'))![1];
  console.log(flags, r.map((x) => `${x.name} ${x.rps.toFixed(0)} req/s ${x.cpuMsPerOp.toFixed(2)} ms/op`).join(', '), 'VmHWM', Math.round(Number(hwm) / 1024), 'MB');
  await bare.close();
}
await load.close(); await stopSandboxProcess(sandbox);
