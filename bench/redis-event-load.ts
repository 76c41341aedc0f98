/**
 * What one Redis primary carries of the gateway's event path: N instances' Redis side (src/events/redis-stream.ts)
 * in this process against a redis-server of its own, offered events at rising rates; then PUBLISH, and WAIT with a replica.
 */

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
import { freePort, OwnRedis } from '../test/helpers/redis.ts';
import { summarize, type Summary } from './stats.ts';

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

/** Calls per event of each command since the last CONFIG RESETSTAT, commands run by scripts included, most first. */
async function commandMix(admin: Redis, per: number): Promise<CommandCalls[]> {
  const fields = infoFields(await admin.info('commandstats'));
  return (
    [...fields]
      .map(([key, value]) => ({ name: key.replace(/^cmdstat_/, ''), calls: Number(/calls=(\d+)/.exec(value)?.[1] ?? 0) }))
      // The bench's own (INFO, CONFIG RESETSTAT), and what rounds to nothing per event (ioredis's first EVAL of a script).
      .filter(({ name, calls }) => calls / per >= 0.005 && !['info', 'config', 'ping', 'client', 'select'].includes(name.split('|')[0]!))
      .sort((a, b) => b.calls - a.calls)
      .map(({ name, calls }) => ({ name, perEvent: calls / per }))
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

interface CommandCalls {
  /** `xadd`, `evalsha`... */
  name: string;
  perEvent: number;
}

/** One offered rate on `instances` instances (with `replicas` acknowledging each append, where set). */
export interface AcceptFigures {
  instances: number;
  /** Events offered per second; Infinity: as fast as MAX_IN_FLIGHT allows. */
  rate: number;
  acceptedPerSecond: number;
  /** Redis's commands per second, the scripts' own included. */
  commandsPerSecond: number;
  /** CPU seconds of Redis's main thread per second. */
  redisCpuShare: number;
  redisCpuUsPerEvent: number;
  /** What each event leaves in Redis (its de-duplication key, kept a day), bytes. */
  memoryPerEvent: number;
  /** Each append's answer, ms. */
  append: Summary;
  /** From each append to every instance's read of it, ms. */
  lag: Summary;
  everyInstanceCaughtUp: boolean;
  /** This process's CPU over the phase, % of one core. */
  ownCpuPercent: number;
  commands: CommandCalls[];
}

async function acceptPhase(admin: Redis, instances: Instance[], rate: number, replicas = 0): Promise<AcceptFigures> {
  const before = instances.map((instance) => instance.received);
  for (const instance of instances) instance.lags = [];
  await admin.config('RESETSTAT');
  const redisBefore = await sample(admin);
  const cpuBefore = process.cpuUsage();
  const offered = await offer(instances, rate, replicas);
  const ownCpu = process.cpuUsage(cpuBefore);
  const redisAfter = await sample(admin);
  const commands = await commandMix(admin, offered.accepted);
  const everyInstanceCaughtUp = await caughtUp(instances, before, offered.accepted);
  const redisCpu = redisAfter.cpu - redisBefore.cpu;
  return {
    instances: instances.length,
    rate,
    acceptedPerSecond: offered.accepted / offered.seconds,
    commandsPerSecond: (redisAfter.commands - redisBefore.commands) / offered.seconds,
    redisCpuShare: redisCpu / offered.seconds,
    redisCpuUsPerEvent: (redisCpu * 1e6) / offered.accepted,
    memoryPerEvent: (redisAfter.memory - redisBefore.memory) / offered.accepted,
    append: summarize(offered.answers),
    lag: summarize(instances.flatMap((instance) => instance.lags)),
    everyInstanceCaughtUp,
    ownCpuPercent: (ownCpu.user + ownCpu.system) / 1e4 / offered.seconds,
    commands,
  };
}

export interface PublishFigures {
  listeners: number;
  publishesPerSecond: number;
  /** CPU seconds of Redis's main thread per second. */
  redisCpuShare: number;
  redisCpuUsPerPublish: number;
  /** Messages the listeners received, of `published` × `listeners`. */
  received: number;
  published: number;
}

/** A write's cache invalidation: PUBLISH to the channel every instance listens on (src/events/cache-invalidation.ts). */
async function publishPhase(admin: Redis, url: string, listeners: number): Promise<PublishFigures> {
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
  return {
    listeners,
    publishesPerSecond: published / seconds,
    redisCpuShare: (after.cpu - before.cpu) / seconds,
    redisCpuUsPerPublish: ((after.cpu - before.cpu) * 1e6) / published,
    received,
    published,
  };
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

export interface RedisCapacity {
  /** When the run started (ISO), and the redis-server's version. */
  started: string;
  version: string | undefined;
  secondsPerRow: number;
  /** Each instance count at each rate (REDIS_BENCH_INSTANCES × REDIS_BENCH_RATES). */
  accept: AcceptFigures[];
  publish: PublishFigures[];
  /** The first instance count as fast as it goes, WAITing for 0 replicas then 1 after each append. */
  replicas: { acknowledged: number; figures: AcceptFigures }[];
}

export async function measureRedisCapacity(): Promise<RedisCapacity> {
  const redis = new OwnRedis(await freePort());
  await redis.start();
  const admin = new Redis(redis.url);
  const version = infoFields(await admin.info('server')).get('redis_version');
  const started = new Date().toISOString();
  const accept: AcceptFigures[] = [];
  const publish: PublishFigures[] = [];
  const replicas: RedisCapacity['replicas'] = [];
  try {
    for (const count of INSTANCES) {
      await withInstances(redis.url, count, async (instances) => {
        for (const rate of RATES) accept.push(await acceptPhase(admin, instances, rate));
      });
      publish.push(await publishPhase(admin, redis.url, count));
    }
    const replica = await startReplica(redis.port);
    try {
      await withInstances(redis.url, INSTANCES[0]!, async (instances) => {
        for (const acknowledged of [0, 1])
          replicas.push({ acknowledged, figures: await acceptPhase(admin, instances, Infinity, acknowledged) });
      });
    } finally {
      await stopChild(replica.child);
      rmSync(replica.dir, { recursive: true, force: true });
    }
  } finally {
    admin.disconnect();
    await redis.stop();
  }
  return { started, version, secondsPerRow: SECONDS, accept, publish, replicas };
}
