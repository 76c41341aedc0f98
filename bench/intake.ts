import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { Agent, request } from 'undici';
import type { EventDurability } from '../src/settings/index.ts';
import type { Gateway } from '../src/gateway.ts';
import { answerRequests, BenchChild } from './child-process.ts';
import { startHeapFlags } from './gateway-process.ts';
import { readSettings } from './settings.ts';
import { signedEvent, startSandboxProcess, stopSandboxProcess, type BenchWorld } from './setup.ts';
import { ms, summarize, verdict, type Summary } from './stats.ts';
import { absoluteNow, SubscriberClients } from './subscriber-clients.ts';
import { freePort, OwnRedis } from '../test/redis.ts';

/**
 * The webhook intake under a flood, with Redis: `concurrency` signed deliveries of distinct events
 * posted at once, wave after wave (the next once all of a wave are answered), each timed from its
 * POST to its answer (the bank's retry clock starts when it gives up waiting). Meanwhile the
 * gateway serves the benchmark's graphql-ws subscribers on `bankEvents` (the subscribers' process):
 * handing each event to all of them is what competes with the intake for the gateway's one thread,
 * and their receipts show that every event reached every one of them exactly once.
 *
 * The gateway is a process of its own: this file, forked in its gateway role, wires createGateway
 * as `npm start` does with REDIS_URL, on a key prefix of its own (the stream and the seen set of no
 * other run, removed afterwards). Not a mode of the benchmark's main gateway: that one has no Redis
 * (its bus is chosen when it is built), and giving it Redis would change every other figure; the
 * record cache phase starts a second gateway the same way. BENCH_GATEWAY_NODE_OPTIONS reaches this
 * gateway too: `--cpu-prof --cpu-prof-dir=DIR` profiles its flood.
 *
 * Then what the replicas' acknowledgement costs (REDIS_MIN_REPLICAS_ACK): a primary and a replica of
 * the benchmark's own (redis-server on free loopback ports, stopped by their PIDs), the same flood
 * (fewer waves and subscribers) without and with the acknowledgement, answer times compared.
 */

const INTAKE_TARGET_P99_MS = 500;
export const FLOOD_CONCURRENCY = 64;
const FLOOD_WAVES = 20;
const FLOOD_SUBSCRIBERS = 1_000;
/** One wave first, not timed: connections opened, code compiled (its events are checked like the rest). */
const WARMUP_WAVES = 1;
/** The fan-out may still run after the last answer: the wait for receipts ends once none came for this long. */
const DELIVERY_STALL_MS = 10_000;
const REGISTER_TIMEOUT_MS = 30_000;
const GATEWAY_ROLE = 'BENCH_INTAKE_ROLE';
const SELF_PATH = fileURLToPath(import.meta.url);

export interface IntakeFloodOptions {
  concurrency: number;
  waves: number;
  /** graphql-ws subscribers on `bankEvents` (the benchmark's BENCH_SUBSCRIBERS). */
  subscribers: number;
  redisUrl: string;
  /** The replicas' acknowledgement asked of every event (default none). */
  durability?: EventDurability;
}

/** The same flood on a primary with one replica, without and with REDIS_MIN_REPLICAS_ACK=1. */
interface ReplicaAckCost {
  timeoutMs: number;
  subscribers: number;
  without: Summary;
  with: Summary;
  /** Answers by HTTP status with the acknowledgement: every one should be 202. */
  statuses: Record<number, number>;
}

export interface IntakeFloodResult {
  concurrency: number;
  waves: number;
  /** From each timed POST issued to its answer read, ms. */
  answer: Summary;
  /** Answers by HTTP status, the warm-up's included: every one should be 202. */
  statuses: Record<number, number>;
  /** Events posted, the warm-up's included. */
  events: number;
  subscribers: number;
  /** Distinct receipts, of every event posted times the subscribers. */
  delivered: number;
  expected: number;
  /** Receipts of an event a subscriber had already. */
  duplicates: number;
  subscriptionErrors: number;
  /** From the first timed POST to the last receipt: the fan-out goes on after the answers. */
  lastReceiptMs: number;
  /** What the replicas' acknowledgement costs; null when redis-server could not be started here. */
  replicaAck?: ReplicaAckCost | null;
}

type IntakeWorld = Pick<BenchWorld, 'sandboxUrl' | 'webhooks' | 'subscribers'>;

// --- The gateway's process ---------------------------------------------------------------------------

type GatewayRequest =
  | {
      id: number;
      kind: 'start';
      sandboxUrl: string;
      webhooks: BenchWorld['webhooks'];
      redisUrl: string;
      redisKeyPrefix: string;
      durability?: EventDurability | undefined;
    }
  | { id: number; kind: 'subscriptions' };

