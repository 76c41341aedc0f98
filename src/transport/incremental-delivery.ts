import {
  getOperationAST,
  getVariableValues,
  GraphQLError,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLDirective,
} from 'graphql';
import { isAsyncIterable, processRegularResult, type Plugin } from 'graphql-yoga';
import { directivesReached, fragmentsOf, namesAnyDirective } from '../platform/reached-directives.ts';
import { mediaRanges, multipartSubscriptions } from './multipart-subscriptions.ts';

/** The media types an operation with @defer or @stream can be answered in. */
const INCREMENTAL_MEDIA_TYPES = ['multipart/mixed', 'text/event-stream'];

/** The media types a subscription can be answered in over HTTP; graphql-ws is on the same path. */
const SUBSCRIPTION_MEDIA_TYPES = ['text/event-stream', 'multipart/mixed;subscriptionSpec=1.0'];
const SUBSCRIPTION_WEBSOCKET_PROTOCOL = 'graphql-transport-ws';

/** An Accept header is quoted back in a refusal, but not at any length. */
const MAX_QUOTED_ACCEPT = 200;

export interface IncrementalDeliveryOptions {
  /** Between heartbeats of a multipart subscription (multipart-subscriptions.ts); 5 s unless given. */
  multipartHeartbeatMs?: number;
  /**
   * Which stream of events `request` runs, if any: a subscription, or a live query (each push a
   * result). Given by a server that already keeps per-request state (transport/yoga.ts); without
   * it, subscriptions are told apart by one more hook, as Yoga's own result processors do.
   */
  eventStreamOf?: (request: Request) => EventStream | undefined;
}

export type EventStream = 'subscription' | 'live query';

/**
 * Answers in more than one part over HTTP: `@defer` and `@stream` (Yoga's defer-stream plugin, which
 * the request path lists between these) over multipart or SSE; subscriptions over SSE (Yoga's own)
 * and over multipart in Apollo's protocol (multipart-subscriptions.ts). A caller whose Accept allows
 * none of these for its operation gets, instead of Yoga's bare 406, a GraphQL error saying what it
 * sent and what would work, before anything runs. Every Accept is read by one parser (`mediaRanges`).
 */
export interface IncrementalDelivery {
  /** An Accept that allows no answer at all: a 406 before anything runs. */
  answerableAcceptOnly: Plugin;
  /** An operation answered in parts, or a subscription, whose Accept takes no such answer: refused before it runs. */
  streamFormAccepted: Plugin;
  /** Which requests are subscriptions: only without `eventStreamOf`, which already says so. */
  subscriptionsNoted: Plugin | undefined;
  /** How a stream's result goes out: Apollo's multipart, a refusal that says what would work, a refusal inside an event stream. */
  streamAnswers: Plugin;
}

/** The plugins of answers in parts, sharing what they learn of each request. */
export function incrementalDelivery(options: IncrementalDeliveryOptions = {}): IncrementalDelivery {
  const subscriptions = new WeakSet<Request>();
  const eventStreamOf = options.eventStreamOf ?? ((request: Request) => (subscriptions.has(request) ? 'subscription' : undefined));
  const streamsEvents = (request: Request) => eventStreamOf(request) !== undefined;
  const multipart = multipartSubscriptions({ streamsEvents, heartbeatMs: options.multipartHeartbeatMs });
  const refused = new WeakMap<Request, Refusal>();
  const notAcceptable = notAcceptableRefusal(eventStreamOf, refused);
  return {
    answerableAcceptOnly: useAnswerableAcceptOnly(),
    streamFormAccepted: useStreamFormAccepted(refused),
    subscriptionsNoted: options.eventStreamOf ? undefined : useSubscriptionsNoted(subscriptions),
    streamAnswers: useStreamAnswers(multipart, notAcceptable),
  };
}

/** Requests made for a WebSocket's operations (ws.ts): a socket carries every result as a message of its own, whatever its upgrade's Accept said. */
const overSockets = new WeakSet<Request>();

