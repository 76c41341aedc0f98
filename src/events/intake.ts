import { createHmac } from 'node:crypto';
import type { WebhookConfig } from '../settings/index.ts';
import type { Logger } from '../platform/logger.ts';
import { readAtMost } from '../limits/body-size.ts';
import { sameSecret } from '../platform/secrets.ts';
import type { EventBus } from './bus.ts';
import { occurrenceKey, readEvent, type BankEvent } from './models.ts';

/** How a delivery ended, for the metrics (events/metrics.ts counts them). */
export type WebhookOutcome = 'accepted' | 'duplicate' | 'rejected';

/**
 * POST /webhooks: the bank's event deliveries. Reads the body (at most maxBytes), checks the sender
 * (x-api-key, and an HMAC signature when a signing secret is configured), reads the event and hands
 * it to the bus with its occurrence key: the bus tells a repeated delivery of one occurrence (the
 * bank retries, in any order; see occurrenceKey) from a new one, which it publishes. An event is
 * acknowledged (202, or 200 for a repeat) only once it cannot be lost: in the log, and with Redis on
 * the replicas asked for (REDIS_MIN_REPLICAS_ACK). When the log cannot take it, the answer is 503
 * with Retry-After and the bank delivers it again: nothing waits in this instance's memory for Redis.
 * Subscribers get an event after its answer, and never hold the sender up.
 */

/** When the bank may try an event again that the log could not take: Redis reconnects, or a failover completes, within seconds. */
const RETRY_AFTER_SECONDS = 2;

/** Where the bank delivers events (routes/webhooks.ts routes it; the reconciler files subscriptions to it). */
export const WEBHOOK_PATH = '/webhooks';

/** A signature older or newer than this is refused, so a captured delivery cannot be replayed later. */
const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

export interface IntakeOptions {
  config: Pick<WebhookConfig, 'apiKey' | 'signingSecret' | 'maxBytes'>;
  bus: EventBus;
  logger: Logger;
  now?: () => number;
  /** Told of every delivery's outcome (metrics). */
  onOutcome?: (outcome: WebhookOutcome, status: number) => void;
  /** Told of each new event before the bank gets its 202: the record cache drops what it changed, so a read that follows sees it. */
  onAccepted?: (event: BankEvent) => void;
}

type Outcome = { status: number; body: Record<string, unknown>; retryAfter?: number };

export function signatureFor(secret: string, timestamp: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
}

function header(request: Request, name: string): string | undefined {
  return request.headers.get(name) ?? undefined;
}

function checkSender(request: Request, rawBody: string, options: IntakeOptions): Outcome | null {
  const { apiKey, signingSecret } = options.config;
  const given = header(request, 'x-api-key');
  if (!apiKey || !given || !sameSecret(given, apiKey)) return { status: 401, body: { error: 'x-api-key is missing or wrong' } };
  if (!signingSecret) return null;
  const timestamp = header(request, 'x-timestamp');
  const signature = header(request, 'x-signature');
  if (!timestamp || !signature) return { status: 401, body: { error: 'x-timestamp and x-signature are required' } };
  const age = Math.abs((options.now ?? Date.now)() / 1000 - Number(timestamp));
  if (!/^\d+$/.test(timestamp) || age > SIGNATURE_TOLERANCE_SECONDS) {
    return { status: 401, body: { error: `x-timestamp is more than ${SIGNATURE_TOLERANCE_SECONDS} seconds from now` } };
  }
  if (!sameSecret(signature, signatureFor(signingSecret, timestamp, rawBody)))
    return { status: 401, body: { error: 'x-signature does not match' } };
  return null;
}

/** Reads at most `limit` bytes; past that the delivery is refused without reading the rest. */
async function readBody(request: Request, limit: number): Promise<string | 'too large'> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) return 'too large';
  if (!request.body) return '';
  const bytes = await readAtMost(request.body, limit);
  return bytes === null ? 'too large' : Buffer.from(bytes).toString('utf8');
}

async function receive(request: Request, options: IntakeOptions): Promise<Outcome> {
  if (request.method !== 'POST') return { status: 405, body: { error: 'use POST' } };
  if (!options.config.apiKey) return { status: 404, body: { error: 'webhook intake is not configured (WEBHOOK_API_KEY)' } };
  const rawBody = await readBody(request, options.config.maxBytes);
  if (rawBody === 'too large') return { status: 413, body: { error: `body exceeds ${options.config.maxBytes} bytes` } };
  const refused = checkSender(request, rawBody, options);
  if (refused) return refused;
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    return { status: 400, body: { error: 'body is not valid JSON' } };
  }
  const reading = readEvent(parsed);
  if (!reading.ok) return { status: 400, body: { error: reading.reason } };
  const { event } = reading;
  const accepted = await options.bus.accept(event, occurrenceKey(event, rawBody));
  if (accepted.status === 'unavailable') {
    return {
      status: 503,
      body: { error: `the event is not safely logged yet (${accepted.reason}): deliver it again`, id: event.id },
      retryAfter: RETRY_AFTER_SECONDS,
    };
  }
  if (accepted.status === 'accepted') options.onAccepted?.(event);
  if (accepted.status === 'duplicate') {
    options.logger.debug({ eventId: event.id, name: event.name, createdAt: event.createdAt }, 'repeated delivery of a bank event dropped');
    return { status: 200, body: { status: 'duplicate', id: event.id } };
  }
  options.logger.info({ eventId: event.id, name: event.name, createdAt: event.createdAt, cursor: accepted.cursor }, 'bank event published');
  return { status: 202, body: { status: 'accepted', id: event.id } };
}

/** The intake: a delivery in, the answer for the bank out. */
export type WebhookIntake = (request: Request) => Promise<Response>;

export function createWebhookIntake(options: IntakeOptions): WebhookIntake {
  return async (request) => {
    let outcome: Outcome;
    try {
      outcome = await receive(request, options);
    } catch (error) {
      options.logger.error({ err: error }, 'webhook intake failed');
      outcome = { status: 500, body: { error: 'internal error' } };
    }
    // 503: the bus says once that Redis is away or replicas are short, not once per delivery.
    if (outcome.status >= 400 && outcome.status !== 404 && outcome.status !== 503)
      options.logger.warn({ status: outcome.status, ...outcome.body }, 'webhook refused');
    options.onOutcome?.(outcome.status === 202 ? 'accepted' : outcome.status === 200 ? 'duplicate' : 'rejected', outcome.status);
    // The rest of an oversized body is never read, so the connection cannot carry another request.
    const headers = {
      'content-type': 'application/json',
      ...(outcome.status === 413 ? { connection: 'close' } : {}),
      ...(outcome.retryAfter ? { 'retry-after': String(outcome.retryAfter) } : {}),
    };
    return new Response(JSON.stringify(outcome.body), { status: outcome.status, headers });
  };
}
