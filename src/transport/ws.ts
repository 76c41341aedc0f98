import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { GraphQLError, type ExecutionArgs, type ExecutionResult, type FormattedExecutionResult } from 'graphql';
import { GRAPHQL_TRANSPORT_WS_PROTOCOL } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import { isSocketRefusal, type CallerAuth } from '../authentication/index.ts';
import type { CallerIdentity } from '../authentication/identity.ts';
import type { Logger } from '../platform/logger.ts';
import { withoutHttp } from './errors.ts';
import { withTraceId } from '../observability/tracing.ts';
import { textSocketDocuments, type SocketDocuments } from '../limits/persisted-queries.ts';
import { asError } from '../platform/as-error.ts';
import { carriedBySocket } from './incremental-delivery.ts';
import { coalesceSends } from './ws-sends.ts';
import { LEGACY_PROTOCOL, serveLegacyGraphqlWs, type OperationPayload, type SocketOperations } from './ws-legacy.ts';
import { GRAPHQL_PATH, type createGatewayYoga } from './yoga.ts';

type GatewayYoga = ReturnType<typeof createGatewayYoga>;
type Extra = { socket: WebSocket; request: IncomingMessage };

export interface GraphqlWsOptions {
  yoga: GatewayYoga;
  auth: CallerAuth;
  logger: Logger;
  /** The largest message a client may send (the same limit as an HTTP request body). */
  maxPayloadBytes: number;
  /** How an operation names its document: its text, or a persisted hash (default: its text only). */
  documents?: SocketDocuments | undefined;
  /** How often a socket on the legacy `graphql-ws` subprotocol is sent `ka` (default 12 s). */
  legacyKeepAliveMs?: number | undefined;
}

export interface GraphqlWs {
  /** Sockets open now, on either subprotocol. */
  readonly connections: number;
  /**
   * Stops taking upgrades and closes every socket with `code` and `reason` (clients see why);
   * sockets that do not finish the closing handshake within `timeoutMs` are cut.
   */
  close(code?: number, reason?: string, timeoutMs?: number): Promise<void>;
}

/**
 * GraphQL over WebSocket on the GraphQL path of `server`, in two subprotocols: graphql-ws's
 * `graphql-transport-ws`, and the legacy `graphql-ws` of subscriptions-transport-ws that Apollo
 * Kotlin and Apollo iOS speak by default (ws-legacy.ts); a client offering both gets the former. A
 * browser page from an origin not in ALLOWED_ORIGINS is refused at the upgrade (HTTP 403, before any
 * GraphQL message); the caller's credential is checked at connection_init (refusals close with
 * 4401/4403, or 1013 when it cannot be checked now), and every operation then runs through Yoga's
 * envelop as that caller.
 */