/** Marks a request as a WebSocket operation's: no Accept of it is checked. */
export function carriedBySocket(request: Request): Request {
  overSockets.add(request);
  return request;
}

const INCREMENTAL_DIRECTIVES = new Set(['defer', 'stream']);

/**
 * An operation answered in parts (an @defer or @stream that is on, with the variables, wherever it
 * sits) or a subscription, from a caller whose Accept allows no such answer, is refused before it
 * runs: after it ran, the refusal would come once the bank had been read, and for a mutation once
 * the bank had done what it asked. The 406 says what to send instead; a live query's first result
 * goes out in JSON (notAcceptableRefusal), so it is never refused here.
 */
function useStreamFormAccepted(refused: WeakMap<Request, Refusal>): Plugin {
  const callerOf = (args: ExecutionArgs) => {
    const request = (args.contextValue as { request?: Request }).request;
    return request && !overSockets.has(request) ? request : undefined;
  };
  // The refusal is answered by notAcceptableRefusal, in JSON whatever the caller accepts, as a 406 found later is.
  const refuse = (request: Request, refusal: Refusal, stop: (result: ExecutionResult) => void) => {
    refused.set(request, refusal);
    stop({ errors: [new GraphQLError(refusal.message, { extensions: refusal.extensions })] });
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const request = callerOf(args);
      if (!request || takesAny(request, INCREMENTAL_MEDIA_TYPES) || !answeredInParts(args)) return;
      refuse(request, incrementalRefusal(request), setResultAndStopExecution);
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const request = callerOf(args);
      if (!request || takesAny(request, SUBSCRIPTION_MEDIA_TYPES)) return;
      refuse(request, subscriptionRefusal(request), setResultAndStopExecution);
    },
  };
}

/** A 406's one error: what the caller sent and what would work. */
interface Refusal {
  message: string;
  extensions: Record<string, unknown>;
}

/** Whether the request's Accept (none: anything) takes one of `media` (a type, with at most one parameter it must carry). */
function takesAny(request: Request, media: readonly string[]): boolean {
  const ranges = mediaRanges(request.headers.get('accept') || '*/*');
  return media.some((wanted) => {
    const [type = '', parameter] = wanted.split(';');
    const [name = '', value] = (parameter ?? '').split('=');
    return ranges.some(
      (range) =>
        takes(range.type, type) && (parameter === undefined || range.type !== type || range.params.get(name.toLowerCase()) === value),
    );
  });
}

/** Whether the operation that runs has an @defer or @stream that is on: the walk only for a document that names one. */
function answeredInParts({ schema, document, operationName, variableValues }: ExecutionArgs): boolean {
  if (!namesIncremental(document)) return false;
  const operation = getOperationAST(document, operationName);
  if (!operation) return false;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variableValues ?? {});
  // Variables that do not fit are refused by the limits (limits/operation-limits.ts), with where.
  if (coerced.errors) return false;
  const definitions = new Map<string, GraphQLDirective>();
  for (const name of INCREMENTAL_DIRECTIVES) {
    const definition = schema.getDirective(name);
    if (definition) definitions.set(name, definition);
  }
  return directivesReached(operation, fragmentsOf(document), INCREMENTAL_DIRECTIVES, { values: coerced.coerced, definitions }).length > 0;
}

/** Documents are parsed once and cached (Yoga's parser cache): whether one names @defer or @stream is kept beside it. */
const namingIncremental = new WeakMap<DocumentNode, boolean>();
function namesIncremental(document: DocumentNode): boolean {
  let names = namingIncremental.get(document);
  if (names === undefined) namingIncremental.set(document, (names = namesAnyDirective(document, INCREMENTAL_DIRECTIVES)));
  return names;
}

/**
 * How a result that is not a plain query's goes out, in this order: Apollo's multipart for a stream
 * of events; a refusal (or, for a live query, its first result) when nothing the caller accepts can
 * carry the stream; a 400 refusal inside an event stream for a client that takes nothing else. One
 * hook for the three: Yoga makes a payload and a chain of promise helpers for every hook of every
 * request, and most requests are none of these.
 */
