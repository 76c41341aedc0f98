import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { CallerAuth } from './auth/index.ts';
import type { ResilienceConfig } from './config.ts';
import type { Logger } from './logger.ts';
import type { UpstreamRuntime } from './upstream/index.ts';
import { GRAPHQL_PATH, type createGatewayYoga } from './yoga.ts';

type GatewayYoga = ReturnType<typeof createGatewayYoga>;

export interface GatewayServerOptions {
  yoga: GatewayYoga;
  auth: CallerAuth;
  resilience: ResilienceConfig;
  upstream: UpstreamRuntime;
  upstreamBaseUrl: string;
  logger: Logger;
  /** POST /webhooks: the bank's event deliveries. */
  webhookIntake: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** Closes what the server's owner opened (the event bus), after the last request. */
  onStop?: () => Promise<void>;
}

export interface GatewayServer {
  server: Server;
  listen(port: number, host: string): Promise<{ url: string; port: number }>;
  /** Stops taking work, lets in-flight requests finish (up to `graceMs`), then closes everything. */
  stop(graceMs?: number): Promise<void>;
}

/** Readiness: the upstream answers and a token can be had (ours, when we have credentials). */
async function readiness(upstream: UpstreamRuntime, baseUrl: string): Promise<{ ready: boolean; detail: string }> {
  try {
    if (upstream.tokens) {
      await upstream.tokens.get();
      return { ready: true, detail: 'upstream reachable, token obtained' };
    }
    // Without credentials any HTTP answer proves reachability; callers bring their own tokens.
    const response = await fetch(baseUrl, { method: 'HEAD', signal: AbortSignal.timeout(3_000) });
    await response.body?.cancel();
    return { ready: true, detail: `upstream reachable (HTTP ${response.status}); no gateway credentials, callers send tokens` };
  } catch (error) {
    return { ready: false, detail: `upstream not ready: ${(error as Error).message}` };
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

export const WEBHOOK_PATH = '/webhooks';

/** HTTP (Yoga, with SSE subscriptions), graphql-ws on the same path, webhook intake, health, graceful stop. */
export function createGatewayServer(options: GatewayServerOptions): GatewayServer {
  const { yoga, upstream, logger } = options;
  let stopping = false;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') return sendJson(res, 200, { status: 'ok' });
    if (path === '/readyz') {
      if (stopping) return sendJson(res, 503, { status: 'stopping' });
      void readiness(upstream, options.upstreamBaseUrl).then(({ ready, detail }) =>
        sendJson(res, ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', detail }),
      );
      return;
    }
    if (path === WEBHOOK_PATH) {
      void options.webhookIntake(req, res);
      return;
    }
    if (path === '/') {
      res.writeHead(302, { location: GRAPHQL_PATH });
      res.end();
      return;
    }
    void yoga.handle(req, res);
  });

  const wsServer = new WebSocketServer({ server, path: GRAPHQL_PATH });
  useServer(
    {
      execute: (args) => (args.rootValue as { execute: (a: ExecutionArgs) => unknown }).execute(args) as never,
      subscribe: (args) => (args.rootValue as { subscribe: (a: ExecutionArgs) => unknown }).subscribe(args) as never,
      onSubscribe: async (ctx, _id, payload) => {
        // A bearer token travels in connectionParams.authorization, as browsers cannot set WS headers.
        const params = ctx.connectionParams as { authorization?: string } | undefined;
        const headers = new Headers(ctx.extra.request.headers as Record<string, string>);
        if (params?.authorization) headers.set('authorization', params.authorization);
        const request = new Request(`http://gateway${GRAPHQL_PATH}`, { headers });
        const enveloped = yoga.getEnveloped({ request, params: payload });
        const args: ExecutionArgs = {
          schema: enveloped.schema,
          operationName: payload.operationName ?? null,
          document: enveloped.parse(payload.query),
          variableValues: payload.variables ?? null,
          // Yoga's own context factory reads the bearer token from the request built above.
          contextValue: await enveloped.contextFactory(),
          rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe },
        };
        const errors = enveloped.validate(args.schema, args.document);
        return errors.length > 0 ? errors : args;
      },
    },
    wsServer,
  );

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
    stop: async (graceMs = 10_000) => {
      stopping = true;
      for (const client of wsServer.clients) client.close(1001, 'server shutting down');
      wsServer.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearTimeout(timer);
      await upstream.close();
      await options.onStop?.();
      logger.info('gateway stopped');
    },
  };
}
