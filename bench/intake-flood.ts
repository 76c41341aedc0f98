/**
 * The webhook intake under a flood, with Redis: signed deliveries posted in waves to a gateway process
 * of its own while it fans each event out to the subscribers; then the same flood without and with
 * one replica's acknowledgement (REDIS_MIN_REPLICAS_ACK).
 */

import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { Agent, request } from 'undici';
import type { EventDurability } from '../src/settings/index.ts';
import { BenchChild } from './child-process.ts';
import { startHeapFlags } from './gateway-process.ts';
import type { IntakeGatewayRequest } from './intake-gateway-child.ts';
import { INTAKE_CONCURRENCY } from './parameters.ts';
import { signedEvent, type BenchWorld } from './setup.ts';
import { summarize, type Summary } from './stats.ts';
import { absoluteNow, type SubscriberClients } from './subscriber-clients.ts';
import { freePort, OwnRedis } from '../test/helpers/redis.ts';

const FLOOD_WAVES = 20;
const FLOOD_SUBSCRIBERS = 1_000;
/** One wave first, not timed: connections opened, code compiled (its events are checked like the rest). */
const WARMUP_WAVES = 1;
/** The fan-out may still run after the last answer: the wait for receipts ends once none came for this long. */
const DELIVERY_STALL_MS = 10_000;
const REGISTER_TIMEOUT_MS = 30_000;
const CHILD_PATH = fileURLToPath(new URL('./intake-gateway-child.ts', import.meta.url));

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
export interface ReplicaAckCost {
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

/**
 * The intake's gateway: bench/intake-gateway-child.ts forked with the heap flags of `npm start`
 * (BENCH_GATEWAY_NODE_OPTIONS too: `--cpu-prof --cpu-prof-dir=DIR` profiles its flood).
 */
async function startIntakeGateway(
  world: IntakeWorld,
  redisUrl: string,
  redisKeyPrefix: string,
  durability?: EventDurability,
): Promise<{ child: BenchChild; port: number }> {
  const env = { ...process.env, NODE_OPTIONS: startHeapFlags().join(' ') };
  const child = await BenchChild.start(CHILD_PATH, "intake gateway's process", env);
  try {
    const start: Omit<Extract<IntakeGatewayRequest, { kind: 'start' }>, 'id'> = {
      kind: 'start',
      sandboxUrl: world.sandboxUrl,
      webhooks: world.webhooks,
      redisUrl,
      redisKeyPrefix,
      durability,
    };
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

/** `use` on a connection of the benchmark's own that fails at once rather than retrying, closed after. */
function withRedis<T>(redisUrl: string, use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  return redis
    .connect()
    .then(() => use(redis))
    .finally(() => redis.disconnect());
}

/** Everything the run left under its prefix: the stream and the seen set. */
async function dropKeys(redisUrl: string, prefix: string): Promise<void> {
  await withRedis(redisUrl, async (redis) => {
    for await (const keys of redis.scanStream({ match: `{${prefix}}:*`, count: 1_000 }) as AsyncIterable<string[]>) {
      if (keys.length > 0) await redis.unlink(...keys);
    }
  });
}

/**
 * Each delivery is timed from its POST to its answer (the bank's retry clock starts when it gives up
 * waiting); the fan-out to the subscribers competes with the intake for the gateway's one thread, and
 * their receipts show every event reached each of them once. Not the benchmark's main gateway: that
 * one has no Redis, and giving it Redis would change every other figure.
 */
export async function measureIntakeFlood(world: IntakeWorld, options: Partial<IntakeFloodOptions> = {}): Promise<IntakeFloodResult> {
  const flood = await floodOnce(world, options);
  const subscribers = Math.min(options.subscribers ?? FLOOD_SUBSCRIBERS, ACK_SUBSCRIBERS);
  return { ...flood, replicaAck: await measureReplicaAck(world, { ...options, subscribers, waves: ACK_WAVES }) };
}

async function floodOnce(world: IntakeWorld, options: Partial<IntakeFloodOptions>): Promise<IntakeFloodResult> {
  const {
    concurrency = INTAKE_CONCURRENCY,
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
