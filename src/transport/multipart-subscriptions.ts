import { isAsyncIterable, processRegularResult, type Plugin } from 'graphql-yoga';

/**
 * Subscriptions over HTTP multipart, in Apollo's protocol ("Multipart HTTP protocol for GraphQL
 * subscriptions"): what Apollo Client's HttpLink, Apollo Kotlin and Apollo iOS send a subscription
 * over by default, with `Accept: multipart/mixed;boundary="graphql";subscriptionSpec=1.0,application/json`.
 * Yoga's own result processors offer multipart to @defer only, so without this such a client got a 406.
 * A live query sent with the same Accept is answered the same way, each push an event.
 *
 * The answer is `multipart/mixed;boundary="graphql";subscriptionSpec=1.0`, one part per message:
 * - `{"payload":<result>}` for each event: the execution result as Yoga would send it over SSE
 *   (errors masked, `extensions.traceId` with tracing on, no internals);
 * - `{}`, a heartbeat, at once (the headers go out and the client's fetch resolves) and then every
 *   `heartbeatMs`, so proxies and load balancers do not close a quiet connection; clients skip it;
 * - `{"payload":null,"errors":[…]}` when the stream itself fails after it started (its source
 *   threw: Yoga masks the error as any other), then the end;
 * - `--graphql--` when the stream ends (the gateway stopping ends every subscription that way).
 * A client that goes away cancels the body, which returns the subscription's iterator: the event
 * bus lets go of it at once. Nothing here bypasses Yoga: auth, CORS, CSRF and the limits ran before
 * the result got here, as they do for SSE.
 */

const MULTIPART_SUBSCRIPTION_BOUNDARY = 'graphql';
const MULTIPART_SUBSCRIPTION_TYPE = `multipart/mixed;boundary="${MULTIPART_SUBSCRIPTION_BOUNDARY}";subscriptionSpec=1.0`;
/** Well within the idle timeouts of common proxies and load balancers (60 s and more). */
const DEFAULT_HEARTBEAT_MS = 5_000;

const HEARTBEAT = '{}';

export interface MultipartSubscriptionOptions {
  /** Whether `request` runs an operation answered as a stream of events (a subscription, a live query). */
  streamsEvents(request: Request): boolean;
  /** Between heartbeats; DEFAULT_HEARTBEAT_MS unless given (tests shorten it). */
  heartbeatMs?: number | undefined;
}

type ResultProcessArgs = Parameters<NonNullable<Plugin['onResultProcess']>>[0];
type ResultProcessor = Parameters<ResultProcessArgs['setResultProcessor']>[0];
type FetchAPI = Parameters<ResultProcessor>[1];
type Message = Parameters<typeof processRegularResult>[0];

/**
 * A step of an onResultProcess hook (incremental-delivery.ts runs it first): answers the request in
 * this protocol when it streams events and its Accept asks for it, and says whether it did.
 */
export function multipartSubscriptions(options: MultipartSubscriptionOptions): (payload: ResultProcessArgs) => boolean {
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const processor: ResultProcessor = (result, fetchAPI) => multipartResponse(result, fetchAPI, heartbeatMs);
  return ({ request, result, resultProcessor, setResultProcessor }) => {
    if (!options.streamsEvents(request)) return false;
    const ranges = mediaRanges(request.headers.get('accept'));
    const ours = ranges.findIndex(isApolloMultipart);
    if (ours < 0) return false;
    // A subscription refused before its stream started (a bad cursor) is one result: in JSON when
    // the caller accepts it, as Yoga chose; in a part of its own only when nothing else would do.
    if (resultProcessor && !isAsyncIterable(result)) return false;
    // Yoga chose SSE: kept when the caller listed it first.
    if (resultProcessor && ranges.slice(0, ours).some((range) => range.type === 'text/event-stream')) return false;
    setResultProcessor(processor, 'multipart/mixed');
    return true;
  };
}

/**
 * Only with `subscriptionSpec=1.0`: the parameter is how a client says it reads this protocol (the
 * `payload` wrapper, `{}` heartbeats). A plain `multipart/mixed` is what incremental-delivery
 * clients send (urql, meros, graphql-helix's): their parsers would take a heartbeat for an empty
 * result and a `payload` wrapper for a result without data, so they get SSE or the 406 that says
 * what to send instead.
 */
function isApolloMultipart(range: MediaRange): boolean {
  return range.type === 'multipart/mixed' && range.params.get('subscriptionspec') === '1.0';
}

export interface MediaRange {
  /** Lower-cased, e.g. `multipart/mixed`. */
  type: string;
  /** By lower-cased name, values unquoted. */
  params: Map<string, string>;
}

