import { createClient, type Client, type ExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import {
  absoluteNow,
  WATCHES,
  type PassReceipts,
  type SubscriberCall,
  type SubscriberCalls,
  type SubscriberReply,
  type SubscriberRequest,
  type Watch,
} from './subscriber-clients.ts';

/**
 * The subscribers' process (forked by SubscriberClients in subscriber-clients.ts): graphql-ws
 * clients, one WebSocket each as browsers would have, all on `bankEvents` or all holding the live
 * dashboard (WATCHES). Each receipt is stamped with absoluteNow the moment its `next` runs and kept
 * in a flat array until the parent collects the pass; during a pass the only message sent is the
 * answer to `await`.
 */

interface Pass {
  indexOf: Map<string, number>;
  subscribers: number;
  times: Float64Array;
  /** Distinct receipts per event. */
  perEvent: Uint32Array;
  /** Distinct receipts in all. */
  received: number;
  duplicates: number;
}

const clients: Client[] = [];
/** Bumped by `disconnect`, so the errors of disposed clients closing do not count against the next ones. */
let generation = 0;
let errors = 0;
let pass: Pass = newPass([], 0);
let waiter: { event: number | null; target: number; done: () => void } | undefined;

function newPass(eventIds: string[], subscribers: number): Pass {
  const times = new Float64Array(eventIds.length * subscribers).fill(Number.NaN);
  return {
    indexOf: new Map(eventIds.map((id, i) => [id, i])),
    subscribers,
    times,
    perEvent: new Uint32Array(eventIds.length),
    received: 0,
    duplicates: 0,
  };
}

const receivedOf = (event: number | null): number => (event === null ? pass.received : (pass.perEvent[event] ?? 0));

function record(subscriber: number, eventId: string | undefined): void {
  const at = absoluteNow();
  const event = eventId === undefined ? undefined : pass.indexOf.get(eventId);
  // Late receipts of an earlier pass (the warm-up's) are not this pass's.
  if (event === undefined || subscriber >= pass.subscribers) return;
  const slot = event * pass.subscribers + subscriber;
  if (!Number.isNaN(pass.times[slot])) {
    pass.duplicates += 1;
    return;
  }
  pass.times[slot] = at;
  pass.perEvent[event]! += 1;
  pass.received += 1;
  if (waiter && receivedOf(waiter.event) >= waiter.target) waiter.done();
}

function openClient(url: string, watch: Watch): void {
  const { query, key } = WATCHES[watch];
  const subscriber = clients.length;
  const opened = generation;
  const failed = () => {
    if (opened === generation) errors += 1;
  };
  const client = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
  client.subscribe<Record<string, unknown>>(
    { query },
    {
      next: (result: ExecutionResult<Record<string, unknown>>) => {
        if (result.data) record(subscriber, key(result.data));
        else failed();
      },
      error: failed,
      // Nothing ends a subscription during a run but the client's own dispose.
      complete: failed,
    },
  );
  clients.push(client);
}

function awaitReceipts(event: number | null, target: number, timeoutMs: number): Promise<{ receipts: number }> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      waiter = undefined;
      resolve({ receipts: receivedOf(event) });
    };
    const timer = setTimeout(done, timeoutMs);
    waiter = { event, target, done };
    if (receivedOf(event) >= target) done();
  });
}

async function disconnect(): Promise<{ clients: number }> {
  generation += 1;
  const count = clients.length;
  // A client's dispose may answer at once or with a promise (graphql-ws's type): each a promise here.
  await Promise.all(clients.splice(0).map(async (client) => client.dispose()));
  errors = 0;
  pass = newPass([], 0);
  return { clients: count };
}

const handlers: {
  [K in SubscriberCall]: (args: SubscriberCalls[K]['args']) => SubscriberCalls[K]['result'] | Promise<SubscriberCalls[K]['result']>;
} = {
  open: ({ url, count, watch }) => {
    for (let i = 0; i < count; i++) openClient(url, watch);
    return { clients: clients.length };
  },
  pass: ({ eventIds }) => {
    pass = newPass(eventIds, clients.length);
    return { subscribers: clients.length };
  },
  await: ({ event, receipts, timeoutMs }) => awaitReceipts(event, receipts, timeoutMs),
  collect: (): PassReceipts => ({ subscribers: pass.subscribers, times: pass.times, duplicates: pass.duplicates, errors }),
  disconnect,
  clock: () => ({ now: absoluteNow() }),
};

process.on('message', (message: SubscriberRequest) => {
  const { id, call, ...args } = message;
  const handler = handlers[call] as (a: typeof args) => unknown;
  Promise.resolve()
    .then(() => handler(args))
    .then(
      (result) => process.send!({ id, result } satisfies SubscriberReply),
      (error: unknown) => process.send!({ id, error: String(error) } satisfies SubscriberReply),
    );
});
// The parent went away: nothing more will be asked.
process.on('disconnect', () => process.exit(0));