let gateway: Gateway | undefined;

async function startGateway(request: Extract<GatewayRequest, { kind: 'start' }>): Promise<number> {
  // Loaded in the gateway's process alone: bench/report.ts imports this file for its row.
  const [{ loadConfig }, { createGateway }, { silentLogger }, { sandboxUpstreamConfig }] = await Promise.all([
    import('../src/settings/index.ts'),
    import('../src/gateway.ts'),
    import('../src/platform/logger.ts'),
    import('../src/start/sandbox-upstream.ts'),
  ]);
  const config = loadConfig(process.env);
  const upstream = { ...sandboxUpstreamConfig({ url: request.sandboxUrl }), concurrency: config.concurrency };
  gateway = createGateway({
    logger: silentLogger,
    upstream,
    webhooks: request.webhooks,
    redis: { url: request.redisUrl },
    eventDurability: request.durability,
    redisKeyPrefix: request.redisKeyPrefix,
    eventLog: config.events.log,
    clientRateLimit: config.clientRateLimit,
  });
  await gateway.events.ready;
  // `ready` also resolves when Redis is known to be away: then the flood would measure only 503s.
  const health = gateway.events.health();
  if (!health?.ok) throw new Error(`the gateway's Redis does not answer: ${health?.detail}`);
  return (await gateway.server.listen(0, '127.0.0.1')).port;
}

function serveGateway(): void {
  const answer = (request: GatewayRequest): Promise<unknown> =>
    request.kind === 'start' ? startGateway(request) : Promise.resolve(gateway!.events.activeSubscriptions());
  answerRequests(answer, () => gateway?.server.stop(1_000));
}

/** The intake's gateway: this file forked with the heap flags of `npm start`, asked over IPC. */
async function startIntakeGateway(
  world: IntakeWorld,
  redisUrl: string,
  redisKeyPrefix: string,
  durability?: EventDurability,
): Promise<{ child: BenchChild; port: number }> {
  const env = { ...process.env, NODE_OPTIONS: startHeapFlags().join(' '), [GATEWAY_ROLE]: 'gateway' };
  const child = await BenchChild.start(SELF_PATH, "intake gateway's process", env);
  try {
    const start = { kind: 'start', sandboxUrl: world.sandboxUrl, webhooks: world.webhooks, redisUrl, redisKeyPrefix, durability } as const;
    return { child, port: await child.ask<number>('start', start) };
  } catch (error) {
    await child.close();
    throw error;
  }
}

// --- The flood ---------------------------------------------------------------------------------------