function useStreamAnswers(
  multipart: (payload: ResultProcessArgs) => boolean,
  notAcceptable: (payload: ResultProcessArgs) => boolean,
): Plugin {
  return {
    onResultProcess: (payload) => {
      if (multipart(payload)) return;
      if (notAcceptable(payload)) return;
      refusalInEventStream(payload);
    },
  };
}

/** As Yoga's own result processors tell a subscription apart: by its reaching subscribe. */
function useSubscriptionsNoted(subscriptions: WeakSet<Request>): Plugin {
  return {
    onSubscribe: ({ args }) => {
      const request = (args.contextValue as { request?: Request }).request;
      if (request) subscriptions.add(request);
    },
  };
}

type ResultProcessArgs = Parameters<NonNullable<Plugin['onResultProcess']>>[0];
type ResultProcessor = Parameters<ResultProcessArgs['setResultProcessor']>[0];
type Message = Parameters<typeof processRegularResult>[0];

/**
 * A refusal of the operation before execution (a limit, a bad variable: HTTP 400) answered to a client that
 * accepts only an event stream goes out as a `next` event of a 200 stream, as GraphQL over SSE
 * requires: graphql-sse, like the browser's EventSource, takes any other status for a failed
 * connection and never reads the body (graphql-sse retries it, then reports a bare "400 Bad
 * Request"). The code and the rest stay in the error's extensions.
 */
function refusalInEventStream({ request, result, setResult }: ResultProcessArgs): void {
  if (isAsyncIterable(result)) return;
  const errors = (result as ExecutionResult).errors;
  if (!errors?.length) return;
  const statuses = errors.map((error) => error.extensions?.http?.status).filter((status) => status !== undefined);
  // Only the operation's own faults (400): a refused caller (401, 403) or a spent window (429)
  // keeps its status and headers, which say what to do before any stream could start.
  if (statuses.length === 0 || statuses.some((status) => status !== 400)) return;
  if (!acceptsOnlyEventStream(request.headers.get('accept'))) return;
  // Status 200; Yoga leaves `http` out of the body.
  setResult({ ...(result as ExecutionResult), errors: errors.map(answeredInStream) });
}

function answeredInStream(error: GraphQLError): GraphQLError {
  const http = error.extensions?.http;
  if (!http) return error;
  const { nodes, source, positions, path, originalError } = error;
  return new GraphQLError(error.message, {
    nodes,
    source,
    positions,
    path,
    originalError,
    extensions: { ...error.extensions, http: { ...http, status: 200 } },
  });
}

const JSON_TYPES = ['application/json', 'application/graphql-response+json'];
/** What any answer of the gateway can be sent as: JSON, or a stream (events, parts). */
const ANSWER_MEDIA_TYPES = [...JSON_TYPES, 'text/event-stream', 'multipart/mixed'];

/** Whether a media range of an Accept header (`*\/*`, `text/*`, `text/event-stream`) takes `media`. */
const takes = (range: string, media: string) =>
  range === '*/*' || range === media || (range.endsWith('/*') && media.startsWith(range.slice(0, -1)));

/** Yoga answers a single result as an event stream only when the client takes no JSON. */
function acceptsOnlyEventStream(accept: string | null): boolean {
  const types = mediaRanges(accept).map((range) => range.type);
  return types.includes('text/event-stream') && !types.some((type) => JSON_TYPES.some((json) => takes(type, json)));
}

/**
 * An Accept that allows none of the forms an answer can take is refused before anything runs
 * (Yoga would run the operation, call the bank, then answer an empty 406). A browser's GET of the
 * page itself (GraphiQL) asks for HTML: Yoga's GraphiQL plugin has answered it by now.
 */
