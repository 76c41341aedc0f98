import { randomUUID } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { DEFAULT_EVENT_LOG } from '../src/settings/index.ts';
import type { AcceptedEvent } from '../src/events/log.ts';
import { createRedisStream } from '../src/events/redis-stream.ts';
import { createLogger } from '../src/platform/logger.ts';
import { freePort, OwnRedis } from '../test/redis.ts';
import { summarize, table } from './stats.ts';

/**
 * What one Redis primary carries of the gateway's event path, measured rather than guessed
 * (docs/deployment.md, "Capacity"): `npx node bench/redis-capacity.ts`.
 *
 * A redis-server of its own on a free port (started and stopped by its PID; never the shared one),
 * and N gateway instances' Redis side in this process, each with the two connections and the stream
 * code of src/events/redis-stream.ts: the accepting instance runs the accept script (SET NX, XADD,
 * XLEN, the trim) for each event, every instance reads the stream with XREAD BLOCK. Deliveries are
 * spread over the instances as a load balancer spreads the bank's. At each offered rate: the events
 * accepted per second, Redis's commands per second, the CPU of Redis's main thread (INFO cpu) and
 * per event, the memory each event leaves (its de-duplication key, kept a day), and the lag from
 * the append to the last instance's read. Then the writes' cache invalidation (PUBLISH to every
 * instance's listener), and the accept with one replica and WAIT (REDIS_MIN_REPLICAS_ACK=1).
 *
 * Redis runs one command at a time on one thread: the events per second one core of it would carry
 * is 1 / (its CPU per event), printed beside each row. This process and Redis share the machine;
 * when this process's CPU reaches a core before Redis's does, the row says so, and the ceiling is
 * the extrapolated figure. REDIS_BENCH_SECONDS (default 5), REDIS_BENCH_INSTANCES (default
 * "2,8,32") and REDIS_BENCH_RATES (events/s, default "500,1000,2000,4000,max") tune it.
 */

const SECONDS = Number(process.env.REDIS_BENCH_SECONDS ?? 5);
const INSTANCES = (process.env.REDIS_BENCH_INSTANCES ?? '2,8,32').split(',').map(Number);
const RATES = (process.env.REDIS_BENCH_RATES ?? '500,1000,2000,4000,max')
  .split(',')
  .map((rate) => (rate === 'max' ? Infinity : Number(rate)));
/** Deliveries being answered at once, across the instances (the intake bench posts 64 at once). */
const MAX_IN_FLIGHT = 128;
const TICK_MS = 5;
const CATCH_UP_MS = 15_000;
const REPLICA_ACK_TIMEOUT_MS = 500;
const logger = createLogger('silent');

for (const [name, values] of [
  ['REDIS_BENCH_INSTANCES', INSTANCES],
  ['REDIS_BENCH_RATES', RATES],
] as const) {
  if (values.some((value) => !(value > 0))) throw new Error(`${name} must list positive numbers (or max)`);
}
if (!(SECONDS >= 1 && SECONDS <= 60)) throw new Error('REDIS_BENCH_SECONDS must be from 1 to 60');

/** A bank event as the intake accepts it: a payout's status change, about 700 bytes as JSON. */
function sampleEvent(): AcceptedEvent {
  const id = randomUUID();
  return {
    id,
    name: 'payout.status_changed',
    accountId: randomUUID(),
    createdAt: new Date().toISOString(),
    version: '1',
    kind: 'other',
    details: null,
    receivedAt: new Date().toISOString(),
    occurrence: id,
    data: {
      payout_id: id,
      status: 'COMPLETED',
      previous_status: 'PROCESSING',
      amount: '12500.00',
      currency: 'USD',
      beneficiary_id: randomUUID(),
      reference: 'Invoice 2026-11-0421 settlement',
      reason: null,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
      fee: { amount: '4.50', currency: 'USD' },
      rails: 'SWIFT',
      payment_reference: `PR${id.slice(0, 12).toUpperCase()}`,
    },
  };
}

// --- Redis's own figures ----------------------------------------------------------------------

function infoFields(text: string): Map<string, string> {
  return new Map(
    text
      .split('\r\n')
      .filter((line) => line.includes(':'))
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)] as [string, string]),
  );
}

