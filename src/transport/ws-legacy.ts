import type { IncomingMessage } from 'node:http';
import { getOperationAST, GraphQLError, type ExecutionArgs, type ExecutionResult, type FormattedExecutionResult } from 'graphql';
import type { RawData, WebSocket, WebSocketServer } from 'ws';
import { isSocketRefusal, type CallerAuth } from '../authentication/index.ts';
import type { CallerIdentity } from '../authentication/identity.ts';
import type { Logger } from '../platform/logger.ts';

/**
 * The legacy `graphql-ws` subprotocol: the protocol of subscriptions-transport-ws
 * (subscriptions-transport-ws/PROTOCOL.md), which Apollo Kotlin and Apollo iOS speak by default.
 * subscriptions-transport-ws is deprecated (its README: "not being actively maintained", use
 * graphql-ws instead; its last release, 0.11.0, is of November 2021) and no maintained server
 * implements the protocol, so this small adapter does, with the rules of the graphql-transport-ws
 * path (ws.ts): the caller is established at connection_init by the same check, every operation
 * runs through the same SocketOperations, and faults close with graphql-ws's codes.
 *
 * Client → server: connection_init {payload: connectionParams}, start {id, payload: {query,
 * variables, operationName, extensions}}, stop {id}, connection_terminate. Server → client:
 * connection_ack, connection_error {payload: {message}}, ka, data {id, payload: result},
 * error {id, payload: {errors}}, complete {id}.
 */
export const LEGACY_PROTOCOL = 'graphql-ws';

/** As Yoga's SSE ping and graphql-ws's own pings: well inside the 30 s a subscriptions-transport-ws client waits for one. */
const DEFAULT_KEEP_ALIVE_MS = 12_000;

/** graphql-ws's wait for connection_init (connectionInitWaitTimeout). */
const INIT_TIMEOUT_MS = 3_000;

/** graphql-ws's close codes (CloseCode), for the same faults on this protocol. */
const CLOSE = {
  badRequest: 4400,
  unauthorized: 4401,
  initTimeout: 4408,
  duplicateId: 4409,
  tooManyInits: 4429,
  internal: 4500,
} as const;

/** What `start` carries: graphql-ws's SubscribePayload. */
export interface OperationPayload {
  /** Absent when the operation names its document by an APQ hash alone (`extensions.persistedQuery`). */
  query?: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
  extensions?: Record<string, unknown> | null;
}

type Outcome = ExecutionResult | AsyncIterable<ExecutionResult>;

/** What a socket's operation needs from the gateway: one implementation serves both subprotocols (ws.ts). */
export interface SocketOperations {
  /** Execution args through Yoga's envelop as `caller`, or the errors that refuse the operation before it runs. */
  prepare(
    upgrade: IncomingMessage,
    payload: OperationPayload,
    caller: CallerIdentity | undefined,
  ): Promise<ExecutionArgs | readonly GraphQLError[]>;
  execute(args: ExecutionArgs): Outcome | Promise<Outcome>;
  subscribe(args: ExecutionArgs): Outcome | Promise<Outcome>;
  /**
   * The client is done with the operation (it stopped it, or its socket closed): the operation's
   * signal fires, so its upstream calls stop (an event read in progress too). A subscription's
   * stream also fires it when it is returned.
   */
  end(args: ExecutionArgs): void;
  /** A result as the client gets it; `args` absent for an operation refused before it ran. */
  format(args: ExecutionArgs | undefined, result: ExecutionResult): FormattedExecutionResult;
}

export interface LegacyGraphqlWsOptions {
  auth: Pick<CallerAuth, 'authorizeSocket'>;
  operations: SocketOperations;
  logger: Logger;
  /** How often `ka` is sent and the socket pinged (default DEFAULT_KEEP_ALIVE_MS). */
  keepAliveMs?: number | undefined;
}

interface ServerMessage {
  type: 'connection_ack' | 'connection_error' | 'ka' | 'data' | 'error' | 'complete';
  id?: string;
  payload?: unknown;
}

/** A parsed client message, or why it is refused. */
type ClientMessage =
  | { type: 'connection_init'; payload: unknown }
  | { type: 'start'; id: string; payload: OperationPayload }
  | { type: 'stop'; id: string }
  | { type: 'connection_terminate' }
  | { refused: string };

/** Serves the legacy protocol on every socket `wsServer` accepts (ws.ts routes them there by subprotocol). */
export function serveLegacyGraphqlWs(wsServer: WebSocketServer, options: LegacyGraphqlWsOptions): void {
  wsServer.on('connection', (socket: WebSocket, upgrade: IncomingMessage) => legacyConnection(socket, upgrade, options));
}

