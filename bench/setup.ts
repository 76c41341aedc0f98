import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { DEMO_CREDENTIALS } from '@banking-gateway/sandbox';
import { EVENT_VERSION } from '@banking-gateway/sandbox/events/catalogue.ts';
import { formatApiTime } from '@banking-gateway/sandbox/time.ts';
import { signatureFor } from '../src/events/intake.ts';
import type { RequestLogEntry } from '@banking-gateway/sandbox';
import { GatewayProcess } from './gateway-process.ts';
import { LoadGenerator } from './load.ts';
import { CARDS_ON_SCREEN, extraCardMutation } from './operations.ts';
import { SubscriberClients } from './subscriber-clients.ts';

/**
 * The benchmark's world, one process each so no figure is another's: the sandbox
 * (`node sandbox/src/main.ts`), the gateway (bench/gateway-child.ts: createGateway as `npm start`
 * wires it, with the start script's heap flags, a real HTTP server on an ephemeral loopback port,
 * silent logger, webhook intake with an API key and a signing secret shared with the sandbox),
 * autocannon, and the subscription clients. This process only times requests and posts webhooks.
 */

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface BenchWorld {
  /** The gateway's process. */
  gateway: GatewayProcess;
  /** http://127.0.0.1:PORT of the gateway. */
  baseUrl: string;
  graphqlUrl: string;
  /** http://127.0.0.1:PORT of the sandbox. */
  sandboxUrl: string;
  /** The sandbox child's pid, for its memory. */
  sandboxPid: number | undefined;
  webhooks: { apiKey: string; signingSecret: string };
  latencyMs: number;
  /** autocannon, in its own process. */
  load: LoadGenerator;
  /** The graphql-ws subscribers, in their own process. */
  subscribers: SubscriberClients;
  close(): Promise<void>;
}

/** Starts `node sandbox/src/main.ts` on an ephemeral port and resolves with its URL once it listens. */
export async function startSandboxProcess(latencyMs: number, signingSecret: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['sandbox/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      SANDBOX_PORT: '0',
      SANDBOX_HOST: '127.0.0.1',
      SANDBOX_LATENCY_MS: String(latencyMs),
      SANDBOX_WEBHOOK_SIGNING_SECRET: signingSecret,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the sandbox did not start within 20 s')), 20_000);
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code} before listening`)));
    lines.on('line', (line) => {
      const found = /listening on (http:\/\/\S+)/.exec(line);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
  });
  // Keep draining its stdout (a full pipe would stall it), without printing routine lines.
  lines.removeAllListeners('line');
  lines.on('line', () => {});
  return { child, url };
}

export async function stopSandboxProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

export async function startWorld(latencyMs: number): Promise<BenchWorld> {
  const webhooks = { apiKey: randomBytes(16).toString('hex'), signingSecret: randomBytes(16).toString('hex') };
  const { child, url: sandboxUrl } = await startSandboxProcess(latencyMs, webhooks.signingSecret);
  let gateway: GatewayProcess | undefined;
  let load: LoadGenerator | undefined;
  let subscribers: SubscriberClients | undefined;
  try {
    gateway = await GatewayProcess.start(sandboxUrl, webhooks);
    load = await LoadGenerator.start(gateway);
    subscribers = await SubscriberClients.start();
    const baseUrl = `http://127.0.0.1:${gateway.port}`;
    const started = gateway;
    return {
      gateway,
      baseUrl,
      graphqlUrl: `${baseUrl}/graphql`,
      sandboxUrl,
      sandboxPid: child.pid,
      webhooks,
      latencyMs,
      load,
      subscribers,
      close: async () => {
        await load?.close();
        await subscribers?.close();
        await started.close();
        await stopSandboxProcess(child);
      },
    };
  } catch (error) {
    await load?.close();
    await subscribers?.close();
    await gateway?.close();
    await stopSandboxProcess(child);
    throw error;
  }
}

/** One GraphQL operation over HTTP; GraphQL errors throw, with the operation's first line. */
export async function graphql<T = Record<string, unknown>>(
  world: Pick<BenchWorld, 'graphqlUrl'>,
  query: string,
  variables?: Record<string, unknown>,
): Promise<T> {
  const response = await request(world.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.body.json()) as { data?: T; errors?: unknown[] };
  if (response.statusCode !== 200 || body.errors || !body.data) {
    throw new Error(`GraphQL ${query.trim().split('\n')[0]} failed: HTTP ${response.statusCode} ${JSON.stringify(body.errors ?? body)}`);
  }
  return body.data;
}