interface RedisSample {
  /** CPU seconds of Redis's main thread (the one that runs commands). */
  cpu: number;
  commands: number;
  memory: number;
}

async function sample(admin: Redis): Promise<RedisSample> {
  const fields = infoFields(await admin.info('all'));
  const number = (name: string) => Number(fields.get(name) ?? Number.NaN);
  const main = number('used_cpu_sys_main_thread') + number('used_cpu_user_main_thread');
  return {
    cpu: Number.isFinite(main) ? main : number('used_cpu_sys') + number('used_cpu_user'),
    commands: number('total_commands_processed'),
    memory: number('used_memory'),
  };
}

/** Calls per command since the last CONFIG RESETSTAT, commands run by scripts included (`xadd 1.00`). */
async function commandMix(admin: Redis, per: number): Promise<string> {
  const fields = infoFields(await admin.info('commandstats'));
  return (
    [...fields]
      .map(([key, value]) => ({ name: key.replace(/^cmdstat_/, ''), calls: Number(/calls=(\d+)/.exec(value)?.[1] ?? 0) }))
      // The bench's own (INFO, CONFIG RESETSTAT), and what rounds to nothing per event (ioredis's first EVAL of a script).
      .filter(({ name, calls }) => calls / per >= 0.005 && !['info', 'config', 'ping', 'client', 'select'].includes(name.split('|')[0]!))
      .sort((a, b) => b.calls - a.calls)
      .map(({ name, calls }) => `${name} ${(calls / per).toFixed(2)}`)
      .join(', ')
  );
}

// --- The gateway's instances -----------------------------------------------------------------

interface Instance {
  commands: Redis;
  reader: Redis;
  stream: ReturnType<typeof createRedisStream>;
  received: number;
  /** From each entry's append (its id's time) to this instance's read, ms. */
  lags: number[];
  stop: boolean;
  loop: Promise<void>;
}

async function startInstance(url: string, keyPrefix: string): Promise<Instance> {
  const commands = new Redis(url, { lazyConnect: true });
  const reader = new Redis(url, { lazyConnect: true });
  await Promise.all([commands.connect(), reader.connect()]);
  const stream = createRedisStream({ commands, reader, keyPrefix, instance: randomUUID().slice(0, 12), limits: DEFAULT_EVENT_LOG, logger });
  const instance: Instance = { commands, reader, stream, received: 0, lags: [], stop: false, loop: Promise.resolve() };
  let after = await stream.end();
  instance.loop = (async () => {
    while (!instance.stop) {
      const entries = await stream.read(after);
      const now = Date.now();
      for (const entry of entries) {
        after = entry.id;
        instance.received += 1;
        instance.lags.push(now - Number(entry.id.split('-')[0]));
      }
    }
  })().catch((error: unknown) => {
    // Stopping ends the blocking read by closing its connection; any other failure is the run's.
    if (!instance.stop) throw error;
  });
  return instance;
}

async function stopInstances(instances: Instance[]): Promise<void> {
  for (const instance of instances) instance.stop = true;
  // The blocking reads end with their connections.
  for (const instance of instances) {
    instance.reader.disconnect();
    await instance.commands.quit();
  }
  await Promise.allSettled(instances.map((instance) => instance.loop));
}

// --- Offering events at a rate ---------------------------------------------------------------

interface Offered {
  accepted: number;
  answers: number[];
  seconds: number;
}

