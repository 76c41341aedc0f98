import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/redis.ts';

/**
 * `npm run example:supergraph` as a new user runs it (docs/federation.md): the banking gateway as
 * `npm start` runs it, the CRM subgraph and the Hive Gateway CLI with the example's configuration,
 * on ports of the test's own. Through the router, a query joins the CRM with the bank's records;
 * a stop ends the three.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the supergraph example', () => {
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  it('starts the three with one command, and the router joins the CRM with the bank', { timeout: 90_000 }, async () => {
    const ports = {
      ROUTER_PORT: await freePort(),
      BANK_PORT: await freePort(),
      CRM_PORT: await freePort(),
      SANDBOX_PORT: await freePort(),
    };
    child = spawn(process.execPath, ['examples/supergraph/run.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      child!.once('exit', (code) => reject(new Error(`the example exited with ${code}: ${output.join('')}`)));
      createInterface({ input: child!.stdout! }).on('line', (line) => {
        output.push(line);
        if (line.startsWith('The supergraph:')) resolve();
      });
    });
    const response = await fetch(`http://localhost:${ports.ROUTER_PORT}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: '{ dealPayouts { upstreamId status } beneficiaries(first: 10) { nodes { upstreamId relationshipManager { name } } } }',
      }),
    });
    const body = (await response.json()) as {
      data: {
        dealPayouts: { upstreamId: string; status: string }[];
        beneficiaries: { nodes: { upstreamId: string; relationshipManager: { name: string } | null }[] };
      };
    };
    expect(body.data.dealPayouts).toEqual([{ upstreamId: 'pay_demo_1', status: 'PENDING' }]);
    expect(body.data.beneficiaries.nodes.find((node) => node.upstreamId === 'ben_demo_us')?.relationshipManager).toEqual({
      name: 'Maya Chen',
    });
    // The bank's subgraph answers _entities to the router alone.
    const direct = await fetch(`http://localhost:${ports.BANK_PORT}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ _service { sdl } }' }),
    });
    expect(((await direct.json()) as { errors: { extensions: { code: string } }[] }).errors.map((error) => error.extensions.code)).toEqual([
      'ROUTER_ONLY',
    ]);
    child.kill('SIGTERM');
    expect((await once(child, 'exit'))[0]).toBe(0);
    // Every port is free again: the three stopped with it.
    for (const port of Object.values(ports))
      await expect(
        fetch(`http://localhost:${port}/`).then(
          () => 'answered',
          () => 'closed',
        ),
      ).resolves.toBe('closed');
  });
});
