import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import WebSocket, { WebSocketServer } from 'ws';
import { ServerProcess } from './child-process.ts';
import type { Settings } from './settings.ts';
import { signedEvent, type BenchWorld } from './setup.ts';
import { summarize, type Summary } from './stats.ts';
import { absoluteNow, type ClockCheck, type PassReceipts, type SubscriberClients, type Watch } from './subscriber-clients.ts';

/**
 * Live updates at scale: `subscribers` graphql-ws clients in their own process (bench/subscribers.ts),
 * all on `bankEvents`; then signed webhook deliveries posted from this process to the gateway's
 * /webhooks, as the bank would post them. Latency runs from the moment a POST is issued (stamped
 * here) to the moment each subscriber's `next` sees that event (stamped in the child), both on the
 * machine's shared clock (absoluteNow).
 *
 * Two passes: one event at a time (the next once everybody has the previous one: the cost of one
 * fan-out) and a burst (every event posted at once). The same child clients and passes are then run
 * against a bare WebSocket server in this process that sends each subscriber a ready-made `next`
 * message: the floor that the transport and the clients alone cost, the gateway's yardstick. Last,
 * bare Yoga with graphql-ws (bench/bare-fanout-child.ts, its own process with the gateway's flags):
 * what the required libraries alone cost on the same passes, beside the gateway's figure.
 */

const CONNECT_BATCH = 100;
const REGISTER_TIMEOUT_MS = 30_000;
/** Per event of the one-at-a-time pass: a lost receipt costs this once, then the pass goes on. */
const PACED_TIMEOUT_MS = 10_000;
const BURST_TIMEOUT_MS = 60_000;
const WARMUP_EVENTS = 1;

export interface DeliveryPass {
  events: number;
  /** From each event's POST to each subscriber's receipt, over every receipt. */
  latency: Summary;
  /** From each event's POST to its last receipt (the Nth subscriber's), over events; Infinity for an event someone never got. */
  lastReceipt: Summary;
  /** From the POST to the gateway's 202 (the floor has no intake: zeros). */
  intake: Summary;
  /** From the first POST to the last receipt. */
  spanMs: number;
  /** Receipts that never came (events × subscribers − distinct receipts). */
  lost: number;
  /** An event received again by a subscriber that had it already. */
  duplicates: number;
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
  /** The subscribers' clock against this process's, read over IPC before the passes. */
  clock: ClockCheck;
  gateway: Passes;
  /** The same clients and passes against a bare WebSocket server sending ready-made messages. */
  floor: Passes;
  /** The same again through bare Yoga with graphql-ws and Yoga's pubsub (bench/bare-fanout-child.ts). */
  bare: Passes;
}

/** One event, built (and signed) before the clock starts; `send` issues it and resolves with the intake time. */
export interface PreparedEvent {
  /** The key its receipts are recorded under (WATCHES). */
  id: string;
  /** What must happen before its clock starts, in a pass one at a time (the bank moving the balance it announces). */
  ready?(): Promise<void>;
  send(): Promise<number>;
}

/** What the clients subscribe to and events come from. */
export interface FanoutServer {
  /** Its graphql-transport-ws endpoint. */
  url: string;
  /** What the clients hold open on it (default: bank events). */
  watch?: Watch;
  /** Subscriptions it holds now. */
  registered(): number | Promise<number>;
  prepare(index: number): PreparedEvent;
}

async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Opens `n` clients a batch at a time, each batch once the previous one is registered (no thundering herd); resolves with the time it took. */
async function connect(server: FanoutServer, clients: SubscriberClients, n: number): Promise<number> {
  const before = await server.registered();
  const started = performance.now();
  for (let opened = 0; opened < n;) {
    const batch = Math.min(CONNECT_BATCH, n - opened);
    await clients.open(server.url, batch, server.watch);
    opened += batch;
    await waitUntil(async () => (await server.registered()) - before >= opened, REGISTER_TIMEOUT_MS, `${opened} subscriptions`);
  }
  return performance.now() - started;
}

/** Per receipt and per event (its last receipt), against each event's POST time. */
function deliveryPass(receipts: PassReceipts, sentAt: readonly number[], intake: number[]): DeliveryPass {
  const { subscribers, times } = receipts;
  const latencies: number[] = [];
  const lastReceipts: number[] = [];
  let lost = 0;
  let lastAt = Number.NEGATIVE_INFINITY;
  sentAt.forEach((sent, event) => {
    let last = Number.NEGATIVE_INFINITY;
    let missing = 0;
    for (let s = 0; s < subscribers; s++) {
      const at = times[event * subscribers + s]!;
      if (Number.isNaN(at)) missing += 1;
      else {
        latencies.push(at - sent);
        if (at > last) last = at;
      }
    }
    lost += missing;
    // The Nth receipt never came: no finite time to it.
    lastReceipts.push(missing > 0 ? Number.POSITIVE_INFINITY : last - sent);
    lastAt = Math.max(lastAt, last);
  });
  return {
    events: sentAt.length,
    latency: summarize(latencies),
    lastReceipt: summarize(lastReceipts),
    intake: summarize(intake),
    spanMs: lastAt - Math.min(...sentAt),
    lost,
    duplicates: receipts.duplicates,
  };
}