/** Events at `rate` per second (Infinity: as fast as MAX_IN_FLIGHT allows), each after its append (and WAIT, with `replicas`). */
async function offer(instances: Instance[], rate: number, replicas = 0): Promise<Offered> {
  let issued = 0;
  let inFlight = 0;
  let accepted = 0;
  const answers: number[] = [];
  const started = performance.now();
  const deliver = async (instance: Instance) => {
    const at = performance.now();
    const id = await instance.stream.append(sampleEvent(), `bench:${randomUUID()}`);
    if (replicas > 0) await instance.commands.wait(replicas, REPLICA_ACK_TIMEOUT_MS);
    answers.push(performance.now() - at);
    if (id !== null) accepted += 1;
  };
  const running = () => performance.now() - started < SECONDS * 1000;
  // Paced: what is due by now, on every tick. Unpaced: a delivery answered makes room for the next at once.
  const pump = () => {
    const due = Number.isFinite(rate) ? Math.floor((rate * (performance.now() - started)) / 1000) - issued : Infinity;
    for (let n = 0; n < due && inFlight < MAX_IN_FLIGHT && running(); n += 1) {
      const instance = instances[issued % instances.length]!;
      issued += 1;
      inFlight += 1;
      void deliver(instance).finally(() => {
        inFlight -= 1;
        if (!Number.isFinite(rate)) pump();
      });
    }
  };
  while (running()) {
    pump();
    await sleep(TICK_MS);
  }
  while (inFlight > 0) await sleep(TICK_MS);
  return { accepted, answers, seconds: (performance.now() - started) / 1000 };
}

/** Whether every instance read the `accepted` events appended since it had read `before[i]`. */
async function caughtUp(instances: Instance[], before: number[], accepted: number): Promise<boolean> {
  const until = performance.now() + CATCH_UP_MS;
  while (instances.some((instance, i) => instance.received - before[i]! < accepted)) {
    if (performance.now() > until) return false;
    await sleep(20);
  }
  return true;
}

// --- Phases ----------------------------------------------------------------------------------

const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

async function acceptPhase(admin: Redis, instances: Instance[], rate: number, replicas = 0): Promise<string[]> {
  const before = instances.map((instance) => instance.received);
  for (const instance of instances) instance.lags = [];
  await admin.config('RESETSTAT');
  const redisBefore = await sample(admin);
  const cpuBefore = process.cpuUsage();
  const offered = await offer(instances, rate, replicas);
  const ownCpu = process.cpuUsage(cpuBefore);
  const redisAfter = await sample(admin);
  const mix = await commandMix(admin, offered.accepted);
  const all = await caughtUp(instances, before, offered.accepted);
  const redisCpu = redisAfter.cpu - redisBefore.cpu;
  const perEventUs = (redisCpu * 1e6) / offered.accepted;
  const ownBusy = (ownCpu.user + ownCpu.system) / 1e4 / offered.seconds;
  const answer = summarize(offered.answers);
  const lag = summarize(instances.flatMap((instance) => instance.lags));
  return [
    String(instances.length),
    Number.isFinite(rate) ? String(rate) : 'max',
    fixed(offered.accepted / offered.seconds),
    fixed((redisAfter.commands - redisBefore.commands) / offered.seconds),
    `${fixed((redisCpu / offered.seconds) * 100)} %`,
    fixed(perEventUs, 1),
    fixed(1e6 / perEventUs),
    fixed((redisAfter.memory - redisBefore.memory) / offered.accepted),
    `${fixed(answer.p50, 2)} / ${fixed(answer.p99, 2)}`,
    `${fixed(lag.p50, 0)} / ${fixed(lag.p99, 0)}${all ? '' : ' (not every instance caught up)'}`,
    `${fixed(ownBusy)} %`,
    mix,
  ];
}

const ACCEPT_HEADER = [
  'instances',
  'offered events/s',
  'accepted events/s',
  "Redis commands/s (scripts' included)",
  'Redis main thread CPU',
  'Redis CPU µs / event',
  'events/s at one Redis core',
  'memory / event (bytes, kept a day)',
  'append p50 / p99 ms',
  'append → every instance read p50 / p99 ms',
  "this process's CPU",
  'calls per event (scripts\u2019 commands included)',
];

