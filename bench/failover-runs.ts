/**
 * Redis failovers as an operator sees them: a primary, two replicas and three Sentinels, two gateways
 * as `npm start` runs them, and a bank posting signed events to both; the primary killed, time after time.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { Agent, request } from 'undici';
import { freePort, SentinelSet } from '../test/helpers/redis.ts';
import { startHeapFlags } from './gateway-process.ts';
import { signedEvent } from './setup.ts';

const RUNS = Number(process.env.FAILOVER_RUNS ?? 10);
const EVENT_INTERVAL_MS = 33;
/** How long each gateway is watched after its first 202 for 503s that would say its link flaps. */
const WATCH_AFTER_MS = 6_000;
const DELIVERY_TIMEOUT_MS = 2_000;
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Answer {
  instance: number;
  sentAt: number;
  answeredAt: number;
  status: number;
}

interface LogLine {
  at: number;
  msg: string;
  /** Why Redis was unreachable, or which primary answered when it was back. */
  detail: string;
}

/** One gateway as `npm start` runs it, its JSON log lines kept with when they came. */
class GatewayUnderTest {
  readonly lines: LogLine[] = [];
  readonly child: ChildProcess;
  readonly url: string;
  private constructor(child: ChildProcess, url: string) {
    this.child = child;
    this.url = url;
  }

  static async start(env: Record<string, string>): Promise<GatewayUnderTest> {
    const port = await freePort();
    const child = spawn(process.execPath, ['src/main.ts'], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        SANDBOX_PORT: '0',
        LOG_LEVEL: 'info',
        NODE_OPTIONS: startHeapFlags().join(' '),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const gateway = new GatewayUnderTest(child, `http://127.0.0.1:${port}`);
    const ready = new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`a gateway exited with ${code} before it was ready`)));
      createInterface({ input: child.stdout }).on('line', (line) => {
        const { msg = '', reason, primary } = JSON.parse(line) as { msg?: string; reason?: string; primary?: string };
        gateway.lines.push({ at: Date.now(), msg, detail: reason ?? primary ?? '' });
        if (msg === 'gateway ready') resolve();
      });
    });
    await ready;
    return gateway;
  }

  count(pattern: RegExp, from: number, to: number): number {
    return this.lines.filter((line) => line.at >= from && line.at <= to && pattern.test(line.msg)).length;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGTERM');
    await exited;
  }
}

/** A bank that posts a fresh signed event every EVENT_INTERVAL_MS, to each gateway in turn, and notes every answer. */
function startBank(gateways: GatewayUnderTest[], webhooks: { apiKey: string; signingSecret: string }) {
  const answers: Answer[] = [];
  const dispatcher = new Agent({ connections: 64 });
  let running = true;
  let sent = 0;
  const loop = (async () => {
    while (running) {
      const instance = sent++ % gateways.length;
      const { body, headers } = signedEvent(
        { webhooks },
        { id: `evt_failover_${randomBytes(6).toString('hex')}`, name: 'account.active', data: { status: 'ACTIVE' } },
      );
      const sentAt = Date.now();
      void request(`${gateways[instance]!.url}/webhooks`, {
        method: 'POST',
        headers,
        body,
        dispatcher,
        headersTimeout: DELIVERY_TIMEOUT_MS,
        bodyTimeout: DELIVERY_TIMEOUT_MS,
      })
        .then(async (response) => {
          await response.body.dump();
          answers.push({ instance, sentAt, answeredAt: Date.now(), status: response.statusCode });
        })
        .catch(() => answers.push({ instance, sentAt, answeredAt: Date.now(), status: 0 }));
      await sleep(EVENT_INTERVAL_MS);
    }
  })();
  return {
    answers,
    stop: async () => {
      running = false;
      await loop;
      await dispatcher.close();
    },
  };
}

/** When each Sentinel first announced a promotion and a switch, from their pub/sub channels. */
async function watchSentinels(set: SentinelSet) {
  const seen: { channel: string; at: number; sentinel: number }[] = [];
  const clients = set.sentinels.map(({ host, port }) => new Redis({ host, port, maxRetriesPerRequest: 0 }));
  for (const [sentinel, client] of clients.entries()) {
    client.on('error', () => {});
    await client.subscribe('+promoted-slave', '+switch-master');
    client.on('message', (channel: string) => seen.push({ channel, at: Date.now(), sentinel }));
  }
  return {
    first: (channel: string, after: number) => seen.find((event) => event.channel === channel && event.at >= after)?.at,
    /** Every announcement from `after` on, as lines for FAILOVER_LOG. */
    since: (after: number) =>
      seen.filter((event) => event.at >= after).map((event) => `${event.at - after} ms, Sentinel ${event.sentinel + 1}: ${event.channel}`),
    close: () => clients.forEach((client) => client.disconnect()),
  };
}

