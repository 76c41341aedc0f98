import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { record } from './leak-scan.ts';

/**
 * Subscription clients for tests, as a browser would use them: graphql-ws over WebSocket, and
 * GraphQL over server-sent events (Yoga's single-connection-per-operation mode).
 */

/** The gateway a test subscribes to: where it listens, and how many subscriptions it has open. */
export interface Listening {
  baseUrl: string | undefined;
  gateway: { events: { activeSubscriptions(): number } };
}

/** Resolves once the gateway has more open subscriptions than `before`: events sent after that reach us. */
async function registered(target: Listening, before: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (target.gateway.events.activeSubscriptions() <= before) {
    if (Date.now() > deadline) throw new Error('the subscription was not registered by the gateway');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export interface Subscription<T = any> {
  /** Everything received so far. */
  received: T[];
  /** Resolves when `count` results have arrived (rejects after `timeoutMs`). */
  next(count?: number, timeoutMs?: number): Promise<T[]>;
  close(): Promise<void>;
}

function collector<T>(): { received: T[]; push(value: T): void; next(count?: number, timeoutMs?: number): Promise<T[]> } {
  const received: T[] = [];
  let waiters: (() => void)[] = [];
  return {
    received,
    push(value) {
      received.push(value);
      // A waiter that still wants more registers itself again: take the list before waking them.
      const waking = waiters;
      waiters = [];
      for (const wake of waking) wake();
    },
    next(count = received.length + 1, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${count} results, got ${received.length}: ${JSON.stringify(received)}`)), timeoutMs);
        const check = () => {
          if (received.length >= count) {
            clearTimeout(timer);
            resolve(received.slice());
          } else waiters.push(check);
        };
        check();
      });
    },
  };
}

export async function subscribeWs<T = any>(
  target: Listening,
  query: string,
  variables: Record<string, unknown> = {},
  connectionParams: Record<string, unknown> = {},
): Promise<Subscription<T>> {
  const results = collector<T>();
  const before = target.gateway.events.activeSubscriptions();
  const client = createClient({
    url: `${target.baseUrl!.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams,
  });
  const dispose = client.subscribe<T>({ query, variables }, { next: (value) => (record('graphql-ws message', JSON.stringify(value)), results.push(value as T)), error: () => {}, complete: () => {} });
  await registered(target, before);
  return { ...results, close: async () => { dispose(); await client.dispose(); } };
}

export async function subscribeSse<T = any>(
  target: Listening,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Subscription<T>> {
  const results = collector<T>();
  const before = target.gateway.events.activeSubscriptions();
  const abort = new AbortController();
  const response = await fetch(`${target.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ query, variables }),
    signal: abort.signal,
  });
  if (!response.ok || !response.body) throw new Error(`SSE subscription failed: ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = message.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n');
          if (/^event: next/m.test(message) && data) results.push(JSON.parse(data) as T);
        }
      }
    } catch {
      // Aborted by close().
    }
  })();
  await registered(target, before);
  return { ...results, close: async () => abort.abort() };
}
