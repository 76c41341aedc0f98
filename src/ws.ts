import type { IncomingMessage, Server } from 'node:http';
import { GraphQLError, type ExecutionArgs, type ExecutionResult, type FormattedExecutionResult } from 'graphql';
import type { Context } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import { isSocketRefusal, type CallerAuth } from './auth/index.ts';
import type { CallerIdentity } from './auth/identity.ts';
import type { Logger } from './logger.ts';
import { withTraceId } from './observability/tracing.ts';
import { GRAPHQL_PATH, type createGatewayYoga } from './yoga.ts';

type GatewayYoga = ReturnType<typeof createGatewayYoga>;
type Extra = { socket: WebSocket; request: IncomingMessage };

export interface GraphqlWsOptions {
  yoga: GatewayYoga;
  auth: CallerAuth;
  logger: Logger;
  /** The largest message a client may send (the same limit as an HTTP request body). */
  maxPayloadBytes: number;
}

export interface GraphqlWs {
  /** Sockets open now. */
  readonly connections: number;
  /**
   * Stops taking upgrades and closes every socket with `code` and `reason` (clients see why);
   * sockets that do not finish the closing handshake within `timeoutMs` are cut.
   */
  close(code?: number, reason?: string, timeoutMs?: number): Promise<void>;
}

/**
 * graphql-ws on the GraphQL path of `server`. A browser page from an origin not in ALLOWED_ORIGINS
 * is refused at the upgrade (HTTP 403, before any GraphQL message); the caller's credential is
 * checked at connection_init (refusals close with 4401/4403, or 1013 when it cannot be checked now),
 * and every operation then runs through Yoga's envelop as that caller.
 */
export function attachGraphqlWs(server: Server, options: GraphqlWsOptions): GraphqlWs {
  const { yoga, auth, logger } = options;
  const wsServer = new WebSocketServer({
    server,
    path: GRAPHQL_PATH,
    // ws closes the socket (1009) on a larger message before it is parsed.
    maxPayload: options.maxPayloadBytes,
    verifyClient: ({ req }: { req: IncomingMessage }, done: (ok: boolean, status?: number, message?: string) => void) => {
      const origin = req.headers.origin;
      if (auth.originAllowed(origin, req.headers.host)) return done(true);
      logger.info({ origin }, 'WebSocket upgrade refused: origin not allowed');
      done(false, 403, 'Origin not allowed');
    },
  });
  const callers = new WeakMap<Extra, CallerIdentity>();

  useServer<Record<string, unknown>, Extra>(
    {
      execute: (args) => (args.rootValue as { execute: (a: ExecutionArgs) => unknown }).execute(args) as never,
      subscribe: (args) => (args.rootValue as { subscribe: (a: ExecutionArgs) => unknown }).subscribe(args) as never,
      onConnect: async (ctx) => {
        const outcome = await auth.authorizeSocket(ctx.extra.request, ctx.connectionParams);
        if (!isSocketRefusal(outcome)) {
          callers.set(ctx.extra, outcome);
          return true;
        }
        // Our code and reason go first; graphql-ws's own 4403 after `false` is then a no-op.
        ctx.extra.socket.close(outcome.code, outcome.reason);
        return false;
      },
      onSubscribe: async (ctx, _id, payload) => operationArgs(ctx, payload, callers.get(ctx.extra)),
      // With tracing on, errors name the operation's trace, as over HTTP.
      onNext: (_ctx, _id, _payload, args, result) => withTraceId((args.contextValue as { request?: Request }).request, withoutHttp(result)),
    },
    wsServer,
  );
  // After graphql-ws's own connection listener: its socket 'error' handler prints a stack trace to
  // stderr for what is a client's fault (a message over maxPayload, a bad frame). ws has already
  // closed such a socket with the right code (1009, 1002); the gateway's log says what happened.
  // graphql-ws also prints the HTTP server's own errors (a port in use) that ws re-emits here; the
  // gateway's listen reports those itself, once and readably.
  wsServer.removeAllListeners('error');
  wsServer.on('error', (error: Error) => logger.debug({ reason: error.message }, 'WebSocket server: the HTTP server reported an error'));
  wsServer.on('connection', (socket) => {
    socket.removeAllListeners('error');
    socket.on('error', (error: Error & { code?: string }) => {
      logger.info({ code: error.code, reason: error.message }, 'WebSocket closed: the client broke the protocol or the size limit');
    });
  });

  /** Execution args through Yoga's envelop (plugins, context factory), as the socket's caller. */
  async function operationArgs(ctx: Context<Record<string, unknown>, Extra>, payload: { query: string; operationName?: string | null; variables?: Record<string, unknown> | null }, caller: CallerIdentity | undefined) {
    if (!caller) return [new GraphQLError('The connection was not authorised')];
    const request = new Request(`http://gateway${GRAPHQL_PATH}`, { headers: upgradeHeaders(ctx.extra.request) });
    auth.adopt(request, caller);
    // `req`: the upgrade, whose remote address keys an anonymous caller's fair share (yoga.ts).
    const enveloped = yoga.getEnveloped({ request, params: payload, req: ctx.extra.request });
    let document;
    try {
      document = enveloped.parse(payload.query);
    } catch (error) {
      if (error instanceof GraphQLError) return [error];
      throw error;
    }
    const errors = enveloped.validate(enveloped.schema, document);
    if (errors.length > 0) return errors;
    const args: ExecutionArgs = {
      schema: enveloped.schema,
      operationName: payload.operationName ?? null,
      document,
      variableValues: payload.variables ?? null,
      contextValue: await enveloped.contextFactory(),
      rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe },
    };
    return args;
  }

  return {
    get connections() {
      return wsServer.clients.size;
    },
    close: async (code = 1001, reason = 'server shutting down', timeoutMs = 1_000) => {
      const closed = new Promise<void>((resolve) => wsServer.close(() => resolve()));
      for (const client of wsServer.clients) client.close(code, reason);
      const timer = setTimeout(() => {
        for (const client of wsServer.clients) client.terminate();
      }, timeoutMs);
      await closed;
      clearTimeout(timer);
    },
  };
}

/**
 * A result without its errors' `extensions.http` (the status and headers a refusal gives on HTTP,
 * which Yoga leaves out of an HTTP body): a socket has no status, and the extensions say the rest.
 */
export function withoutHttp(result: ExecutionResult): FormattedExecutionResult | undefined {
  if (!result.errors?.some((error) => error.extensions?.http !== undefined)) return undefined;
  return {
    ...result,
    errors: result.errors.map((error) => {
      const { http: _http, ...extensions } = error.extensions ?? {};
      return { ...(typeof error.toJSON === 'function' ? error.toJSON() : error), extensions };
    }),
  } as FormattedExecutionResult;
}

/** The upgrade request's headers, minus credentials: the caller was already established from them. */
function upgradeHeaders(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === 'authorization' || name === 'x-api-key') continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}