export interface FailoverRun {
  promotedMs: number;
  /** Promotion to each gateway's first 202 (or 200). */
  firstAcceptMs: number[];
  killToAcceptMs: number;
  /** 503s (or timeouts) a gateway answered after its first 202. */
  relapses: number;
  back: number[];
  unreachable: number[];
  /** What the gateways logged of Redis from the kill on, with when (FAILOVER_LOG=1 prints it). */
  redisLines: string[];
}

const accepted = (answer: Answer) => answer.status === 202 || answer.status === 200;

async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

async function oneFailover(
  set: SentinelSet,
  gateways: GatewayUnderTest[],
  bank: ReturnType<typeof startBank>,
  sentinels: Awaited<ReturnType<typeof watchSentinels>>,
): Promise<FailoverRun> {
  // Steady first: the last second's deliveries all acknowledged, on both gateways.
  await until(
    'both gateways to accept steadily',
    () => {
      const recent = bank.answers.filter((answer) => answer.sentAt > Date.now() - 1_000);
      return (
        recent.length > 10 && recent.every(accepted) && gateways.every((_, index) => recent.some((answer) => answer.instance === index))
      );
    },
    60_000,
  );
  const victim = await set.currentPrimary();
  const killedAt = Date.now();
  await victim.stop();
  await until('the Sentinels to promote a replica', () => sentinels.first('+promoted-slave', killedAt) !== undefined, 30_000);
  const promotedAt = sentinels.first('+promoted-slave', killedAt)!;
  const firstAccept = (index: number) =>
    bank.answers.find((answer) => answer.instance === index && answer.sentAt > killedAt && accepted(answer));
  await until('both gateways to accept again', () => gateways.every((_, index) => firstAccept(index) !== undefined), 60_000);
  const firsts = gateways.map((_, index) => firstAccept(index)!);
  const lastFirst = Math.max(...firsts.map((answer) => answer.answeredAt));
  await sleep(WATCH_AFTER_MS);
  const watchedTo = Date.now();
  const relapses = bank.answers.filter(
    (answer) => !accepted(answer) && answer.sentAt > firsts[answer.instance]!.answeredAt && answer.sentAt < watchedTo,
  ).length;
  const run: FailoverRun = {
    promotedMs: promotedAt - killedAt,
    firstAcceptMs: firsts.map((answer) => answer.answeredAt - promotedAt),
    killToAcceptMs: lastFirst - killedAt,
    relapses,
    back: gateways.map((gateway) => gateway.count(/^Redis is back/, killedAt, watchedTo)),
    unreachable: gateways.map((gateway) => gateway.count(/^Redis is unreachable/, killedAt, watchedTo)),
    redisLines: gateways
      .flatMap((gateway, index) =>
        gateway.lines
          .filter((line) => line.at >= killedAt && line.at <= watchedTo && /Redis/.test(line.msg))
          .map((line) => `${line.at - killedAt} ms, gateway ${'AB'[index]}: ${line.msg.split(':')[0]} (${line.detail})`),
      )
      .concat(sentinels.since(killedAt))
      .sort((a, b) => parseInt(a) - parseInt(b)),
  };
  await set.rejoin(victim, (await set.currentPrimary()).port, 60_000);
  return run;
}

function busyLoops(count: number): ChildProcess[] {
  return Array.from({ length: count }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

/**
 * FAILOVER_RUNS failovers with `busy` loops (a process spinning a core each) beside them, as on a busy
 * node; after each, the killed node rejoins as a replica before the next. `onRun` hears of each as it ends.
 */
export async function measureFailovers(busy: number, onRun: (run: FailoverRun, index: number) => void): Promise<FailoverRun[]> {
  const webhooks = { apiKey: randomBytes(16).toString('hex'), signingSecret: randomBytes(16).toString('hex') };
  const set = await SentinelSet.start();
  const gateways: GatewayUnderTest[] = [];
  const loops: ChildProcess[] = [];
  try {
    const env = {
      REDIS_SENTINELS: set.sentinels.map(({ host, port }) => `${host}:${port}`).join(','),
      REDIS_SENTINEL_NAME: set.name,
      WEBHOOK_API_KEY: webhooks.apiKey,
      WEBHOOK_SIGNING_SECRET: webhooks.signingSecret,
    };
    for (let n = 0; n < 2; n++) gateways.push(await GatewayUnderTest.start(env));
    const sentinels = await watchSentinels(set);
    const bank = startBank(gateways, webhooks);
    loops.push(...busyLoops(busy));
    const runs: FailoverRun[] = [];
    try {
      for (let n = 0; n < RUNS; n++) {
        const run = await oneFailover(set, gateways, bank, sentinels);
        runs.push(run);
        onRun(run, n);
      }
    } finally {
      await bank.stop();
      sentinels.close();
    }
    return runs;
  } finally {
    for (const loop of loops) loop.kill('SIGKILL');
    for (const gateway of gateways) await gateway.stop();
    await set.stop();
  }
}