/** The media ranges of an Accept header in the order given, less those refused outright (q=0). */
export function mediaRanges(accept: string | null): MediaRange[] {
  return (accept ?? '')
    .split(',')
    .map((entry) => {
      const [type = '', ...params] = entry.split(';');
      return {
        type: type.trim().toLowerCase(),
        params: new Map(
          params.map((param) => {
            const [name = '', ...value] = param.split('=');
            return [
              name.trim().toLowerCase(),
              value
                .join('=')
                .trim()
                .replace(/^"(.*)"$/, '$1'),
            ] as const;
          }),
        ),
      };
    })
    .filter((range) => range.type !== '' && Number(range.params.get('q') ?? 1) !== 0);
}

const DELIMITER = `\r\n--${MULTIPART_SUBSCRIPTION_BOUNDARY}`;

/**
 * One part, and the delimiter after it at once: a client knows a part is whole only when the next
 * delimiter comes, so one held back until the next message would hold every event back until the
 * next heartbeat. What follows the delimiter (CRLF and the next part's headers, or `--` for the end)
 * goes with the next message.
 */
function part(json: string): string {
  return `\r\ncontent-type: application/json; charset=utf-8\r\n\r\n${json}${DELIMITER}`;
}

/**
 * A result as Yoga writes it in any answer: its serializer (jsonStringifyResultWithoutInternals,
 * which drops `extensions.http` and the like) is not exported, but the JSON processor that uses it is.
 */
function serialized(message: Message, fetchAPI: FetchAPI): Promise<string> {
  return processRegularResult(message, fetchAPI, 'application/json').text();
}

interface Source {
  next(): PromiseLike<IteratorResult<unknown>> | IteratorResult<unknown>;
  return?(): unknown;
}

function multipartResponse(result: Parameters<ResultProcessor>[0], fetchAPI: FetchAPI, heartbeatMs: number): Response {
  const encoder = new fetchAPI.TextEncoder();
  const streaming = isAsyncIterable(result);
  // A refusal before the stream started is its only message.
  const source: Source = streaming ? result[Symbol.asyncIterator]() : [result].values();
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const send = (controller: ReadableStreamDefaultController<Uint8Array>, text: string) => controller.enqueue(encoder.encode(text));
  const end = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    clearInterval(heartbeat);
    send(controller, '--\r\n');
    controller.close();
  };
  const stream = new fetchAPI.ReadableStream<Uint8Array>({
    start(controller) {
      // An empty preamble: every delimiter, the first included, is then CRLF--graphql, which is
      // what Apollo Client's parser looks for.
      send(controller, `${DELIMITER}${part(HEARTBEAT)}`);
      heartbeat = setInterval(() => {
        // Not while the client has not read what is queued (desiredSize 0) or the stream is over (null).
        if ((controller.desiredSize ?? 0) > 0) send(controller, part(HEARTBEAT));
      }, heartbeatMs);
    },
    async pull(controller) {
      let next: IteratorResult<unknown>;
      try {
        next = await source.next();
      } catch (error) {
        // Only an aborted request rejects here: Yoga turns any other failure of the stream into a
        // result (below). The client is gone; as Yoga's own processors do, the body just fails.
        clearInterval(heartbeat);
        return controller.error(error);
      }
      if (next.value != null) {
        const json = await serialized(next.value as Message, fetchAPI);
        if (streaming && isStreamFailure(next.value)) {
          send(controller, part(transportError(json)));
          closeQuietly(source);
          return end(controller);
        }
        send(controller, part(`{"payload":${json}}`));
      }
      if (next.done) end(controller);
    },
    cancel() {
      clearInterval(heartbeat);
      closeQuietly(source);
    },
  });
  return new fetchAPI.Response(stream, {
    status: 200,
    headers: { 'content-type': MULTIPART_SUBSCRIPTION_TYPE, 'cache-control': 'no-cache' },
  });
}

/**
 * The stream itself failed after it started (its source threw): Yoga answers that with a last result
 * of errors alone, masked by the gateway's maskError as any error is, and no `data`, which every
 * event's execution result has (null at worst). The protocol says so at the transport level.
 */
function isStreamFailure(result: unknown): boolean {
  const { errors } = result as { errors?: unknown[] };
  return !('data' in (result as object)) && (errors?.length ?? 0) > 0;
}

/** `{"payload":null,"errors":[…]}`, from the failure's result as Yoga serialized it. */
function transportError(json: string): string {
  const { errors } = JSON.parse(json) as { errors: unknown[] };
  return JSON.stringify({ payload: null, errors });
}

/** Lets the subscription go (the event bus drops it); how that ends is of no use to a client that is gone. */
function closeQuietly(source: Source): void {
  try {
    Promise.resolve(source.return?.()).catch(() => {});
  } catch {
    // A return that throws synchronously has let go all the same.
  }
}