/** A write's cache invalidation: PUBLISH to the channel every instance listens on (src/events/cache-invalidation.ts). */
async function publishPhase(admin: Redis, url: string, listeners: number): Promise<string[]> {
  const channel = `bench-redis-capacity-${randomUUID()}:cache-invalidations`;
  const subscribers = await Promise.all(
    Array.from({ length: listeners }, async () => {
      const client = new Redis(url);
      await client.subscribe(channel);
      return client;
    }),
  );
  let received = 0;
  for (const client of subscribers) client.on('message', () => (received += 1));
  const publisher = new Redis(url);
  const message = JSON.stringify({ instance: randomUUID().slice(0, 12), kinds: ['payouts', 'balances', 'accounts'] });
  await admin.config('RESETSTAT');
  const before = await sample(admin);
  const started = performance.now();
  let published = 0;
  let inFlight = 0;
  while (performance.now() - started < SECONDS * 1000) {
    while (inFlight < MAX_IN_FLIGHT) {
      inFlight += 1;
      void publisher.publish(channel, message).finally(() => {
        inFlight -= 1;
        published += 1;
      });
    }
    await sleep(1);
  }
  while (inFlight > 0) await sleep(TICK_MS);
  const seconds = (performance.now() - started) / 1000;
  const after = await sample(admin);
  await sleep(500);
  for (const client of [...subscribers, publisher]) client.disconnect();
  const perPublishUs = ((after.cpu - before.cpu) * 1e6) / published;
  return [
    String(listeners),
    fixed(published / seconds),
    `${fixed(((after.cpu - before.cpu) / seconds) * 100)} %`,
    fixed(perPublishUs, 1),
    fixed(1e6 / perPublishUs),
    `${received} of ${published * listeners}`,
  ];
}

// --- Redis of its own, and a replica --------------------------------------------------------

/** A replica of the primary; it writes the copy it syncs from to a file, in a directory of its own. */
async function startReplica(primaryPort: number): Promise<{ child: ChildProcess; dir: string }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'redis-capacity-'));
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
      '--replicaof',
      '127.0.0.1',
      String(primaryPort),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('MASTER <-> REPLICA sync: Finished with success')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the replica exited with ${code}: ${output}`)));
  });
  return { child, dir };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(child.pid!, 'SIGKILL');
  await exited;
}

async function withInstances<T>(url: string, count: number, run: (instances: Instance[]) => Promise<T>): Promise<T> {
  const prefix = `bench-redis-capacity-${randomUUID()}`;
  const instances = await Promise.all(Array.from({ length: count }, () => startInstance(url, prefix)));
  try {
    return await run(instances);
  } finally {
    await stopInstances(instances);
  }
}

async function main(): Promise<void> {
  const redis = new OwnRedis(await freePort());
  await redis.start();
  const admin = new Redis(redis.url);
  const version = infoFields(await admin.info('server')).get('redis_version');
  const started = new Date().toISOString();
  const acceptRows: string[][] = [];
  const publishRows: string[][] = [];
  const replicaRows: string[][] = [];
  try {
    for (const count of INSTANCES) {
      await withInstances(redis.url, count, async (instances) => {
        for (const rate of RATES) acceptRows.push(await acceptPhase(admin, instances, rate));
      });
      publishRows.push(await publishPhase(admin, redis.url, count));
    }
    const replica = await startReplica(redis.port);
    try {
      const count = INSTANCES[0]!;
      await withInstances(redis.url, count, async (instances) => {
        for (const replicas of [0, 1]) replicaRows.push([`${replicas}`, ...(await acceptPhase(admin, instances, Infinity, replicas))]);
      });
    } finally {
      await stopChild(replica.child);
      rmSync(replica.dir, { recursive: true, force: true });
    }
  } finally {
    admin.disconnect();
    await redis.stop();
  }
  process.stdout.write(
    [
      `Redis capacity (bench/redis-capacity.ts), ${started}; Redis ${version}, Node ${process.version}, ${SECONDS} s per row.`,
      '',
      'The event path: the accept script per event, every instance reading the stream.',
      '',
      table(ACCEPT_HEADER, acceptRows),
      '',
      "A write's cache invalidation: PUBLISH to every instance's listener, as fast as it goes.",
      '',
      table(
        [
          'listening instances',
          'publishes/s',
          'Redis main thread CPU',
          'Redis CPU µs / publish',
          'publishes/s at one Redis core',
          'messages received',
        ],
        publishRows,
      ),
      '',
      `The accept with a replica attached, at the highest rate, WAIT for that many replicas after each append (${INSTANCES[0]} instances).`,
      '',
      table(['replicas acknowledged (WAIT)', ...ACCEPT_HEADER], replicaRows),
      '',
    ].join('\n'),
  );
}

await main();
