import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/settings/index.ts';
import { accessSummary, startBanner } from '../../src/start/start-banner.ts';

// Issue 15, point 7: `npm start` as a person meets it. It says where GraphiQL is (and not when it is
// off), a taken port names the variable to change, and SIGTERM to npm stops the gateway it started.

const root = new URL('../../', import.meta.url);

interface Started {
  npm: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function npmStart(env: Record<string, string>): Started {
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  npm.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  npm.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
  return { npm, stdout: () => out, stderr: () => err, exited };
}

/** The `gateway ready` log line, once it is out. */
async function ready(started: Started): Promise<Record<string, any>> {
  let line: Record<string, any> | undefined;
  await expect
    .poll(
      () => {
        line = started
          .stdout()
          .split('\n')
          .filter((text) => text.startsWith('{'))
          .map((text) => JSON.parse(text) as Record<string, any>)
          .find((entry) => entry.msg === 'gateway ready');
        return line !== undefined;
      },
      { timeout: 30_000, interval: 100 },
    )
    .toBe(true);
  return line!;
}

function holdPort(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port }));
  });
}

describe('npm start', () => {
  it('says where GraphiQL and the sandbox are, answers queries, and stops, gateway and all, on SIGTERM to npm', async () => {
    const started = npmStart({ PORT: '0', SANDBOX_PORT: '0', HOST: '127.0.0.1' });
    const line = await ready(started);
    expect(line).toMatchObject({
      graphiql: true,
      url: expect.stringMatching(/^http:\/\/[\w.]+:\d+\/graphql$/),
      sandbox: { controlApi: expect.stringMatching(/\/sandbox\/$/), email: 'treasury@acme.example' },
    });
    const query = () =>
      fetch(line.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ balances { currency } }"}' });
    expect(((await (await query()).json()) as { data: { balances: unknown[] } }).data.balances.length).toBeGreaterThan(0);

    started.npm.kill('SIGTERM');
    expect(await started.exited).toBe(0);
    // Nothing of what npm started is left listening.
    await expect(query()).rejects.toThrow();
    expect(started.stderr()).not.toMatch(/^\s+at /m);
  }, 60_000);

  it('keeps bank reads, and drops them when the sandbox control API changes the data behind the API', async () => {
    const started = npmStart({ PORT: '0', SANDBOX_PORT: '0', HOST: '127.0.0.1' });
    try {
      const line = await ready(started);
      const control = new URL(line.sandbox.controlApi as string);
      const usd = async () => {
        const response = await fetch(line.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"query":"{ balances { currency available { amount } } }"}',
        });
        const { data } = (await response.json()) as { data: { balances: { currency: string; available: { amount: string } }[] } };
        return Number(data.balances.find((b) => b.currency === 'USD')!.available.amount);
      };
      // Balance reads only: the gateway's own webhook subscriptions call the sandbox meanwhile.
      const calls = async () =>
        ((await (await fetch(new URL('requests', control))).json()) as { path: string }[]).filter((call) =>
          call.path.endsWith('/account/balance'),
        ).length;
      const before = await usd();
      const afterFirst = await calls();
      expect(await usd()).toBe(before);
      // The repeat was answered from the cache.
      expect(await calls()).toBe(afterFirst);
      const deposit = await fetch(new URL('deposits', control), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"currency":"USD","amount":1250,"payer_name":"Globex"}',
      });
      expect(deposit.status).toBe(200);
      expect(await usd()).toBe(before + 1250);
    } finally {
      started.npm.kill('SIGTERM');
      await started.exited;
    }
  }, 60_000);

  it('does not advertise GraphiQL when it is off', async () => {
    const started = npmStart({ PORT: '0', SANDBOX_PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production' });
    expect(await ready(started)).toMatchObject({ graphiql: false });
    started.npm.kill('SIGTERM');
    expect(await started.exited).toBe(0);
  }, 60_000);

  it('names the variable to change when a port is taken, without a stack trace', async () => {
    const held = await holdPort();
    try {
      const gateway = npmStart({ PORT: String(held.port), SANDBOX_PORT: '0', HOST: '127.0.0.1' });
      expect(await gateway.exited).toBe(1);
      expect(gateway.stderr()).toContain(`Port ${held.port} is in use by another process: set PORT to another port`);
      const sandbox = npmStart({ PORT: '0', SANDBOX_PORT: String(held.port) });
      expect(await sandbox.exited).toBe(1);
      expect(sandbox.stderr()).toContain(`Port ${held.port} is in use by another process: set SANDBOX_PORT to another port`);
      for (const run of [gateway, sandbox]) expect(`${run.stdout()}${run.stderr()}`).not.toMatch(/^\s+at /m);
    } finally {
      held.server.close();
    }
  }, 60_000);
});

describe('the start banner on a terminal', () => {
  it('says who may do what under each mode', () => {
    // Two keys, two hashes: one hash given twice would be one caller under two names, refused at start.
    const [dashboard, ava] = ['a'.repeat(64), 'b'.repeat(64)];
    expect(
      accessSummary(
        loadConfig({ AUTH_MODE: 'service', GATEWAY_API_KEY_HASHES: `dashboard:${dashboard}:viewer,ava:${ava}:cardholder@chd_demo_ava` })
          .auth,
      ),
    ).toBe('API keys dashboard (viewer), ava (cardholder@chd_demo_ava) (AUTH_MODE=service)');
    expect(
      accessSummary(loadConfig({ AUTH_MODE: 'passthrough', PASSTHROUGH_ROLES: 'viewer', PASSTHROUGH_USER_ROLES: 'ops:treasurer' }).auth),
    ).toBe('callers with a bank token (AUTH_MODE=passthrough); bank users hold viewer, 1 of them roles of their own');
  });

  const sandbox = {
    url: 'http://127.0.0.1:4010',
    credentials: { clientKey: 'sandbox-client-key', clientSecret: 'sandbox-client-secret', email: 'treasury@acme.example' },
  };

  it('gives the GraphiQL address, the sandbox control API and the demo login', () => {
    const text = startBanner({
      url: 'http://localhost:4000/graphql',
      graphiql: true,
      upstream: sandbox.url,
      access: accessSummary(loadConfig({}).auth),
      sandbox,
    });
    expect(text).toContain('GraphiQL      http://localhost:4000/graphql');
    expect(text).toContain('Who may call  everyone, and every caller may do everything (AUTH_MODE=none, embedded sandbox only');
    expect(text).toContain('Sandbox API   http://127.0.0.1:4010/sandbox/');
    expect(text).toContain('email treasury@acme.example');
  });

  it('says GraphiQL is off rather than pointing at it', () => {
    const text = startBanner({ url: 'http://localhost:4000/graphql', graphiql: false, upstream: 'https://bank.example', access: 'x' });
    expect(text).not.toContain('GraphiQL      ');
    expect(text).toContain('GraphiQL is off');
    expect(text).toContain('Bank          https://bank.example');
  });
});