function useAnswerableAcceptOnly(): Plugin {
  return {
    onRequest({ request, url, endResponse }) {
      if (request.method === 'GET' && !url.search) return;
      const accept = request.headers.get('accept');
      // Nearly every client names JSON or takes anything: no need to read its header further.
      if (
        !accept ||
        accept.includes('json') ||
        accept.includes('*/*') ||
        mediaRanges(accept).some((range) => ANSWER_MEDIA_TYPES.some((media) => takes(range.type, media)))
      )
        return;
      endResponse(
        Response.json(
          {
            errors: [
              {
                message: `The answer can be sent as ${ANSWER_MEDIA_TYPES.join(', ')}, none of which Accept: ${accept} allows.`,
                extensions: { code: 'NOT_ACCEPTABLE' },
              },
            ],
          },
          { status: 406 },
        ),
      );
    },
  };
}

/**
 * Whether it answered: a stream of results no processor could send in what the caller accepts. A
 * live query is answered once, its first result in JSON, as the query it is (Apollo Client's
 * HttpLink, or any client that knows nothing of `@live`, gets the screen as it is now); anything
 * else is refused with a 406 that says what would work.
 */
function notAcceptableRefusal(
  eventStreamOf: (request: Request) => EventStream | undefined,
  refusedBeforeRunning: WeakMap<Request, Refusal>,
) {
  return ({ request, result, resultProcessor, setResultProcessor }: ResultProcessArgs): boolean => {
    const refused = refusedBeforeRunning.get(request);
    if (refused) {
      setResultProcessor(() => Response.json({ errors: [refused] }, { status: 406 }), 'application/json');
      return true;
    }
    if (resultProcessor || !isAsyncIterable(result)) return false;
    const stream = eventStreamOf(request);
    if (stream === 'live query') {
      const json = mediaRanges(request.headers.get('accept')).some((range) => range.type === GRAPHQL_RESPONSE_JSON)
        ? GRAPHQL_RESPONSE_JSON
        : 'application/json';
      setResultProcessor(firstResultOnly, json);
      return true;
    }
    // Stops the deferred work or the subscription; how it ends is of no use to a caller who gets the 406.
    Promise.resolve(result[Symbol.asyncIterator]().return?.()).catch(() => {});
    const error = stream === 'subscription' ? subscriptionRefusal(request) : incrementalRefusal(request);
    setResultProcessor(() => Response.json({ errors: [error] }, { status: 406 }), 'application/json');
    return true;
  };
}

const GRAPHQL_RESPONSE_JSON = 'application/graphql-response+json';

/** The first result of a stream, in JSON, and the stream let go (a live query stops being watched). */
const firstResultOnly: ResultProcessor = async (result, fetchAPI, accepted) => {
  const source = (result as AsyncIterable<Message>)[Symbol.asyncIterator]();
  try {
    const first = await source.next();
    return processRegularResult(first.value as Message, fetchAPI, accepted);
  } finally {
    Promise.resolve(source.return?.()).catch(() => {});
  }
};

function subscriptionRefusal(request: Request): Refusal {
  const received = quotedAccept(request);
  return {
    message: `A subscription is answered as a stream of events, which Accept: ${received} does not allow: send Accept: ${SUBSCRIPTION_MEDIA_TYPES.join(' or ')}, or subscribe over WebSocket (${SUBSCRIPTION_WEBSOCKET_PROTOCOL}).`,
    extensions: {
      code: 'SUBSCRIPTION_TRANSPORT_NOT_ACCEPTED',
      received,
      accept: SUBSCRIPTION_MEDIA_TYPES,
      webSocketProtocol: SUBSCRIPTION_WEBSOCKET_PROTOCOL,
    },
  };
}

function incrementalRefusal(request: Request): Refusal {
  const received = quotedAccept(request);
  return {
    message: `An operation with @defer or @stream is answered in parts, which Accept: ${received} does not allow: send Accept: ${INCREMENTAL_MEDIA_TYPES.join(' or ')}.`,
    extensions: { code: 'INCREMENTAL_DELIVERY_NOT_ACCEPTED', received, accept: INCREMENTAL_MEDIA_TYPES },
  };
}

function quotedAccept(request: Request): string {
  const accept = request.headers.get('accept') ?? '*/*';
  return accept.length > MAX_QUOTED_ACCEPT ? `${accept.slice(0, MAX_QUOTED_ACCEPT)}…` : accept;
}
