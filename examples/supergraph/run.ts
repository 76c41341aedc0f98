import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { composeSupergraph, subgraphSdl } from './compose.ts';
import { crmYoga } from './crm.ts';

/**
 * `npm run example:supergraph`: the three of a company's supergraph on this machine.
 * - the banking gateway as `npm start` runs it (its embedded sandbox), as a Federation 2 subgraph
 *   (FEDERATION_SUBGRAPH=true) that answers `_entities` to the router alone (FEDERATION_ROUTER_TOKEN);
 * - the CRM subgraph (crm.ts);
 * - Hive Gateway (`hive-gateway supergraph`, configured by gateway.config.ts) on the supergraph
 *   composed from both (compose.ts, written to supergraph.graphql).
 * Ports: ROUTER_PORT (4100), BANK_PORT (4000), CRM_PORT (4001), SANDBOX_PORT (4010).
 */

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const ports = {
  router: port('ROUTER_PORT', 4100),
  bank: port('BANK_PORT', 4000),
  crm: port('CRM_PORT', 4001),
  sandbox: port('SANDBOX_PORT', 4010),
};
const routerToken = process.env.FEDERATION_ROUTER_TOKEN ?? randomBytes(24).toString('base64url');
const children: ChildProcess[] = [];

/** Starts a process and resolves once a line of its output passes `ready`; its output goes on to ours. */
function start(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
  what: string,
  ready: (line: string) => boolean,
): Promise<void> {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code} before it was ready`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      process.stdout.write(`[${what}] ${line}\n`);
      if (ready(line)) resolve();
    });
  });
}

/** Stops the three and resolves once every one has exited: the command ends after its servers, never before. */
async function stop(): Promise<void> {
  const exits = children.filter((child) => child.exitCode === null && child.signalCode === null).map((child) => once(child, 'exit'));
  for (const child of children) child.kill('SIGTERM');
  const closed = new Promise((resolve) => crm.close(resolve));
  crm.closeAllConnections();
  await Promise.all([...exits, closed]);
}

const crm = createServer((req, res) => void crmYoga.handle(req, res));
try {
  await start(
    process.execPath,
    ['src/main.ts'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(ports.bank),
        SANDBOX_PORT: String(ports.sandbox),
        FEDERATION_SUBGRAPH: 'true',
        FEDERATION_ROUTER_TOKEN: routerToken,
      },
    },
    'bank',
    (line) => line.includes('gateway ready'),
  );
  await new Promise<void>((resolve) => crm.listen(ports.crm, resolve));
  const bankUrl = `http://localhost:${ports.bank}/graphql`;
  const crmUrl = `http://localhost:${ports.crm}/graphql`;
  const supergraph = composeSupergraph([
    { name: 'bank', url: bankUrl, sdl: await subgraphSdl(bankUrl, { 'x-router-token': routerToken }) },
    { name: 'crm', url: crmUrl, sdl: await subgraphSdl(crmUrl) },
  ]);
  writeFileSync(`${HERE}supergraph.graphql`, supergraph);
  const hiveGateway = createRequire(import.meta.url)
    .resolve('@graphql-hive/gateway/package.json')
    .replace(/package\.json$/, 'dist/bin.js');
  await start(
    process.execPath,
    [hiveGateway, 'supergraph', 'supergraph.graphql', '--port', String(ports.router)],
    { cwd: HERE, env: { ...process.env, FEDERATION_ROUTER_TOKEN: routerToken } },
    'hive-gateway',
    (line) => /listening|Serving/i.test(line),
  );
  process.stdout.write(
    [
      '',
      `The supergraph: http://localhost:${ports.router}/graphql (Hive Gateway), composed from`,
      `  bank  ${bankUrl} (the banking gateway as a subgraph; its sandbox at http://localhost:${ports.sandbox})`,
      `  crm   ${crmUrl}`,
      'Try: { dealPayouts { upstreamId status reference } beneficiaries(first: 5) { nodes { nickname relationshipManager { name } } } }',
      '',
    ].join('\n'),
  );
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  await stop();
  process.exit(1);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop().then(() => process.exit(0)));