/** One socket: its caller (once connection_init is answered) and its running operations by id. */
function legacyConnection(socket: WebSocket, upgrade: IncomingMessage, options: LegacyGraphqlWsOptions): void {
  const { logger } = options;
  /** Settles with the caller once connection_init is answered; undefined when it was refused. */
  let caller: Promise<CallerIdentity | undefined> | undefined;
  /** Each running operation's stop. */
  const running = new Map<string, () => void>();
  let stopKeepAlive = (): void => {};

  const initTimer = setTimeout(() => {
    if (!caller) refuse(CLOSE.initTimeout, 'Connection initialisation timeout');
  }, INIT_TIMEOUT_MS);

  /** The client broke the protocol: its fault, logged without a stack. */
  function refuse(code: number, reason: string, detail: Record<string, unknown> = {}): void {
    logger.info({ code, reason, ...detail }, 'WebSocket closed: the client broke the graphql-ws (legacy) protocol');
    socket.close(code, reason);
  }

  socket.on('message', (data: RawData) => {
    // What still arrives after the socket was closed (a refusal, a shutdown) is nobody's business.
    if (socket.readyState !== socket.OPEN) return;
    const message = parseClientMessage(data);
    if ('refused' in message) return refuse(CLOSE.badRequest, message.refused);
    switch (message.type) {
      case 'connection_init':
        if (caller) return refuse(CLOSE.tooManyInits, 'Too many initialisation requests');
        clearTimeout(initTimer);
        caller = authorize(message.payload);
        return;
      case 'start':
        // As graphql-ws: no operation before connection_init. One sent right after it (the
        // subscriptions-transport-ws client does) waits for its answer.
        if (!caller) return refuse(CLOSE.unauthorized, 'Unauthorized');
        if (running.has(message.id))
          return refuse(CLOSE.duplicateId, 'Subscriber for this id already exists', { id: message.id.slice(0, 64) });
        return void start(caller, message.id, message.payload);
      case 'stop':
        return running.get(message.id)?.();
      case 'connection_terminate':
        return socket.close(1000, 'Normal closure');
    }
  });

  socket.once('close', () => {
    clearTimeout(initTimer);
    stopKeepAlive();
    for (const stop of running.values()) stop();
  });

  async function authorize(params: unknown): Promise<CallerIdentity | undefined> {
    try {
      const outcome = await options.auth.authorizeSocket(upgrade, isObject(params) ? params : undefined);
      // Gone while its credential was checked: nothing to answer, and no keep-alive to start.
      if (socket.readyState !== socket.OPEN) return undefined;
      if (isSocketRefusal(outcome)) {
        // The client reads why from connection_error; the close code says the same as on graphql-transport-ws.
        send(socket, { type: 'connection_error', payload: { message: outcome.reason } });
        socket.close(outcome.code, outcome.reason);
        return undefined;
      }
      send(socket, { type: 'connection_ack' });
      stopKeepAlive = keepAlive(socket, options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS);
      return outcome;
    } catch (error) {
      logger.error({ err: error }, 'graphql-ws (legacy) connection_init failed');
      send(socket, { type: 'connection_error', payload: { message: 'Internal server error' } });
      socket.close(CLOSE.internal, 'Internal server error');
      return undefined;
    }
  }

  /** Runs one operation: `data` per result, then `complete`; `error` when it is refused before it runs. */
  async function start(connected: Promise<CallerIdentity | undefined>, id: string, payload: OperationPayload): Promise<void> {
    let stopped = false;
    let prepared: ExecutionArgs | undefined;
    let stream: AsyncIterator<ExecutionResult> | undefined;
    const stop = () => {
      stopped = true;
      running.delete(id);
      if (prepared) options.operations.end(prepared);
      void stream?.return?.();
    };
    running.set(id, stop);
    try {
      const identity = await connected;
      if (!identity || stopped) return;
      const args = await options.operations.prepare(upgrade, payload, identity);
      if (stopped) return;
      if (isErrors(args)) return operationError(id, args);
      prepared = args;
      const operation = getOperationAST(args.document, args.operationName);
      if (!operation) return operationError(id, [new GraphQLError('Unable to identify operation')]);
      const outcome = await (operation.operation === 'subscription' ? options.operations.subscribe : options.operations.execute)(args);
      if (!isAsyncIterable(outcome)) {
        if (!stopped) send(socket, { type: 'data', id, payload: options.operations.format(args, outcome) });
      } else {
        stream = outcome[Symbol.asyncIterator]();
        // Stopped while it was being set up: let go of it now.
        if (stopped) return void stream.return?.();
        for (let next = await stream.next(); !next.done && !stopped; next = await stream.next()) {
          await sent(socket, { type: 'data', id, payload: options.operations.format(args, next.value) });
        }
      }
      // Also after a stop, as subscriptions-transport-ws's server does (subscriptions-transport-ws/PROTOCOL.md).
      send(socket, { type: 'complete', id });
    } catch (error) {
      if (!stopped) operationFailed(id, error);
    } finally {
      if (running.get(id) === stop) running.delete(id);
    }
  }

  function operationError(id: string, errors: readonly GraphQLError[]): void {
    // An object, not graphql-transport-ws's array: Apollo Kotlin reads this payload as a map and Apollo
    // iOS as a response; subscriptions-transport-ws's client takes the `errors` out of it.
    send(socket, { type: 'error', id, payload: { errors: options.operations.format(undefined, { errors }).errors } });
  }

  /** An operation that threw: a GraphQL error is the caller's to read; anything else is ours, logged. */
  function operationFailed(id: string, error: unknown): void {
    if (error instanceof GraphQLError) return operationError(id, [error]);
    logger.error({ err: error, id: id.slice(0, 64) }, 'graphql-ws (legacy) operation failed');
    operationError(id, [new GraphQLError('Internal server error')]);
  }
}