async function control(
  world: Pick<BenchWorld, 'sandboxUrl'>,
  method: 'GET' | 'DELETE' | 'PUT' | 'POST',
  path: string,
  body?: unknown,
): Promise<unknown> {
  const response = await request(`${world.sandboxUrl}/sandbox/${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await response.body.text();
  if (response.statusCode >= 300) throw new Error(`sandbox ${method} /sandbox/${path}: HTTP ${response.statusCode} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Forgets the sandbox's request log, so the next count starts from zero. */
export async function clearUpstreamLog(world: Pick<BenchWorld, 'sandboxUrl'>): Promise<void> {
  await control(world, 'DELETE', 'requests');
}

/** Every upstream call since the last clear (control calls are never logged). */
export async function upstreamLog(world: Pick<BenchWorld, 'sandboxUrl'>): Promise<RequestLogEntry[]> {
  return (await control(world, 'GET', 'requests')) as RequestLogEntry[];
}

/** The sandbox's latency (arrival to answer) of each call, from now on (PUT /sandbox/latency). */
export async function setUpstreamLatency(world: Pick<BenchWorld, 'sandboxUrl'>, ms: number): Promise<void> {
  await control(world, 'PUT', 'latency', { ms });
}

/**
 * Waits until no upstream call is in flight: operations a load run left behind (autocannon closes
 * its connections; the gateway finishes what it started) must not land in the next count.
 */
export async function waitForQuiet(world: Pick<BenchWorld, 'sandboxUrl'>, quietMs = 250, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await clearUpstreamLog(world);
    await new Promise((resolve) => setTimeout(resolve, quietMs));
    if ((await upstreamLog(world)).length === 0) return;
    if (Date.now() > deadline) throw new Error(`upstream calls still arriving after ${timeoutMs} ms`);
  }
}

/** A bank event as Document 3 shows it, signed as the sandbox signs its deliveries (x-api-key, x-timestamp, x-signature). */
export function signedEvent(
  world: Pick<BenchWorld, 'webhooks'>,
  event: { id: string; name: string; data: Record<string, unknown> },
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({
    ...event,
    account_id: DEMO_CREDENTIALS.userId,
    created_at: formatApiTime(Date.now()),
    version: EVENT_VERSION,
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-api-key': world.webhooks.apiKey,
      'x-timestamp': timestamp,
      'x-signature': signatureFor(world.webhooks.signingSecret, timestamp, body),
    },
  };
}

/** The bank credits `amount` USD from outside (POST /sandbox/deposits): the balance moves; its events are the benchmark's to post (depositSettled). */
export async function sandboxDeposit(world: Pick<BenchWorld, 'sandboxUrl'>, amount: number): Promise<void> {
  await control(world, 'POST', 'deposits', { currency: 'USD', amount, payer_name: 'Globex' });
}

/** The deposit.settled event that announces such a deposit, signed for the gateway's POST /webhooks. */
export function depositSettled(
  world: Pick<BenchWorld, 'webhooks'>,
  id: string,
  amount: number,
): { body: string; headers: Record<string, string> } {
  return signedEvent(world, { id, name: 'deposit.settled', data: { amount, currency: 'USD', status: 'SETTLED' } });
}

/** The gateway logs in once, so no measured operation pays for its token. */
export async function warmToken(world: BenchWorld): Promise<void> {
  await graphql(world, '{ balances { currency } }');
}

/** The cards screen shows CARDS_ON_SCREEN cards; the demo has one, so the rest are issued through the gateway. */
export async function prepareCardsScreen(world: BenchWorld): Promise<void> {
  for (let i = 1; i < CARDS_ON_SCREEN; i++) {
    const { query, variables } = extraCardMutation(i);
    const data = await graphql<{ cardCreate: { __typename: string } }>(world, query, variables);
    if (!data.cardCreate.__typename.endsWith('Success')) throw new Error(`card ${i} was not issued: ${data.cardCreate.__typename}`);
  }
}
