import { createHmac } from 'node:crypto';
import { Agent, request } from 'undici';
import type { SandboxLogger } from '../logger.ts';
import { sleep } from '../timers.ts';
import type { WebhookEvent } from './bus.ts';

/** One attempt to deliver one event to one subscriber (GET /sandbox/deliveries). */
export interface DeliveryAttempt {
  eventId: string;
  eventName: string;
  url: string;
  /** 1 for the first try of a delivery. */
  attempt: number;
  /** The subscriber's HTTP status; null when no answer came (network error, timeout). */
  status: number | null;
  /** Why no answer came; null when one did. */
  error: string | null;
  /** Real time of the attempt, ISO 8601: deliveries run on real time, not the sandbox clock. */
  time: string;
}

/** A `w` subscription as it was when the event fired. */
interface DeliveryTarget {
  /** Deliveries to the same key go one at a time, in the order they were queued. */
  key: string;
  url: string;
  apiKey: string;
}

export interface DeliveryOptions {
  /** Signs every delivery when set (x-timestamp, x-signature). */
  signingSecret: string | null;
  /** The wait before each attempt; its length is the number of attempts. */
  retryDelaysMs: readonly number[];
  /** Per attempt: connecting, then the answer's headers, then its body. */
  timeoutMs: number;
  logger: SandboxLogger;
}

export interface DeliveryQueue {
  enqueue(event: WebhookEvent, target: DeliveryTarget): void;
  /** Every attempt so far, oldest first. */
  attempts(): DeliveryAttempt[];
  clearAttempts(): void;
  /** Drops every pending delivery (an attempt under way is abandoned unrecorded) and the log. */
  reset(): void;
  /** Stops for good: pending deliveries are dropped, connections closed, no timer left. */
  close(): Promise<void>;
}

/** Attempts at once, then 1 s, 4 s and 16 s after each failure (real time). */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [0, 1_000, 4_000, 16_000];
export const DEFAULT_DELIVERY_TIMEOUT_MS = 5_000;

const MAX_ATTEMPTS_KEPT = 10_000;

interface Pending {
  event: WebhookEvent;
  target: DeliveryTarget;
  body: string;
}

/** `sha256=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>`. */
function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export function createDeliveryQueue(options: DeliveryOptions): DeliveryQueue {
  const { retryDelaysMs, timeoutMs, logger } = options;
  const agent = new Agent({ connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  let log: DeliveryAttempt[] = [];
  // Aborted by reset and close; every wait and request of the deliveries it started listens to it.
  let generation = new AbortController();
  let queues = new Map<string, Pending[]>();
  const draining = new Set<Promise<void>>();
  let closed = false;

  const record = (entry: DeliveryAttempt): void => {
    log.push(entry);
    if (log.length > MAX_ATTEMPTS_KEPT) log = log.slice(-MAX_ATTEMPTS_KEPT);
  };

  async function send(item: Pending, signal: AbortSignal): Promise<Pick<DeliveryAttempt, 'status' | 'error'>> {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-api-key': item.target.apiKey };
    if (options.signingSecret !== null) {
      const timestamp = String(Math.floor(Date.now() / 1000));
      headers['x-timestamp'] = timestamp;
      headers['x-signature'] = webhookSignature(options.signingSecret, timestamp, item.body);
    }
    try {
      const response = await request(item.target.url, { method: 'POST', headers, body: item.body, dispatcher: agent, signal });
      await response.body.dump();
      return { status: response.statusCode, error: null };
    } catch (error) {
      return { status: null, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Tries until a 2xx answer or the attempts run out. */
  async function deliver(item: Pending, signal: AbortSignal): Promise<void> {
    for (const [index, delay] of retryDelaysMs.entries()) {
      if (!(await sleep(delay, signal))) return;
      const outcome = await send(item, signal);
      if (signal.aborted) return;
      const { event, target } = item;
      record({ eventId: event.id, eventName: event.name, url: target.url, attempt: index + 1, ...outcome, time: new Date().toISOString() });
      if (outcome.status !== null && outcome.status >= 200 && outcome.status < 300) return;
    }
    logger.warn({ eventId: item.event.id, url: item.target.url, attempts: retryDelaysMs.length }, 'webhook delivery abandoned');
  }

  async function drain(key: string, queue: Pending[], signal: AbortSignal): Promise<void> {
    while (queue.length > 0 && !signal.aborted) {
      await deliver(queue[0] as Pending, signal);
      queue.shift();
    }
    if (queues.get(key) === queue) queues.delete(key);
  }

  return {
    enqueue(event, target) {
      if (closed) return;
      const item: Pending = { event, target, body: JSON.stringify(event) };
      const queue = queues.get(target.key);
      if (queue !== undefined) {
        queue.push(item);
        return;
      }
      const fresh = [item];
      queues.set(target.key, fresh);
      const run: Promise<void> = drain(target.key, fresh, generation.signal)
        .catch((error: unknown) => logger.warn({ err: error, url: target.url }, 'webhook delivery failed'))
        .finally(() => draining.delete(run));
      draining.add(run);
    },
    attempts: () => log.map((entry) => ({ ...entry })),
    clearAttempts() {
      log = [];
    },
    reset() {
      generation.abort();
      generation = new AbortController();
      queues = new Map();
      log = [];
    },
    async close() {
      closed = true;
      generation.abort();
      queues = new Map();
      await Promise.allSettled([...draining]);
      await agent.destroy();
    },
  };
}