interface Measured {
  pass: DeliveryPass;
  /** Subscription errors so far. */
  errors: number;
}

/** Each event once every subscriber has the previous one (and the event is ready). */
export async function pacedPass(clients: SubscriberClients, events: PreparedEvent[], n: number): Promise<Measured> {
  await clients.startPass(events.map((e) => e.id));
  const sentAt: number[] = [];
  const intake: number[] = [];
  for (const [index, event] of events.entries()) {
    await event.ready?.();
    sentAt.push(absoluteNow());
    intake.push(await event.send());
    await clients.waitFor(index, n, PACED_TIMEOUT_MS);
  }
  const receipts = await clients.collect();
  return { pass: deliveryPass(receipts, sentAt, intake), errors: receipts.errors };
}

/** Every event issued in one go, each stamped as it is issued. */
async function burstPass(clients: SubscriberClients, events: PreparedEvent[], n: number): Promise<Measured> {
  await clients.startPass(events.map((e) => e.id));
  const sentAt: number[] = [];
  const sending = events.map((event) => {
    sentAt.push(absoluteNow());
    return event.send();
  });
  const intake = await Promise.all(sending);
  await clients.waitFor(null, events.length * n, BURST_TIMEOUT_MS);
  const receipts = await clients.collect();
  return { pass: deliveryPass(receipts, sentAt, intake), errors: receipts.errors };
}

/**
 * Connects `n` clients to `server`, sends the warm-up (not counted), then `passes` with `prepare`
 * (the server's next events, in order); disconnects whatever happens.
 */
export async function withClients<T>(
  server: FanoutServer,
  clients: SubscriberClients,
  n: number,
  passes: (connectMs: number, prepare: (count: number) => PreparedEvent[]) => Promise<T>,
): Promise<T> {
  const before = await server.registered();
  let next = 0;
  const prepare = (count: number) => Array.from({ length: count }, () => server.prepare(next++));
  try {
    const connectMs = await connect(server, clients, n);
    // Warms both ends (JIT, the first HTTP connection) before anything is counted.
    await pacedPass(clients, prepare(WARMUP_EVENTS), n);
    return await passes(connectMs, prepare);
  } finally {
    await clients.disconnect();
    await waitUntil(async () => (await server.registered()) <= before, 10_000, 'the subscriptions to close').catch((error: unknown) =>
      console.warn(String(error)),
    );
  }
}

/** The paced and burst passes, after the warm-up. */
function runPasses(server: FanoutServer, clients: SubscriberClients, settings: Settings): Promise<Passes> {
  const n = settings.subscribers;
  return withClients(server, clients, n, async (connectMs, prepare) => {
    const paced = settings.pacedEvents > 0 ? (await pacedPass(clients, prepare(settings.pacedEvents), n)).pass : null;
    const burst = await burstPass(clients, prepare(settings.burstEvents), n);
    return { connectMs, subscriptionErrors: burst.errors, paced, burst: burst.pass };
  });
}

// --- The gateway ---------------------------------------------------------------------------------

/** A documented event (issuing.card.blocked), signed as the sandbox signs its deliveries. */
function signedDelivery(world: BenchWorld, eventId: string, cardId: string): { body: string; headers: Record<string, string> } {
  return signedEvent(world, { id: eventId, name: 'issuing.card.blocked', data: { card_id: cardId, card_status: 'BLOCKED' } });
}

function gatewayServer(world: BenchWorld): FanoutServer {
  const runId = Date.now().toString(36);
  return {
    url: `${world.baseUrl.replace(/^http/, 'ws')}/graphql`,
    registered: () => world.gateway.activeSubscriptions(),
    prepare: (index) => {
      // A card of its own per event: each is a new occurrence, never a duplicate of another.
      const cardId = `crd_bench_${runId}_${index}`;
      const id = `${cardId}_issuing.card.blocked`;
      return { id, send: webhookSender(world.baseUrl, id, signedDelivery(world, id, cardId)) };
    },
  };
}

/** Posts a signed delivery to the gateway at `baseUrl`, as the bank would; resolves with the time to its 202. */
export function webhookSender(
  baseUrl: string,
  id: string,
  delivery: { body: string; headers: Record<string, string> },
): () => Promise<number> {
  return eventPoster(`${baseUrl}/webhooks`, id, delivery);
}

/** Posts event `id`'s `body` to `url`; resolves with the time to its 202, and throws on any other answer. */
function eventPoster(url: string, id: string, { body, headers }: { body: string; headers: Record<string, string> }): () => Promise<number> {
  return async () => {
    const started = performance.now();
    const response = await request(url, { method: 'POST', headers, body });
    const text = await response.body.text();
    if (response.statusCode !== 202) throw new Error(`event ${id} posted to ${url} answered ${response.statusCode}: ${text}`);
    return performance.now() - started;
  };
}

