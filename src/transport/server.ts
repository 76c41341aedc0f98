import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CallerAuth } from '../authentication/index.ts';
import { WEBHOOK_PATH } from '../events/intake.ts';
import type { Logger } from '../platform/logger.ts';
import type { SocketDocuments } from '../limits/persisted-queries.ts';
import type { UpstreamRuntime } from '../upstream/index.ts';
import { attachGraphqlWs } from './ws.ts';
import { GRAPHQL_PATH, type createGatewayYoga } from './yoga.ts';

type GatewayYoga = ReturnType<typeof createGatewayYoga>;

export interface GatewayServerOptions {
  yoga: GatewayYoga;
  auth: CallerAuth;
  /** The largest request body or WebSocket message accepted. */
  maxBodyBytes: number;
  /** How long a client has to send a whole request (headers and body) before its connection is closed with 408. */
  clientRequestTimeoutMs: number;
  /** How a WebSocket operation names its document: text, or a persisted hash (limits/documents.ts). */
  socketDocuments: SocketDocuments;
  upstream: UpstreamRuntime;
  logger: Logger;
  /** Ends every open subscription with a proper completion (the event bus), first thing on stop. */
  endSubscriptions?: () => Promise<void>;
  /** Closes what the server's owner opened (the event bus), after the last request. */
  onStop?: () => Promise<void>;
}

export interface GatewayServer {
  server: Server;
  listen(port: number, host: string): Promise<{ url: string; port: number }>;
  /**
   * Graceful stop: /readyz turns 503 and new work is refused; subscriptions are completed and
   * WebSockets closed with 1001; in-flight operations get up to `graceMs` to finish; then every
   * connection, the upstream pools and the event bus are closed.
   */
  stop(graceMs?: number): Promise<void>;
  /** HTTP requests being answered now. */
  readonly inFlight: number;
  /** From the start of `stop` on: /readyz answers 503 (routes/readyz.ts). */
  readonly stopping: boolean;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

/** What a request that arrives on a kept-alive connection during the stop gets: try another instance. */
const SHUTTING_DOWN = {
  errors: [
    { message: 'The gateway is shutting down: retry the request (another instance will answer).', extensions: { code: 'SHUTTING_DOWN' } },
  ],
};

/**
 * node:http's bounds on a client still sending its request: the headers and the whole request within
 * `requestMs` (node:http's defaults, 60 s and 300 s, let a client that sends a byte now and then hold
 * a connection for minutes: a few thousand such take every file descriptor), checked every second
 * (its default checks every 30 s). A stream's or a WebSocket's life after its request is not bounded.
 */
function clientTimeouts(requestMs: number) {
  return { requestTimeout: requestMs, headersTimeout: requestMs, connectionsCheckingInterval: Math.min(1_000, requestMs) };
}

/**
 * HTTP (Yoga, with SSE subscriptions and the routes outside GraphQL: routes/), graphql-ws on the
 * same path, graceful stop.
 */
export function createGatewayServer(options: GatewayServerOptions): GatewayServer {
  const { yoga, upstream, logger } = options;
  let stopping = false;
  const inFlight = new Set<ServerResponse>();
  let drained: (() => void) | undefined;

  const server = createServer(clientTimeouts(options.clientRequestTimeoutMs), (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    // The stop's own refusal stays here rather than in a plugin: it is the drain's (this server's
    // state, and the connection it closes so a kept-alive client reconnects to another instance).
    // The bank redelivers a refused event later, to an instance that is up.
    if (stopping && (path === GRAPHQL_PATH || path === WEBHOOK_PATH)) {
      return sendJson(res, 503, SHUTTING_DOWN, { connection: 'close', 'retry-after': '1' });
    }
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      if (inFlight.size === 0) drained?.();
    });
    void yoga.handle(req, res);
  });

  const graphqlWs = attachGraphqlWs(server, {
    yoga,
    auth: options.auth,
    logger,
    maxPayloadBytes: options.maxBodyBytes,
    documents: options.socketDocuments,
  });

  /** Resolves true when every in-flight request has been answered, false when `graceMs` ran out first. */
  const drain = (graceMs: number): Promise<boolean> =>
    new Promise((resolve) => {
      if (inFlight.size === 0) return resolve(true);
      const timer = setTimeout(() => resolve(false), graceMs);
      drained = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });

  return {
    server,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const address = server.address();
          const bound = typeof address === 'object' && address ? address.port : port;
          const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
          resolve({ url: `http://${shownHost}:${bound}${GRAPHQL_PATH}`, port: bound });
        });
      }),
    get inFlight() {
      return inFlight.size;
    },
    get stopping() {
      return stopping;
    },
    stop: async (graceMs = 10_000) => {
      stopping = true;
      const started = performance.now();
      logger.info({ inFlight: inFlight.size, sockets: graphqlWs.connections, graceMs }, 'stopping: draining');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Subscriptions complete first (SSE streams end, graphql-ws sends `complete`), then sockets close.
      await options.endSubscriptions?.();
      // graphql-ws sends each `complete` on a later tick; closing the socket at once would turn it into an error.
      await sleep(50);
      await graphqlWs.close(1001, 'server shutting down');
      const cutShort = (await drain(graceMs)) ? 0 : inFlight.size;
      server.closeAllConnections();
      await closed;
      await upstream.close(cutShort > 0);
      await options.onStop?.();
      logger.info({ ms: Math.round(performance.now() - started), cutShort }, 'gateway stopped');
    },
  };
}
