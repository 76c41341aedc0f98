import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { BenchChild, type ChildReply } from './child-process.ts';
import { LIVE_DASHBOARD_QUERY } from './parameters.ts';

/**
 * The subscribers' own process (bench/subscribers.ts), driven from here over IPC: the graphql-ws
 * clients (on bank events, or live queries: WATCHES) must not share the gateway's event loop, or the fan-out figures would time the clients as
 * much as the gateway. Receipts are stamped in the child and come back once a pass is over, in one
 * message, so IPC stays out of the measurement.
 */

/**
 * Milliseconds since the epoch, sub-millisecond: `timeOrigin` anchors each process's monotonic clock
 * to the wall clock at its start, so stamps from two processes on one machine can be subtracted.
 */
export const absoluteNow = (): number => performance.timeOrigin + performance.now();

/** A result's data as the clients get it. */
type Data = Record<string, unknown>;

/**
 * What the clients hold open, and the key each result is recorded under: a pass names the keys it
 * waits for, so a result under any other key (a live query's first result, a late one) is not its.
 */
export const WATCHES = {
  /** Every bank event, keyed by the bank's id (BankEvent.upstreamId). */
  'bank-events': {
    query: 'subscription { bankEvents { upstreamId name occurredAt data } }',
    key: (data: Data) => (data.bankEvents as { upstreamId: string }).upstreamId,
  },
  /** The dashboard's balances as a live query, keyed by the USD balance available: each deposit shows as a key of its own. */
  'live-balances': {
    query: LIVE_DASHBOARD_QUERY,
    key: (data: Data) => usdCentsKey(data.balances as { currency: string; available: { amount: string | number } }[]),
  },
} satisfies Record<string, { query: string; key(data: Data): string | undefined }>;

export type Watch = keyof typeof WATCHES;

/** The key of a USD balance: whole cents, so the benchmark can name the balance each deposit makes without the amount's text. */
export function usdCentsKey(balances: readonly { currency: string; available: { amount: string | number } }[]): string | undefined {
  const usd = balances.find((balance) => balance.currency === 'USD');
  return usd && String(Math.round(Number(usd.available.amount) * 100));
}

/** What one pass's subscribers received. */
export interface PassReceipts {
  subscribers: number;
  /** Receipt times (absoluteNow) by event then subscriber: `times[event * subscribers + subscriber]`; NaN where none came. */
  times: Float64Array;
  /** Receipts of an event a subscriber already had (each is also a receipt not counted). */
  duplicates: number;
  /** Subscriptions that failed or ended early since the clients were opened. */
  errors: number;
}

/** Each call the child answers: its arguments and its result. */
export interface SubscriberCalls {
  /** Opens `count` more clients on `url`, each holding `watch` open at once; answers without waiting for them. */
  open: { args: { url: string; count: number; watch: Watch }; result: { clients: number } };
  /** Starts recording a pass of these events (everything before is dropped); answers once ready. */
  pass: { args: { eventIds: string[] }; result: { subscribers: number } };
  /**
   * Answers once `receipts` distinct receipts are in, of event `event` (its index in the pass) or,
   * when null, of the whole pass; or after `timeoutMs` with what there is.
   */
  await: { args: { event: number | null; receipts: number; timeoutMs: number }; result: { receipts: number } };
  /** The pass's receipts. */
  collect: { args: Record<string, never>; result: PassReceipts };
  /** Disposes every client. */
  disconnect: { args: Record<string, never>; result: { clients: number } };
  /** The child's absoluteNow, for the clock check. */
  clock: { args: Record<string, never>; result: { now: number } };
}

export type SubscriberCall = keyof SubscriberCalls;
export type SubscriberRequest = { [K in SubscriberCall]: { id: number; call: K } & SubscriberCalls[K]['args'] }[SubscriberCall];
export type SubscriberReply = ChildReply<unknown>;

/** How far the child's absoluteNow is ahead of this process's, and how closely that is known. */
export interface ClockCheck {
  offsetMs: number;
  /** Half the IPC round trip the offset was read within. */
  uncertaintyMs: number;
}

const CHILD_PATH = fileURLToPath(new URL('subscribers.ts', import.meta.url));
const CLOCK_READINGS = 20;

export class SubscriberClients {
  readonly #child: BenchChild;

  private constructor(child: BenchChild) {
    this.#child = child;
  }

  static async start(): Promise<SubscriberClients> {
    // IPC's `advanced` serialisation (BenchChild) carries the Float64Array of receipts, NaNs included.
    return new SubscriberClients(await BenchChild.start(CHILD_PATH, "subscribers' process"));
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  open(url: string, count: number, watch: Watch = 'bank-events'): Promise<number> {
    return this.#ask('open', { url, count, watch }).then((r) => r.clients);
  }

  /** Resolves once the child records this pass's events: only then may the first be sent. */
  async startPass(eventIds: string[]): Promise<void> {
    await this.#ask('pass', { eventIds });
  }

  /** Resolves once `receipts` distinct receipts are in (of one event, or of the pass when `event` is null), or after `timeoutMs`. */
  waitFor(event: number | null, receipts: number, timeoutMs: number): Promise<number> {
    return this.#ask('await', { event, receipts, timeoutMs }).then((r) => r.receipts);
  }

  collect(): Promise<PassReceipts> {
    return this.#ask('collect', {});
  }

  async disconnect(): Promise<void> {
    await this.#ask('disconnect', {});
  }

  /**
   * The child's clock against this one: the reading with the shortest IPC round trip, taken as read
   * halfway through it. Receipt stamps are only comparable with POST stamps if this is near zero.
   */
  async checkClock(): Promise<ClockCheck> {
    let best: ClockCheck = { offsetMs: Number.NaN, uncertaintyMs: Number.POSITIVE_INFINITY };
    for (let i = 0; i < CLOCK_READINGS; i++) {
      const sent = absoluteNow();
      const { now } = await this.#ask('clock', {});
      const back = absoluteNow();
      if ((back - sent) / 2 < best.uncertaintyMs) best = { offsetMs: now - (sent + back) / 2, uncertaintyMs: (back - sent) / 2 };
    }
    return best;
  }

  close(): Promise<void> {
    return this.#child.close();
  }

  #ask<K extends SubscriberCall>(call: K, args: SubscriberCalls[K]['args']): Promise<SubscriberCalls[K]['result']> {
    return this.#child.ask(call, { call, ...args });
  }
}
