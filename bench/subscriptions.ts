import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, type Client } from 'graphql-ws';
import { request } from 'undici';
import WebSocket, { WebSocketServer } from 'ws';
import { signatureFor } from '../src/events/intake.ts';
import { DEMO_CREDENTIALS } from '../src/sandbox/index.ts';
import { EVENT_VERSION } from '../src/sandbox/events/catalogue.ts';
import { formatApiTime } from '../src/sandbox/time.ts';
import type { Settings } from './settings.ts';
import type { BenchWorld } from './setup.ts';
import { summarize, type Summary } from './stats.ts';

/**
 * Live updates at scale: `subscribers` graphql-ws clients in this process (ws + graphql-ws, one
 * WebSocket each, as browsers would), all on `bankEvents`; then signed webhook deliveries posted to
 * the gateway's /webhooks, as the bank would post them. Delivery latency runs from the moment a
 * POST is issued to the moment each subscriber's `next` sees that event.
 *
 * Two passes: one event at a time (the next once everybody has the previous one: the cost of one
 * fan-out) and a burst (every event posted at once: the target's case). The same clients and passes
 * are then run against a bare WebSocket server in this process that sends each subscriber a
 * ready-made `next` message: the floor that the transport and the in-process clients alone cost.
 */

const SUBSCRIPTION = 'subscription { bankEvents { id name occurredAt data } }';
const CONNECT_BATCH = 100;
const REGISTER_TIMEOUT_MS = 30_000;
const DELIVERY_TIMEOUT_MS = 60_000;

export interface DeliveryPass {
  events: number;
  /** From the publish (the POST) to each subscriber's receipt. */
  latency: Summary;
  /** From the POST to the gateway's 202 (the floor has no intake: zeros). */
  intake: Summary;
  /** From the first publish to the last receipt. */
  spanMs: number;
  /** Receipts that never came (events × subscribers − received). */
  lost: number;
}

export interface Passes {
  /** From the first connection to every subscription registered. */
  connectMs: number;
  subscriptionErrors: number;
  paced: DeliveryPass | null;
  burst: DeliveryPass;
}

export interface SubscriptionResult {
  subscribers: number;
  gateway: Passes;
  /** The same clients and passes against a bare WebSocket server sending ready-made messages. */
  floor: Passes;
}

async function waitUntil(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Every receipt of the current pass. */
class Receipts {
  /** performance.now() at the publish, per event id. */
  readonly sentAt = new Map<string, number>();
  readonly latencies: number[] = [];
  received = 0;
  lastAt = 0;
  errors = 0;
  #waiter: { target: number; wake: () => void } | undefined;

  record(eventId: string): void {
    const now = performance.now();
    const sent = this.sentAt.get(eventId);
    if (sent === undefined) return; // the warm-up event
    this.latencies.push(now - sent);
    this.received += 1;
    this.lastAt = now;
    if (this.#waiter && this.received >= this.#waiter.target) this.#waiter.wake();
  }

  /** Resolves once `target` receipts have been recorded, or after the timeout (the shortfall is then `lost`). */
  async reach(target: number, timeoutMs: number): Promise<void> {
    if (this.received >= target) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#waiter = { target, wake: done };
    });
    this.#waiter = undefined;
  }

  reset(): void {
    this.sentAt.clear();
    this.latencies.length = 0;
    this.received = 0;
    this.lastAt = 0;
  }
}

/**
 * Where events come from: how many subscriptions are registered, and events prepared (built, signed)
 * before the clock starts, then sent; `send` resolves with the intake time.
 */
interface Publisher {
  registered(): number;
  prepare(eventId: string, index: number): { send(): Promise<number> };
}

async function connect(wsUrl: string, n: number, receipts: Receipts, publisher: Publisher): Promise<{ clients: Client[]; connectMs: number }> {
  const clients: Client[] = [];
  const before = publisher.registered();
  const started = performance.now();
  for (let i = 0; i < n; i += CONNECT_BATCH) {
    for (let j = i; j < Math.min(n, i + CONNECT_BATCH); j++) {
      const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
      client.subscribe<{ bankEvents: { id: string } }>(
        { query: SUBSCRIPTION },
        {
          next: (result) => {
            if (result.data) receipts.record(result.data.bankEvents.id);
            else receipts.errors += 1;
          },
          error: () => {
            receipts.errors += 1;
          },
          complete: () => {},
        },
      );
      clients.push(client);
    }
    await waitUntil(() => publisher.registered() - before >= clients.length, REGISTER_TIMEOUT_MS, `${clients.length} subscriptions`);
  }
  return { clients, connectMs: performance.now() - started };
}

function pass(receipts: Receipts, events: number, subscribers: number, intake: number[], firstAt: number): DeliveryPass {
  return {
    events,
    latency: summarize(receipts.latencies),
    intake: summarize(intake),
    spanMs: receipts.lastAt - firstAt,
    lost: events * subscribers - receipts.received,
  };
}