async function waitForSubscriptions(child: BenchChild, count: number): Promise<void> {
  const deadline = Date.now() + REGISTER_TIMEOUT_MS;
  while ((await child.ask<number>('subscriptions', { kind: 'subscriptions' })) < count) {
    if (Date.now() > deadline)
      throw new Error(`the intake gateway did not register ${count} subscriptions within ${REGISTER_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Waits for `expected` receipts for as long as they keep coming. */
async function waitForReceipts(subscribers: SubscriberClients, expected: number): Promise<void> {
  let received = -1;
  for (;;) {
    const now = await subscribers.waitFor(null, expected, DELIVERY_STALL_MS);
    if (now >= expected || now === received) return;
    received = now;
  }
}

/** Documented events (issuing.card.blocked), each of a card of its own: a new occurrence, never a duplicate of another. */
function floodEvents(count: number): { id: string; name: string; data: Record<string, unknown> }[] {
  const run = Date.now().toString(36);
  return Array.from({ length: count }, (_, i) => {
    const cardId = `crd_intake_${run}_${i}`;
    return { id: `${cardId}_issuing.card.blocked`, name: 'issuing.card.blocked', data: { card_id: cardId, card_status: 'BLOCKED' } };
  });
}

/** One wave: its deliveries signed first, then all posted at once; each answer's status and time. */
async function postWave(
  world: IntakeWorld,
  url: string,
  dispatcher: Agent,
  events: ReturnType<typeof floodEvents>,
): Promise<{ status: number; ms: number }[]> {
  const deliveries = events.map((event) => signedEvent(world, event));
  return Promise.all(
    deliveries.map(async ({ body, headers }) => {
      const started = performance.now();
      const response = await request(url, { method: 'POST', headers, body, dispatcher });
      await response.body.text();
      return { status: response.statusCode, ms: performance.now() - started };
    }),
  );
}

/** A connection of the benchmark's own that fails at once rather than retrying. */
async function withRedis<T>(redisUrl: string, use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

/** Everything the run left under its prefix: the stream and the seen set. */
async function dropKeys(redisUrl: string, prefix: string): Promise<void> {
  await withRedis(redisUrl, async (redis) => {
    for await (const keys of redis.scanStream({ match: `{${prefix}}:*`, count: 1_000 }) as AsyncIterable<string[]>) {
      if (keys.length > 0) await redis.unlink(...keys);
    }
  });
}

export async function measureIntakeFlood(world: IntakeWorld, options: Partial<IntakeFloodOptions> = {}): Promise<IntakeFloodResult> {
  const flood = await floodOnce(world, options);
  const subscribers = Math.min(options.subscribers ?? FLOOD_SUBSCRIBERS, ACK_SUBSCRIBERS);
  return { ...flood, replicaAck: await measureReplicaAck(world, { ...options, subscribers, waves: ACK_WAVES }) };
}

async function floodOnce(world: IntakeWorld, options: Partial<IntakeFloodOptions>): Promise<IntakeFloodResult> {
  const {
    concurrency = FLOOD_CONCURRENCY,
    waves = FLOOD_WAVES,
    subscribers = FLOOD_SUBSCRIBERS,
    redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  } = options;
  await withRedis(redisUrl, (redis) => redis.ping()).catch((error: unknown) => {
    throw new Error(
      `the intake flood needs Redis (REDIS_URL), and ${redisUrl} does not answer: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  const prefix = `bench-intake-${randomUUID()}`;
  const { child, port } = await startIntakeGateway(world, redisUrl, prefix, options.durability);
  const baseUrl = `http://127.0.0.1:${port}`;
  const dispatcher = new Agent({ connections: concurrency });
  const events = floodEvents((WARMUP_WAVES + waves) * concurrency);
  try {
    await world.subscribers.open(`${baseUrl.replace(/^http/, 'ws')}/graphql`, subscribers);
    await waitForSubscriptions(child, subscribers);
    await world.subscribers.startPass(events.map((event) => event.id));
    const answers: { status: number; ms: number }[] = [];
    let startedAt = Number.NaN;
    for (let wave = 0; wave < WARMUP_WAVES + waves; wave++) {
      if (wave === WARMUP_WAVES) startedAt = absoluteNow();
      answers.push(
        ...(await postWave(world, `${baseUrl}/webhooks`, dispatcher, events.slice(wave * concurrency, (wave + 1) * concurrency))),
      );
    }
    await waitForReceipts(world.subscribers, events.length * subscribers);
    const receipts = await world.subscribers.collect();
    const statuses: Record<number, number> = {};
    for (const { status } of answers) statuses[status] = (statuses[status] ?? 0) + 1;
    const received = receipts.times.filter((at) => !Number.isNaN(at));
    return {
      concurrency,
      waves,
      answer: summarize(answers.slice(WARMUP_WAVES * concurrency).map((a) => a.ms)),
      statuses,
      events: events.length,
      subscribers: receipts.subscribers,
      delivered: received.length,
      expected: events.length * subscribers,
      duplicates: receipts.duplicates,
      subscriptionErrors: receipts.errors,
      lastReceiptMs: received.reduce((last, at) => Math.max(last, at), Number.NEGATIVE_INFINITY) - startedAt,
    };
  } finally {
    await world.subscribers.disconnect();
    await dispatcher.close();
    await child.close();
    await dropKeys(redisUrl, prefix);
  }
}

// --- The replicas' acknowledgement --------------------------------------------------------------------

/** The acknowledgement's floods are shorter: two of them follow the main one. */
const ACK_WAVES = 10;
const ACK_SUBSCRIBERS = 100;
const ACK_TIMEOUT_MS = 500;

/** The flood without and with REDIS_MIN_REPLICAS_ACK=1 on a primary and one replica; null when redis-server cannot run here. */
async function measureReplicaAck(world: IntakeWorld, options: Partial<IntakeFloodOptions>): Promise<ReplicaAckCost | null> {
  // Each in a directory of its own: the replica writes the primary's snapshot to disk whatever --save says.
  const [primary, replica] = [new OwnRedis(await freePort()), new OwnRedis(await freePort())];
  try {
    await primary.start();
    await replica.start(['--replicaof', '127.0.0.1', String(primary.port)]);
    const redisUrl = primary.url;
    for (let tries = 0; (await withRedis(redisUrl, (redis) => redis.wait(1, 100))) < 1; tries++) {
      if (tries > 50) throw new Error('the replica did not connect');
    }
    const without = await floodOnce(world, { ...options, redisUrl });
    const withAck = await floodOnce(world, {
      ...options,
      redisUrl,
      durability: { minReplicasAck: 1, replicaAckTimeoutMs: ACK_TIMEOUT_MS },
    });
    return {
      timeoutMs: ACK_TIMEOUT_MS,
      subscribers: withAck.subscribers,
      without: without.answer,
      with: withAck.answer,
      statuses: withAck.statuses,
    };
  } catch {
    return null;
  } finally {
    await replica.remove();
    await primary.remove();
  }
}

// --- The report --------------------------------------------------------------------------------------

/** What kept a run from delivering every event once through Redis, in words; empty when nothing did. */
function deliveryProblems(r: IntakeFloodResult): string[] {
  const refused = Object.entries(r.statuses).filter(([status]) => status !== '202');
  return [
    ...(refused.length > 0 ? [`answered ${refused.map(([status, n]) => `${n} × ${status}`).join(', ')}`] : []),
    ...(r.delivered < r.expected ? [`${r.expected - r.delivered} receipts never came`] : []),
    ...(r.duplicates > 0 ? [`${r.duplicates} receipts came twice`] : []),
    ...(r.subscriptionErrors > 0 ? [`${r.subscriptionErrors} subscriptions failed`] : []),
  ];
}

/** The acknowledgement's cost, in words for the measured cell; empty when it was not part of the run. */
function replicaAckText(cost: ReplicaAckCost | null | undefined): string {
  if (cost === undefined) return '';
  if (cost === null) return '; replica acknowledgement: not measured (redis-server could not be started)';
  const refused = Object.entries(cost.statuses).filter(([status]) => status !== '202');
  return (
    `; with one replica's acknowledgement (REDIS_MIN_REPLICAS_ACK=1, WAIT up to ${cost.timeoutMs} ms): p50 ${ms(cost.with.p50)} ms, p99 ${ms(cost.with.p99)} ms, ` +
    `against p50 ${ms(cost.without.p50)} ms, p99 ${ms(cost.without.p99)} ms without (${cost.with.count} deliveries each, ${cost.subscribers} subscribers)` +
    (refused.length > 0 ? `, answered ${refused.map(([status, n]) => `${n} × ${status}`).join(', ')} with it` : '')
  );
}

const intakeTarget = (concurrency: number): string =>
  `webhook intake: answer p99 ≤ ${INTAKE_TARGET_P99_MS} ms at ${concurrency} concurrent deliveries with Redis, every event delivered once to every subscriber`;

/** The Targets table's row (bench/report.ts renders `[target, measured, verdict]`); null: the flood was not run (no Redis). */
export function intakeRow(r: IntakeFloodResult | null): string[] {
  if (!r) return [intakeTarget(FLOOD_CONCURRENCY), 'not run (no Redis at REDIS_URL)', '**not measured**'];
  const p99 = r.answer.p99;
  const fast = p99 <= INTAKE_TARGET_P99_MS;
  const problems = deliveryProblems(r);
  const time = fast
    ? `${ms(INTAKE_TARGET_P99_MS - p99)} ms to spare`
    : `${ms(p99 - INTAKE_TARGET_P99_MS)} ms over ${INTAKE_TARGET_P99_MS} ms`;
  return [
    intakeTarget(r.concurrency),
    `p99 ${ms(p99)} ms, p50 ${ms(r.answer.p50)} ms, max ${ms(r.answer.max)} ms over ${r.answer.count} deliveries (${r.waves} waves of ${r.concurrency}, after one not timed), ${r.subscribers} subscribers; ` +
      `${r.statuses[202] ?? 0} of ${r.events} answered 202; ${r.delivered} of ${r.expected} receipts (${r.events} events × ${r.subscribers}), ${r.duplicates} duplicates` +
      replicaAckText(r.replicaAck),
    verdict(fast && problems.length === 0, [time, ...problems].join('; ')),
  ];
}

if (process.env[GATEWAY_ROLE] === 'gateway') serveGateway();
else if (import.meta.main) {
  const webhooks = { apiKey: randomBytes(16).toString('hex'), signingSecret: randomBytes(16).toString('hex') };
  const { child, url: sandboxUrl } = await startSandboxProcess(0, webhooks.signingSecret);
  const subscribers = await SubscriberClients.start();
  try {
    const r = await measureIntakeFlood({ sandboxUrl, webhooks, subscribers }, { subscribers: readSettings().subscribers });
    console.log(
      `answer ms: p50 ${ms(r.answer.p50)}, p99 ${ms(r.answer.p99)}, max ${ms(r.answer.max)}, mean ${ms(r.answer.mean)} (n=${r.answer.count})`,
    );
    console.log(
      `answers by status: ${JSON.stringify(r.statuses)}; receipts ${r.delivered}/${r.expected}, duplicates ${r.duplicates}, subscription errors ${r.subscriptionErrors}`,
    );
    console.log(`last receipt ${ms(r.lastReceiptMs)} ms after the first timed POST${replicaAckText(r.replicaAck)}`);
    console.log(`| ${intakeRow(r).join(' | ')} |`);
  } finally {
    await subscribers.close();
    await stopSandboxProcess(child);
  }
}
