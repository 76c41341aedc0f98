import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

/**
 * Clients for the caller-authentication tests: graphql-ws outcomes and close codes, and upgrade
 * statuses (a JSON POST is test/helpers/http.ts's postGraphql).
 */

/** How a graphql-ws attempt ended: the first result, or the close code and reason. */
export type WsOutcome = { result: any } | { closed: { code: number; reason: string } };

/** Connects with `connectionParams` (and a browser's Origin, if given) and runs one operation. */
export function runWs(baseUrl: string, query: string, connectionParams: Record<string, unknown> = {}, origin?: string): Promise<WsOutcome> {
  class OriginSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, origin ? { origin } : {});
    }
  }
  const client = createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: OriginSocket,
    retryAttempts: 0,
    connectionParams,
    lazy: true,
  });
  return new Promise<WsOutcome>((resolve) => {
    let first: unknown;
    const unsubscribe = client.on('closed', (event) => {
      const { code, reason } = event as { code: number; reason: string };
      resolve({ closed: { code, reason: String(reason) } });
    });
    client.subscribe(
      { query },
      {
        next: (value) => {
          first ??= value;
          // A subscription keeps going: its first result is enough.
          unsubscribe();
          resolve({ result: value });
          void client.dispose();
        },
        error: () => {},
        complete: () => {
          unsubscribe();
          resolve({ result: first });
          void client.dispose();
        },
      },
    );
  });
}

/** A WebSocket upgrade as a browser page at `origin` would make it: the HTTP status it got. */
export function upgradeStatus(baseUrl: string, origin: string | undefined): Promise<{ status: number; messages: number }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', origin ? { origin } : {});
    let messages = 0;
    socket.on('message', () => (messages += 1));
    socket.on('unexpected-response', (_request, response) => {
      resolve({ status: response.statusCode ?? 0, messages });
      socket.terminate();
    });
    socket.on('open', () => {
      resolve({ status: 101, messages });
      socket.close();
    });
    socket.on('error', (error) => {
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
}