// --- The floor: a bare graphql-ws speaker ---------------------------------------------------------

/**
 * Just enough of the graphql-transport-ws protocol (ack, subscribe, next) to serve the same clients;
 * each event is one ready-made payload, stringified per subscriber (ids differ) and sent.
 */
async function withFloor<T>(use: (server: FanoutServer) => Promise<T>): Promise<T> {
  const http = createServer();
  const wss = new WebSocketServer({
    server: http,
    path: '/graphql',
    handleProtocols: (protocols) => (protocols.has('graphql-transport-ws') ? 'graphql-transport-ws' : false),
  });
  // One subscription per socket, as the clients open them.
  const subscriptions = new Map<WebSocket, string>();
  wss.on('connection', (socket) => {
    socket.on('message', (raw) => {
      // A Buffer: ws's default binaryType.
      const message = JSON.parse((raw as Buffer).toString()) as { type: string; id?: string };
      if (message.type === 'connection_init') socket.send(JSON.stringify({ type: 'connection_ack' }));
      else if (message.type === 'subscribe' && message.id) subscriptions.set(socket, message.id);
    });
    socket.on('close', () => subscriptions.delete(socket));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const server: FanoutServer = {
    url: `ws://127.0.0.1:${port}/graphql`,
    registered: () => subscriptions.size,
    prepare: (index) => {
      const cardId = `crd_floor_${index}`;
      const id = `${cardId}_issuing.card.blocked`;
      const payload = {
        data: {
          bankEvents: {
            upstreamId: id,
            name: 'issuing.card.blocked',
            occurredAt: new Date().toISOString(),
            data: { card_id: cardId, card_status: 'BLOCKED' },
          },
        },
      };
      return {
        id,
        // Sent on the next turn, as a POST leaves after it is issued: a burst's events are all
        // stamped before any is sent, not each after the sending of those before it.
        send: () =>
          new Promise<number>((resolve) =>
            setImmediate(() => {
              for (const [socket, subscriptionId] of subscriptions)
                socket.send(JSON.stringify({ id: subscriptionId, type: 'next', payload }));
              resolve(0);
            }),
          ),
      };
    },
  };
  try {
    return await use(server);
  } finally {
    for (const client of wss.clients) client.terminate();
    wss.close();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  }
}

// --- Bare Yoga with graphql-ws -------------------------------------------------------------------

const BARE_FANOUT_CHILD = fileURLToPath(new URL('./bare-fanout-child.ts', import.meta.url));

/** bench/bare-fanout-child.ts in its own process, with `flags` (the gateway's). */
class BareFanoutProcess extends ServerProcess {
  static async start(flags: string[]): Promise<BareFanoutProcess> {
    const { child, port } = await ServerProcess.launch(BARE_FANOUT_CHILD, 'bare Yoga fan-out process', flags, { kind: 'start' });
    return new BareFanoutProcess(child, flags, port);
  }

  subscriptions(): Promise<number> {
    return this.child.ask('subscriptions', { kind: 'subscriptions' });
  }

  /** Its events: the gateway's (issuing.card.blocked, a card of its own each), published as they come. */
  asFanoutServer(): FanoutServer {
    return {
      url: `ws://127.0.0.1:${this.port}/graphql`,
      registered: () => this.subscriptions(),
      prepare: (index) => {
        const cardId = `crd_bare_${index}`;
        const id = `${cardId}_issuing.card.blocked`;
        const event = {
          upstreamId: id,
          name: 'issuing.card.blocked',
          occurredAt: new Date().toISOString(),
          data: { card_id: cardId, card_status: 'BLOCKED' },
        };
        return {
          id,
          send: eventPoster(`http://127.0.0.1:${this.port}/publish`, id, {
            body: JSON.stringify(event),
            headers: { 'content-type': 'application/json' },
          }),
        };
      },
    };
  }
}

/** A stage of the subscription measure (memory phases): the gateway's passes, the floor's, bare Yoga's. */
export type SubscriptionStage = 'gateway' | 'floor' | 'bare';

/** The gateway's passes, then the floor's, then bare Yoga's, with the same child clients; `stage` marks each start (memory phases). */
export async function measureSubscriptions(
  world: BenchWorld,
  settings: Settings,
  stage: (name: SubscriptionStage) => void = () => {},
): Promise<SubscriptionResult> {
  const clients = world.subscribers;
  const clock = await clients.checkClock();
  stage('gateway');
  const gateway = await runPasses(gatewayServer(world), clients, settings);
  stage('floor');
  const floor = await withFloor((server) => runPasses(server, clients, settings));
  stage('bare');
  const bareYoga = await BareFanoutProcess.start(world.gateway.flags);
  try {
    const bare = await runPasses(bareYoga.asFanoutServer(), clients, settings);
    return { subscribers: settings.subscribers, clock, gateway, floor, bare };
  } finally {
    await bareYoga.close();
  }
}
