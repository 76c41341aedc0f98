import { createClient } from 'graphql-ws';
import { SubscriptionClient } from 'subscriptions-transport-ws';
import WebSocket from 'ws';
import { record } from './leak-scan.ts';
import { until } from './wait.ts';

/**
 * Subscription clients for tests, as a browser would use them: graphql-ws over WebSocket, and
 * GraphQL over server-sent events (Yoga's single-connection-per-operation mode); and as Apollo
 * Kotlin and iOS do by default, the legacy `graphql-ws` subprotocol (subscriptions-transport-ws).
 */

/** The gateway a test subscribes to: where it listens, and how many subscriptions it has open. */
export interface Listening {
  baseUrl: string | undefined;
  gateway: { events: { activeSubscriptions(): number } };
}

/** Resolves once the gateway has more open subscriptions than `before`: events sent after that reach us. */
function registered(target: Listening, before: number): Promise<void> {
  return until('the gateway to register the subscription', () => target.gateway.events.activeSubscriptions() > before);
}

/**
 * Closes a registered subscription and waits until the gateway has let go of it, so the next test's
 * count of open subscriptions does not start from one still closing.
 */
async function closed(target: Listening, close: () => Promise<void> | void, endedByServer: () => boolean): Promise<void> {
  const before = target.gateway.events.activeSubscriptions();
  const wasOpen = !endedByServer();
  await close();
  if (!wasOpen) return;
  await until('the gateway to end the subscription', () => target.gateway.events.activeSubscriptions() < before);
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
        const timer = setTimeout(
          () => reject(new Error(`timed out waiting for ${count} results, got ${received.length}: ${JSON.stringify(received)}`)),
          timeoutMs,
        );
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

/** `registered: false` for a subscription the gateway refuses: nothing to wait for, its error is the one result. */
export interface SubscribeOptions {
  registered?: boolean;
}

export async function subscribeWs<T = any>(
  target: Listening,
  query: string,
  variables: Record<string, unknown> = {},
  connectionParams: Record<string, unknown> = {},
  options: SubscribeOptions = {},
): Promise<Subscription<T>> {
  const results = collector<T>();
  const before = target.gateway.events.activeSubscriptions();
  const client = createClient({
    url: `${target.baseUrl!.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams,
  });
  let ended = false;
  const dispose = client.subscribe<T>(
    { query, variables },
    {
      next: (value) => (record('graphql-ws message', JSON.stringify(value)), results.push(value as T)),
      error: () => (ended = true),
      complete: () => (ended = true),
    },
  );
  if (options.registered === false)
    return {
      ...results,
      close: async () => {
        dispose();
        await client.dispose();
      },
    };
  await registered(target, before);
  return {
    ...results,
    close: () =>
      closed(
        target,
        async () => {
          dispose();
          await client.dispose();
        },
        () => ended,
      ),
  };
}

/**
 * The same over the legacy `graphql-ws` subprotocol, with subscriptions-transport-ws's own client at
 * its defaults. An operation refused before it runs reaches that client as an error: it is the one
 * result, `{ errors: [error] }`.
 */
export async function subscribeLegacyWs<T = any>(
  target: Listening,
  query: string,
  variables: Record<string, unknown> = {},
  connectionParams: Record<string, unknown> = {},
  options: SubscribeOptions = {},
): Promise<Subscription<T> & { client: SubscriptionClient }> {
  const results = collector<T>();
  const before = target.gateway.events.activeSubscriptions();
  const client = new SubscriptionClient(`${target.baseUrl!.replace(/^http/, 'ws')}/graphql`, { connectionParams }, WebSocket);
  let ended = false;
  const { unsubscribe } = client.request({ query, variables }).subscribe({
    next: (value) => (record('graphql-ws (legacy) message', JSON.stringify(value)), results.push(value as T)),
    error: (error) => {
      ended = true;
      record('graphql-ws (legacy) message', JSON.stringify(error));
      results.push({ errors: [error] } as T);
    },
    complete: () => (ended = true),
  });
  // unsubscribe sends `stop`: the gateway lets go of the subscription on the open socket.
  const close = async () => {
    unsubscribe();
    client.close();
  };
  if (options.registered === false) return { ...results, client, close };
  await registered(target, before);
  return { ...results, client, close: () => closed(target, close, () => ended) };
}

export async function subscribeSse<T = any>(
  target: Listening,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  options: SubscribeOptions = {},
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
  let ended = false;
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return void (ended = true);
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = message
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trim())
            .join('\n');
          if (/^event: next/m.test(message) && data) results.push(JSON.parse(data) as T);
          if (/^event: complete/m.test(message)) ended = true;
        }
      }
    } catch {
      // Aborted by close().
    }
  })();
  if (options.registered === false) return { ...results, close: async () => abort.abort() };
  await registered(target, before);
  return {
    ...results,
    close: () =>
      closed(
        target,
        () => abort.abort(),
        () => ended,
      ),
  };
}
