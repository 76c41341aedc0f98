import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { DEMO_CREDENTIALS, type Sandbox } from '../src/index.ts';
import { call, type ApiResponse, type CallOptions } from './helpers.ts';

// Document 3: webhook management and the events delivered to subscribers.

export const SUBSCRIBE_PATH = '/api/subscribe';
export const HOOK_KEY = 'hook-key-1';

/** Section 4.1's headers: x-api-key and Content-Type, no bearer token. */
export function webhookCall(
  sandbox: Sandbox,
  method: string,
  path: string,
  options: Omit<CallOptions, 'method'> = {},
): Promise<ApiResponse> {
  const headers = { 'x-api-key': DEMO_CREDENTIALS.apiKey, 'content-type': 'application/json', ...options.headers };
  return call(sandbox, path, { ...options, method, headers });
}

export const bareError = (message: string): object => ({ message, status: 'ERROR' });
export const bareSuccess = (message: string): object => ({ message, status: 'SUCCESS' });

/** A `w` subscription body of agent AG1 / SUB1 of company CMP1 in the demo program. */
export function subscriptionBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    event_name: 'issuing.card.active',
    subscription_type: 'w',
    agent_code: 'AG1',
    subagent_code: 'SUB1',
    program_code: DEMO_CREDENTIALS.productId,
    company_code: 'CMP1',
    created_by: 'Jordan Miles',
    webhook_url: 'https://hooks.acme.example/banking',
    x_api_key: HOOK_KEY,
    ...overrides,
  };
}

/** Subscribes `url` to each event name (type `w`, key HOOK_KEY). */
export async function subscribe(sandbox: Sandbox, url: string, names: readonly string[]): Promise<void> {
  for (const event_name of names) {
    const response = await webhookCall(sandbox, 'POST', SUBSCRIBE_PATH, { body: subscriptionBody({ event_name, webhook_url: url }) });
    if (response.status !== 200) throw new Error(JSON.stringify(response.body));
  }
}

interface Received {
  headers: IncomingHttpHeaders;
  /** The raw body, as signed. */
  raw: string;
  body: any;
  /** performance.now() on arrival. */
  at: number;
}

/** A subscriber's endpoint: records every request and answers with the scripted statuses, then 200. */
export interface Receiver {
  url: string;
  received: Received[];
  /** The statuses of the next answers, in order. */
  answer(...statuses: number[]): void;
  /** Holds every answer this long. */
  delay(ms: number): void;
  clear(): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let script: number[] = [];
  let delayMs = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: req.headers, raw, body: JSON.parse(raw), at: performance.now() });
      const status = script.shift() ?? 200;
      setTimeout(() => res.writeHead(status).end(), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/banking`,
    received,
    answer: (...statuses) => {
      script = statuses;
    },
    delay: (ms) => {
      delayMs = ms;
    },
    clear: () => {
      received.length = 0;
      script = [];
      delayMs = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The envelopes delivered so far with this event name, waiting until there are `count`. */
export async function delivered(receiver: Receiver, name: string, count = 1): Promise<any[]> {
  const matching = () => receiver.received.filter((request) => request.body.name === name).map((request) => request.body);
  // Deliveries are asynchronous; under a loaded machine they can take more than the default second.
  await expect.poll(() => matching().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(count);
  return matching();
}

export function expectedSignature(secret: string, timestamp: string, raw: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex')}`;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