export function attachGraphqlWs(server: Server, options: GraphqlWsOptions): GraphqlWs {
  const { auth, logger } = options;
  const operations = socketOperations(options.yoga, auth, options.documents ?? textSocketDocuments);
  // One server per subprotocol, both on the upgrades this file routes (noServer): each keeps its own
  // sockets, and ws's checks (path, origin, maxPayload) are the same for both. Neither hears the HTTP
  // server's own errors (a port in use) either, which graphql-ws printed; the gateway's listen reports those.
  const socketServer = (handleProtocols?: (protocols: Set<string>) => string | false) =>
    new WebSocketServer({
      noServer: true,
      ...(handleProtocols ? { handleProtocols } : {}),
      // Another path is refused with 400, as ws refuses it when it listens on the server itself.
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
  // graphql-ws sets the protocol choice of its own server (graphql-transport-ws or none).
  const current = socketServer();
  const legacy = socketServer((protocols) => (protocols.has(LEGACY_PROTOCOL) ? LEGACY_PROTOCOL : false));
  const callers = new WeakMap<Extra, CallerIdentity>();
  /** Each socket's operations under way, by id: a closed socket ends them (graphql-ws returns only its subscriptions). */
  const running = new WeakMap<Extra, Map<string, ExecutionArgs>>();

  useServer<Record<string, unknown>, Extra>(
    {
      execute: (args) => operations.execute(args) as never,
      subscribe: (args) => operations.subscribe(args) as never,
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
      onSubscribe: async (ctx, id, payload) => {
        const args = await operations.prepare(ctx.extra.request, payload, callers.get(ctx.extra));
        if (!isErrors(args)) runningOn(running, ctx.extra).set(id, args);
        return args;
      },
      onComplete: (ctx, id) => void running.get(ctx.extra)?.delete(id),
      onClose: (ctx) => {
        for (const args of running.get(ctx.extra)?.values() ?? []) operations.end(args);
      },
      onNext: (_ctx, _id, _payload, args, result) => operations.format(args, result),
      onError: (_ctx, _id, _payload, errors) => operations.format(undefined, { errors }).errors,
    },
    current,
  );
  serveLegacyGraphqlWs(legacy, { auth, operations, logger, keepAliveMs: options.legacyKeepAliveMs });

  // After graphql-ws's own connection listener: its socket 'error' handler prints a stack trace to
  // stderr for what is a client's fault (a message over maxPayload, a bad frame). ws has already
  // closed such a socket with the right code (1009, 1002); the gateway's log says what happened.
  for (const wsServer of [current, legacy]) {
    wsServer.on('connection', (socket: WebSocket) => {
      coalesceSends(socket);
      socket.removeAllListeners('error');
      socket.on('error', (error: Error & { code?: string }) => {
        logger.info({ code: error.code, reason: error.message }, 'WebSocket closed: the client broke the protocol or the size limit');
      });
    });
  }

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const target = offersOnlyLegacy(request) ? legacy : current;
    target.handleUpgrade(request, socket, head, (ws) => target.emit('connection', ws, request));
  };
  server.on('upgrade', onUpgrade);

  return {
    get connections() {
      return current.clients.size + legacy.clients.size;
    },
    close: async (code = 1001, reason = 'server shutting down', timeoutMs = 1_000) => {
      server.off('upgrade', onUpgrade);
      await Promise.all([current, legacy].map((wsServer) => closeAll(wsServer, code, reason, timeoutMs)));
    },
  };
}

/**
 * The legacy subprotocol goes to ws-legacy.ts; everything else to graphql-ws, which prefers
 * graphql-transport-ws when both are offered and refuses a client offering neither as it always has
 * (no subprotocol in the handshake, then close 4406).
 */
function offersOnlyLegacy(request: IncomingMessage): boolean {
  // Read for routing only: ws checks the header's syntax (400) whichever server takes the upgrade.
  const offered = new Set((request.headers['sec-websocket-protocol'] ?? '').split(',').map((protocol) => protocol.trim()));
  return offered.has(LEGACY_PROTOCOL) && !offered.has(GRAPHQL_TRANSPORT_WS_PROTOCOL);
}

async function closeAll(wsServer: WebSocketServer, code: number, reason: string, timeoutMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => wsServer.close(() => resolve()));
  for (const client of wsServer.clients) client.close(code, reason);
  const timer = setTimeout(() => {
    for (const client of wsServer.clients) client.terminate();
  }, timeoutMs);
  await closed;
  clearTimeout(timer);
}

function runningOn(running: WeakMap<Extra, Map<string, ExecutionArgs>>, extra: Extra): Map<string, ExecutionArgs> {
  let operations = running.get(extra);
  if (!operations) running.set(extra, (operations = new Map()));
  return operations;
}

const isErrors = (value: ExecutionArgs | readonly GraphQLError[]): value is readonly GraphQLError[] => Array.isArray(value);

/**
 * How a socket's operation runs, the same on both subprotocols: through Yoga's envelop, as the
 * socket's caller, with a request whose signal is the client's: it fires when the client is done
 * with the operation (`end`), as an HTTP request's does when its connection closes.
 */