/** Connects `subscribers` clients, sends one warm-up event, then the paced and burst passes; disconnects. */
async function runPasses(wsUrl: string, publisher: Publisher, settings: Settings, idOf: (index: number) => string): Promise<Passes> {
  const n = settings.subscribers;
  const receipts = new Receipts();
  const { clients, connectMs } = await connect(wsUrl, n, receipts, publisher);
  try {
    let index = 0;
    const prepare = (i: number) => ({ id: idOf(i), event: publisher.prepare(idOf(i), i) });
    const send = ({ id, event }: ReturnType<typeof prepare>): Promise<number> => {
      receipts.sentAt.set(id, performance.now());
      return event.send();
    };

    // Warm-up: one event to everybody, not counted (no sentAt).
    await prepare(index++).event.send();
    await new Promise((resolve) => setTimeout(resolve, 500));

    let paced: DeliveryPass | null = null;
    if (settings.pacedEvents > 0) {
      receipts.reset();
      const intake: number[] = [];
      const firstAt = performance.now();
      for (let e = 1; e <= settings.pacedEvents; e++) {
        intake.push(await send(prepare(index++)));
        await receipts.reach(e * n, DELIVERY_TIMEOUT_MS);
      }
      paced = pass(receipts, settings.pacedEvents, n, intake, firstAt);
    }

    receipts.reset();
    const burstEvents = Array.from({ length: settings.burstEvents }, () => prepare(index++));
    const firstAt = performance.now();
    const intake = await Promise.all(burstEvents.map(send));
    await receipts.reach(settings.burstEvents * n, DELIVERY_TIMEOUT_MS);
    const burst = pass(receipts, settings.burstEvents, n, intake, firstAt);
    return { connectMs, subscriptionErrors: receipts.errors, paced, burst };
  } finally {
    await Promise.all(clients.map((client) => client.dispose()));
  }
}

// --- The gateway ---------------------------------------------------------------------------------

/** A documented event (issuing.card.blocked), signed as the sandbox signs its deliveries. */
function signedDelivery(world: BenchWorld, eventId: string, cardId: string): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({
    id: eventId,
    name: 'issuing.card.blocked',
    account_id: DEMO_CREDENTIALS.userId,
    data: { card_id: cardId, card_status: 'BLOCKED' },
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

async function gatewayPasses(world: BenchWorld, settings: Settings): Promise<Passes> {
  const runId = Date.now().toString(36);
  const cardOf = (index: number) => `crd_bench_${runId}_${index}`;
  const idOf = (index: number) => `${cardOf(index)}_issuing.card.blocked`;
  const before = world.gateway.events.activeSubscriptions();
  const publisher: Publisher = {
    registered: () => world.gateway.events.activeSubscriptions(),
    prepare: (eventId, index) => {
      // Signed before the clock starts: the bank signs before it sends.
      const { body, headers } = signedDelivery(world, eventId, cardOf(index));
      return {
        send: async () => {
          const started = performance.now();
          const response = await request(`${world.baseUrl}/webhooks`, { method: 'POST', headers, body });
          const text = await response.body.text();
          if (response.statusCode !== 202) throw new Error(`webhook ${eventId} answered ${response.statusCode}: ${text}`);
          return performance.now() - started;
        },
      };
    },
  };
  try {
    return await runPasses(`${world.baseUrl.replace(/^http/, 'ws')}/graphql`, publisher, settings, idOf);
  } finally {
    await waitUntil(() => world.gateway.events.activeSubscriptions() <= before, 10_000, 'the subscriptions to close').catch((error: unknown) => console.warn(String(error)));
  }
}

// --- The floor: a bare graphql-ws speaker ---------------------------------------------------------

/**
 * Just enough of the graphql-transport-ws protocol (ack, subscribe, next) to serve the same clients;
 * each event is one ready-made payload, stringified per subscriber (ids differ) and sent.
 */
async function floorPasses(settings: Settings): Promise<Passes> {
  const server = createServer();
  const wss = new WebSocketServer({ server, path: '/graphql', handleProtocols: (protocols) => (protocols.has('graphql-transport-ws') ? 'graphql-transport-ws' : false) });
  const subscriptions: { socket: WebSocket; id: string }[] = [];
  wss.on('connection', (socket) => {
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as { type: string; id?: string };
      if (message.type === 'connection_init') socket.send(JSON.stringify({ type: 'connection_ack' }));
      else if (message.type === 'subscribe' && message.id) subscriptions.push({ socket, id: message.id });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const idOf = (index: number) => `crd_floor_${index}_issuing.card.blocked`;
  const publisher: Publisher = {
    registered: () => subscriptions.length,
    prepare: (eventId) => {
      const payload = {
        data: { bankEvents: { id: eventId, name: 'issuing.card.blocked', occurredAt: new Date().toISOString(), data: { card_id: eventId.split('_issuing')[0], card_status: 'BLOCKED' } } },
      };
      return {
        send: async () => {
          for (const { socket, id } of subscriptions) socket.send(JSON.stringify({ id, type: 'next', payload }));
          return 0;
        },
      };
    },
  };
  try {
    return await runPasses(`ws://127.0.0.1:${port}/graphql`, publisher, settings, idOf);
  } finally {
    for (const client of wss.clients) client.terminate();
    wss.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export async function measureSubscriptions(world: BenchWorld, settings: Settings): Promise<SubscriptionResult> {
  const gateway = await gatewayPasses(world, settings);
  const floor = await floorPasses(settings);
  return { subscribers: settings.subscribers, gateway, floor };
}