/** A message's text: ws hands it over as a Buffer (its default binaryType), or in the other shapes a binaryType gives. */
function textOf(data: RawData | string): string {
  if (typeof data === 'string') return data;
  if (Buffer.isBuffer(data)) return data.toString();
  return (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)).toString();
}

/** A client message checked as graphql-ws checks its own (parseMessage): anything else is refused. */
export function parseClientMessage(data: RawData | string): ClientMessage {
  let message: unknown;
  try {
    message = JSON.parse(textOf(data));
  } catch {
    return { refused: 'Invalid message received: not JSON' };
  }
  if (!isObject(message) || typeof message.type !== 'string') return { refused: 'Invalid message received: no type' };
  switch (message.type) {
    case 'connection_init':
      return { type: 'connection_init', payload: message.payload };
    case 'connection_terminate':
      return { type: 'connection_terminate' };
    case 'stop':
      return hasId(message) ? { type: 'stop', id: message.id } : { refused: 'Invalid message received: stop needs an id' };
    case 'start':
      if (!hasId(message) || !isOperationPayload(message.payload))
        return { refused: 'Invalid message received: start needs an id and a payload with a query (or a persisted query hash)' };
      return { type: 'start', id: message.id, payload: message.payload };
    default:
      return { refused: 'Invalid message received: unknown type' };
  }
}

/**
 * The protocol's keep-alive: `ka` right after the ack and then every `intervalMs`. Each beat also
 * pings; a peer that has not answered the last ping by the next beat is gone, and its socket is cut
 * so its subscriptions end (as graphql-ws's server does on graphql-transport-ws).
 */
function keepAlive(socket: WebSocket, intervalMs: number): () => void {
  let answered = true;
  socket.on('pong', () => (answered = true));
  const beat = () => {
    if (!answered) return socket.terminate();
    answered = false;
    socket.ping();
    send(socket, { type: 'ka' });
  };
  beat();
  const timer = setInterval(beat, intervalMs);
  return () => clearInterval(timer);
}

function send(socket: WebSocket, message: ServerMessage): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}

/**
 * Resolves once ws has taken the message (at once while the client keeps up: ws-sends.ts), as
 * graphql-ws waits for each of its own: a client that stops reading leaves its next events in its
 * subscription's bounded queue (events/fanout.ts), not in the socket's buffer without end. A failed
 * write closes the socket, which stops the operation.
 */
function sent(socket: WebSocket, message: ServerMessage): Promise<void> {
  if (socket.readyState !== socket.OPEN) return Promise.resolve();
  return new Promise((resolve) => socket.send(JSON.stringify(message), () => resolve()));
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isNullish = (value: unknown): boolean => value === null || value === undefined;
const hasId = (message: Record<string, unknown>): message is Record<string, unknown> & { id: string } =>
  typeof message.id === 'string' && message.id.length > 0;

function isOperationPayload(payload: unknown): payload is OperationPayload {
  return (
    isObject(payload) &&
    (typeof payload.query === 'string' ||
      (isNullish(payload.query) && isObject(payload.extensions) && isObject(payload.extensions.persistedQuery))) &&
    (isNullish(payload.variables) || isObject(payload.variables)) &&
    (isNullish(payload.operationName) || typeof payload.operationName === 'string') &&
    (isNullish(payload.extensions) || isObject(payload.extensions))
  );
}

const isErrors = (value: ExecutionArgs | readonly GraphQLError[]): value is readonly GraphQLError[] => Array.isArray(value);
const isAsyncIterable = (value: Outcome): value is AsyncIterable<ExecutionResult> =>
  typeof (value as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function';