function socketOperations(yoga: GatewayYoga, auth: CallerAuth, documents: SocketDocuments): SocketOperations {
  const envelopOf = (args: ExecutionArgs) => args.rootValue as Pick<ReturnType<GatewayYoga['getEnveloped']>, 'execute' | 'subscribe'>;
  const clients = new WeakMap<ExecutionArgs, AbortController>();
  const end = (args: ExecutionArgs) => clients.get(args)?.abort();
  return {
    prepare: async (upgrade, payload, caller) => {
      const client = new AbortController();
      const args = await operationArgs(yoga, auth, documents, upgrade, payload, caller, client.signal);
      if (!isErrors(args)) clients.set(args, client);
      return args;
    },
    // A live query (@live) is a stream too: its client leaving ends it as a subscription's does.
    execute: async (args) =>
      endingWith((await envelopOf(args).execute(args)) as ExecutionResult | AsyncIterable<ExecutionResult>, () => end(args)) as never,
    // graphql-ws returns a subscription's stream when its client completes it or its socket closes.
    subscribe: async (args) =>
      endingWith((await envelopOf(args).subscribe(args)) as ExecutionResult | AsyncIterable<ExecutionResult>, () => end(args)) as never,
    end,
    // With tracing on, errors name the operation's trace, as over HTTP.
    format: (args, result) =>
      withTraceId(
        (args?.contextValue as { request?: Request } | undefined)?.request,
        withoutHttp(result) ?? (result as FormattedExecutionResult),
      ),
  };
}

/** Execution args through Yoga's envelop (plugins, context factory), as the socket's caller. */
async function operationArgs(
  yoga: GatewayYoga,
  auth: CallerAuth,
  documents: SocketDocuments,
  upgrade: IncomingMessage,
  payload: OperationPayload,
  caller: CallerIdentity | undefined,
  client: AbortSignal,
): Promise<ExecutionArgs | readonly GraphQLError[]> {
  if (!caller) return [new GraphQLError('The connection was not authorised')];
  const named = await documents(payload, upgradeHeaders(upgrade));
  if (named instanceof GraphQLError) return [named];
  // POST: Yoga refuses a mutation in a GET (a link could trigger one); a socket's operation is no link,
  // it came through the origin check and connection_init.
  const request = carriedBySocket(
    new Request(`http://gateway${GRAPHQL_PATH}`, { method: 'POST', headers: upgradeHeaders(upgrade), signal: client }),
  );
  auth.adopt(request, caller);
  // `req`: the upgrade, whose remote address keys an anonymous caller's fair share (yoga.ts).
  const enveloped = yoga.getEnveloped({ request, params: payload, req: upgrade });
  let document;
  try {
    document = enveloped.parse(named.query);
  } catch (error) {
    if (error instanceof GraphQLError) return [error];
    throw error;
  }
  const errors = enveloped.validate(enveloped.schema, document);
  if (errors.length > 0) return errors;
  const registering = named.validated?.();
  const contextValue = await enveloped.contextFactory();
  await registering;
  return {
    schema: enveloped.schema,
    operationName: payload.operationName ?? null,
    document,
    variableValues: payload.variables ?? null,
    contextValue,
    rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe },
  };
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

/** The stream, which fires `end` the moment it is returned or thrown into: an event read in progress stops there and then. */
function endingWith(
  outcome: ExecutionResult | AsyncIterable<ExecutionResult>,
  end: () => void,
): ExecutionResult | AsyncIterableIterator<ExecutionResult> {
  if (!(Symbol.asyncIterator in outcome)) return outcome;
  const stream = outcome[Symbol.asyncIterator]();
  const ending: AsyncIterableIterator<ExecutionResult> = {
    [Symbol.asyncIterator]() {
      return this;
    },
    next: () => stream.next(),
    return: (value?: unknown) => {
      end();
      return stream.return?.(value) ?? Promise.resolve({ done: true, value: undefined });
    },
    throw: (error?: unknown) => {
      end();
      return stream.throw?.(error) ?? Promise.reject(asError(error));
    },
  };
  return ending;
}
