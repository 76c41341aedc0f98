import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { ApolloClient, HttpLink, InMemoryCache, type ApolloLink } from '@apollo/client';
import { BatchHttpLink } from '@apollo/client/link/batch-http';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { Defer20220824Handler } from '@apollo/client/incremental';
import { print as apolloPrint } from '@apollo/client/utilities';
import { SubscriptionProtocol, UrlLoader } from '@graphql-tools/url-loader';
import { cacheExchange, Client as UrqlClient, fetchExchange, formatDocument, stringifyDocument, type OperationResult } from '@urql/core';
import { persistedExchange } from '@urql/exchange-persisted';
import { getOperationAST, parse } from 'graphql';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import { meros } from 'meros';
import { Network, Observable, type FetchFunction, type RequestParameters } from 'relay-runtime';
import { SubscriptionClient } from 'subscriptions-transport-ws';
import WebSocket from 'ws';
import type { WayInId } from '../../../src/transport/ways-in.ts';
import type { ExecutionPayload, Observed } from './outcome.ts';
import type { Nature, Row } from './rows.ts';
import { payloadsOf, persistedQuery, sha256, tappedFetch, type Exchange } from './wire.ts';

/** How a cell's document arrives: its text, an automatic persisted query's hash, or a trusted document's id. */
export type Form = 'text' | 'apq' | 'trusted';
export const FORMS: readonly Form[] = ['text', 'apq', 'trusted'];

export interface Cell {
  row: Row;
  form: Form;
  /** http://127.0.0.1:PORT of the gateway. */
  baseUrl: string;
  query: string;
  variables: Record<string, unknown> | undefined;
  operationName: string | undefined;
  /** A live query or a subscription: the cell lets go of it after its first result. */
  stream: boolean;
  /** Called with the first result, before the cell lets go of a stream. */
  first(): void;
}

/** What a way in can carry: a way that cannot is refused with a code that says what would. */
interface Carries {
  /** Answers in parts (@defer, @stream). */
  parts: boolean;
  /** A live query's pushes after its first result. */
  liveStream: boolean;
  subscriptions: boolean;
  mutations: boolean;
}

export interface Way {
  id: WayInId;
  /** The column's header. */
  name: string;
  /** What drives it, at which settings. */
  client: string;
  carries: Carries;
  /** The text this client puts on the wire for a document (what it hashes for a persisted query). */
  sentText(document: string): string;
  /** Why this client cannot send the row in this form, if it cannot. */
  cannot(row: Row, form: Form): string | undefined;
  run(cell: Cell): Promise<Observed>;
}

/** How long a cell waits for its answer before calling it left open. */
const CELL_TIMEOUT_MS = 10_000;
const CSRF = { 'x-graphql-csrf': '1' };
const JSON_ACCEPT = 'application/graphql-response+json, application/json';

function version(name: string): string {
  return (JSON.parse(readFileSync(new URL(`../../../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as { version: string })
    .version;
}

const wsUrl = (baseUrl: string) => `${baseUrl.replace(/^http/, 'ws')}/graphql`;
const isMutation = (nature: Nature) => nature === 'mutation' || nature === 'mutation in parts';
const id = (cell: Cell) => `sha256:${sha256(cell.query)}`;
const asWritten = (document: string) => document;
const TEXT_ONLY = 'GraphiQL sends the text of what is in its editor';
const NO_BATCH = 'its protocol has no batches';

/** The GraphQL-over-HTTP parameters of a cell, by form (the APQ form's first try: the hash alone). */
function httpParams(cell: Cell, withText = cell.form === 'text'): Record<string, unknown> {
  const common = { variables: cell.variables, operationName: cell.operationName };
  if (cell.form === 'trusted') return { documentId: id(cell), ...common };
  return {
    ...(withText ? { query: cell.query } : {}),
    ...(cell.form === 'apq' ? { extensions: persistedQuery(cell.query) } : {}),
    ...common,
  };
}

const notFound = (payload: ExecutionPayload | undefined) => payload?.errors?.[0]?.extensions?.code === 'PERSISTED_QUERY_NOT_FOUND';

/** The APQ protocol every such client follows: the hash alone, then the text with it when the hash is unknown. */
async function byForm(cell: Cell, send: (params: Record<string, unknown>) => Promise<Observed>): Promise<Observed> {
  const first = await send(httpParams(cell));
  if (cell.form !== 'apq') return first;
  if (!notFound(first.results[0])) return { ...first, answeredByHashAlone: true };
  return { ...(await send(httpParams(cell, true))), answeredByHashAlone: false };
}

/** GraphQL over HTTP, as its specification writes a request: GET with the parameters in the URL, or POST with a JSON body. */
async function overHttp(cell: Cell, method: 'GET' | 'POST', params: unknown): Promise<Observed> {
  const url = new URL(`${cell.baseUrl}/graphql`);
  if (method === 'GET') {
    for (const [name, value] of Object.entries(params as Record<string, unknown>)) {
      if (value !== undefined) url.searchParams.set(name, typeof value === 'string' ? value : JSON.stringify(value));
    }
  }
  const response = await fetch(url, {
    method,
    headers: { accept: JSON_ACCEPT, ...(method === 'POST' ? { 'content-type': 'application/json' } : CSRF) },
    ...(method === 'POST' ? { body: JSON.stringify(params) } : {}),
  });
  const payloads = payloadsOf(response.headers.get('content-type') ?? '', await response.text());
  cell.first();
  return {
    results: payloads.flatMap((payload) => (Array.isArray(payload) ? payload : [payload])),
    merged: false,
    leftOpen: false,
    status: response.status,
  };
}

/** A client's error as the refusal it carries: GraphQL errors, a status, a socket's close. */
function refusalFrom(error: unknown): NonNullable<Observed['refusal']> {
  const e = error as {
    errors?: readonly GraphQLishError[];
    graphQLErrors?: readonly GraphQLishError[];
    statusCode?: number;
    bodyText?: string;
    response?: { status?: number };
    networkError?: unknown;
    code?: number;
    reason?: string;
    message?: string;
  };
  const errors = Array.isArray(error) ? (error as GraphQLishError[]) : (e?.errors ?? e?.graphQLErrors);
  if (errors?.length)
    return {
      code: errors[0]!.extensions?.code as string | undefined,
      message: errors[0]!.message,
      status: e?.statusCode ?? e?.response?.status,
    };
  if (e?.bodyText) {
    const body = payloadsOf('application/json', e.bodyText)[0];
    return {
      code: body?.errors?.[0]?.extensions?.code as string | undefined,
      message: body?.errors?.[0]?.message ?? e.bodyText,
      status: e.statusCode,
    };
  }
  if (e?.networkError) return refusalFrom(e.networkError);
  if (typeof e?.code === 'number') return { code: `close ${e.code}`, message: e.reason ?? '' };
  // subscriptions-transport-ws hands its observer the first error alone.
  const single = error as GraphQLishError | undefined;
  if (single?.extensions) return { code: single.extensions.code as string | undefined, message: single.message };
  return { code: undefined, message: e?.message ?? String(error), status: e?.response?.status };
}
type GraphQLishError = { message: string; extensions?: Record<string, unknown> };

interface Sink {
  next(payload: ExecutionPayload): void;
  error(error: unknown): void;
  complete(): void;
}

/**
 * The results a callback-style client hands over until it completes, errs, or (a stream) hands the
 * first: then the cell lets go (`stop`). Past CELL_TIMEOUT_MS the cell lets go too, the stream left open.
 */
function untilDone(cell: Cell, merged: boolean, start: (sink: Sink) => () => unknown): Promise<Observed> {
  return new Promise((resolve) => {
    const results: ExecutionPayload[] = [];
    let done = false;
    const finish = (observed: Partial<Observed>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      // A client may call back before it returned its stop: let go on the next turn.
      setImmediate(() => void Promise.resolve(stop()).catch(() => {}));
      resolve({ results, merged, leftOpen: false, ...observed });
    };
    const timer = setTimeout(() => finish({ leftOpen: true }), CELL_TIMEOUT_MS);
    const stop = start({
      next: (payload) => {
        if (done) return;
        results.push(payload);
        if (results.length === 1) cell.first();
        if (cell.stream && results.length === 1) finish({ leftOpen: true });
      },
      error: (error) => finish({ refusal: refusalFrom(error) }),
      complete: () => finish({}),
    });
  });
}

/** The wire's count of results in the last exchange, and the status it was answered with. */
function fromWire(observed: Observed, exchanges: Exchange[]): Observed {
  const last = exchanges.at(-1);
  const persisted = exchanges.length > 0 && exchanges.some((exchange) => !exchange.sentText);
  return {
    ...observed,
    status: last?.status,
    wireResults: last?.results,
    ...(persisted ? { answeredByHashAlone: !exchanges.some((exchange) => exchange.sentText) } : {}),
  };
}

const GET: Way = {
  id: 'http-get',
  name: 'GET',
  client: `fetch, as GraphQL over HTTP writes a GET (parameters in the URL; Accept: ${JSON_ACCEPT}; the CSRF header)`,
  carries: { parts: false, liveStream: false, subscriptions: false, mutations: false },
  sentText: asWritten,
  cannot: (row) => (row.batch ? NO_BATCH : undefined),
  run: (cell) => byForm(cell, (params) => overHttp(cell, 'GET', params)),
};

const POST: Way = {
  id: 'http-post',
  name: 'POST',
  client: `fetch, as GraphQL over HTTP writes a POST (a JSON body; Accept: ${JSON_ACCEPT}), which Relay's network layer and graphql-request send`,
  carries: { parts: false, liveStream: false, subscriptions: false, mutations: true },
  sentText: asWritten,
  cannot: () => undefined,
  run: (cell) =>
    cell.row.batch
      ? overHttp(cell, 'POST', [httpParams(cell, true), httpParams(cell, true)])
      : byForm(cell, (params) => overHttp(cell, 'POST', params)),
};

/** Apollo Client at its defaults; @defer needs its incremental handler, and the APQ link its sha256. */
const APOLLO: Way = {
  id: 'multipart-apollo',
  name: 'Apollo multipart',
  client: `Apollo Client ${version('@apollo/client')}: HttpLink({ uri }), InMemoryCache, incrementalHandler Defer20220824Handler; PersistedQueryLink({ sha256 }) for hashes; BatchHttpLink for a batch`,
  carries: { parts: true, liveStream: false, subscriptions: true, mutations: true },
  sentText: (document) => apolloPrint(new InMemoryCache().transformDocument(parse(document))),
  cannot: (row, form) =>
    row.operationName
      ? 'Apollo Client takes a document with one operation'
      : row.batch && form !== 'text'
        ? 'the batch is shown with its text'
        : undefined,
  run: async (cell) => {
    const wire = tappedFetch();
    const uri = `${cell.baseUrl}/graphql`;
    const http: ApolloLink = cell.row.batch ? new BatchHttpLink({ uri, fetch: wire.fetch }) : new HttpLink({ uri, fetch: wire.fetch });
    const link = cell.form === 'text' ? http : new PersistedQueryLink({ sha256 }).concat(http);
    const client = new ApolloClient({ link, cache: new InMemoryCache(), incrementalHandler: new Defer20220824Handler() });
    const document = parse(cell.query);
    const variables = cell.variables ?? {};
    try {
      if (cell.row.batch) {
        const both = await Promise.allSettled([client.query({ query: document }), client.query({ query: document })]);
        const failed = both.find((outcome) => outcome.status === 'rejected');
        cell.first();
        return fromWire(
          { results: [], merged: true, leftOpen: false, ...(failed ? { refusal: refusalFrom(failed.reason) } : {}) },
          wire.exchanges,
        );
      }
      if (isMutation(cell.row.nature)) {
        const observed = await client.mutate({ mutation: document, variables }).then(
          (result) => (cell.first(), { results: [{ data: result.data }], merged: true, leftOpen: false }),
          (error: unknown) => ({ results: [], merged: true, leftOpen: false, refusal: refusalFrom(error) }),
        );
        return fromWire(observed, wire.exchanges);
      }
      const observable =
        cell.row.nature === 'subscription'
          ? client.subscribe({ query: document, variables })
          : client.watchQuery({ query: document, variables });
      const observed = await untilDone(cell, true, (sink) => {
        const subscription = (observable as { subscribe: (observer: object) => { unsubscribe(): void } }).subscribe({
          next: (result: { data?: unknown; error?: unknown; dataState?: string; loading?: boolean }) => {
            if (result.error) return sink.error(result.error);
            if (result.dataState === 'empty' || result.data === undefined) return;
            sink.next({ data: result.data });
            if (result.dataState === 'complete' && !result.loading && cell.row.nature !== 'subscription') sink.complete();
          },
          error: sink.error,
          complete: sink.complete,
        });
        return () => subscription.unsubscribe();
      });
      return fromWire(observed, wire.exchanges);
    } finally {
      client.stop();
    }
  },
};

/** urql as its docs set it up, with the CSRF header on its GETs; fetchSubscriptions for subscriptions over HTTP; the persisted exchange for hashes. */
const URQL: Way = {
  id: 'multipart-mixed',
  name: 'multipart/mixed: urql',
  client: `urql (@urql/core ${version('@urql/core')}): Client({ url, exchanges: [cacheExchange, fetchExchange], fetchSubscriptions: true, fetchOptions: the CSRF header }); persistedExchange() for hashes (@urql/exchange-persisted ${version('@urql/exchange-persisted')}, enforcePersistedQueries for trusted documents)`,
  carries: { parts: true, liveStream: true, subscriptions: true, mutations: true },
  // Its cache exchange adds __typename to queries and mutations, not to subscriptions.
  sentText: (document) => stringifyDocument(/^\s*subscription\b/.test(document) ? parse(document) : formatDocument(parse(document))),
  cannot: (row) => (row.operationName ? "urql sends a document's first operation" : row.batch ? NO_BATCH : undefined),
  run: async (cell) => {
    const wire = tappedFetch();
    const persisted =
      cell.form === 'text'
        ? []
        : [
            persistedExchange(
              cell.form === 'trusted' ? { enforcePersistedQueries: true, enableForMutation: true, enableForSubscriptions: true } : {},
            ),
          ];
    const client = new UrqlClient({
      url: `${cell.baseUrl}/graphql`,
      exchanges: [cacheExchange, ...persisted, fetchExchange],
      fetch: wire.fetch,
      fetchSubscriptions: true,
      fetchOptions: { headers: CSRF },
    });
    const source = isMutation(cell.row.nature)
      ? client.mutation(cell.query, cell.variables ?? {})
      : cell.row.nature === 'subscription'
        ? client.subscription(cell.query, cell.variables ?? {})
        : client.query(cell.query, cell.variables ?? {});
    const observed = await untilDone(cell, true, (sink) => {
      const { unsubscribe } = source.subscribe((result: OperationResult) => {
        if (result.error && !result.data) return sink.error(result.error);
        sink.next({ data: result.data, ...(result.error ? { errors: result.error.graphQLErrors } : {}) });
        if (!result.hasNext && cell.row.nature !== 'subscription') sink.complete();
      });
      return unsubscribe;
    });
    return fromWire(observed, wire.exchanges);
  },
};

/**
 * Relay's network layer (`Network.create(fetchFn)`), its fetch function as meros' README writes one
 * for Relay: a POST that accepts JSON or multipart/mixed, each part handed to Relay's sink as meros
 * reads it (Node's meros reads node:http's response). A persisted query goes by its id
 * (`documentId`), as test/protocol/clients.test.ts's Relay does.
 */
const RELAY: Way = {
  id: 'multipart-mixed',
  name: 'multipart/mixed: Relay + meros',
  client: `relay-runtime ${version('relay-runtime')}: Network.create(fetchFn), fetchFn reading multipart/mixed with meros ${version('meros')}; a persisted document by its id`,
  carries: { parts: true, liveStream: true, subscriptions: true, mutations: true },
  sentText: asWritten,
  cannot: (row, form) =>
    row.batch
      ? NO_BATCH
      : row.operationName
        ? "Relay's compiler gives each operation a text of its own"
        : row.nature === 'subscription'
          ? 'Relay subscribes through its subscribeFn (graphql-ws: that column)'
          : form === 'apq'
            ? 'Relay sends the text, or a persisted id'
            : undefined,
  run: async (cell) => {
    const fetchFn: FetchFunction = (params, variables) =>
      Observable.create((sink) => {
        const body = params.text ? { query: params.text, variables } : { documentId: params.id, variables };
        const sent = httpRequest(`${cell.baseUrl}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, multipart/mixed' },
        });
        sent.on('response', (response: IncomingMessage) => {
          void (async () => {
            const parts = await meros<ExecutionPayload>(response);
            // meros hands back the response itself when it is not multipart: one JSON result.
            if (parts === response) {
              const chunks: Buffer[] = [];
              for await (const chunk of response) chunks.push(chunk as Buffer);
              sink.next(JSON.parse(Buffer.concat(chunks).toString('utf8')) as never);
            } else {
              for await (const part of parts as AsyncGenerator<{ json: boolean; body: unknown }>)
                sink.next((part.json ? part.body : JSON.parse(String(part.body))) as never);
            }
            sink.complete();
          })().catch((error: unknown) => sink.error(error as Error));
        });
        sent.on('error', (error) => sink.error(error));
        sent.end(JSON.stringify(body));
        return () => sent.destroy();
      });
    const operationKind = isMutation(cell.row.nature) ? 'mutation' : 'query';
    const name = getOperationAST(parse(cell.query))?.name?.value;
    const params = {
      id: cell.form === 'trusted' ? id(cell) : null,
      text: cell.form === 'trusted' ? null : cell.query,
      name,
      operationKind,
      metadata: {},
      cacheID: cell.query,
    } as unknown as RequestParameters;
    return untilDone(cell, false, (sink) => {
      const subscription = Network.create(fetchFn)
        .execute(params, cell.variables ?? {}, {})
        .subscribe({
          next: (payload) => sink.next(payload as ExecutionPayload),
          error: (error: Error) => sink.error(error),
          complete: () => sink.complete(),
        });
      return () => subscription.unsubscribe();
    });
  },
};

/** graphql-sse at its defaults (distinct connections): the parameters of a request as GraphQL over HTTP names them, hashes and ids included. */
const SSE: Way = {
  id: 'sse',
  name: 'SSE',
  client: `graphql-sse ${version('graphql-sse')}: createClient({ url }), distinct connections`,
  carries: { parts: true, liveStream: true, subscriptions: true, mutations: true },
  sentText: asWritten,
  cannot: (row) => (row.batch ? NO_BATCH : undefined),
  run: async (cell) => {
    const client = createSseClient({ url: `${cell.baseUrl}/graphql` });
    try {
      return await byForm(cell, (params) => untilDone(cell, false, (sink) => client.subscribe(params as never, sink)));
    } finally {
      client.dispose();
    }
  },
};

/** graphql-ws at its defaults; a trusted document's id is the Subscribe message's `query`, as graphql-ws' persisted-queries recipe sends it. */
const GRAPHQL_WS: Way = {
  id: 'graphql-transport-ws',
  name: 'graphql-transport-ws',
  client: `graphql-ws ${version('graphql-ws')}: createClient({ url })`,
  carries: { parts: true, liveStream: true, subscriptions: true, mutations: true },
  sentText: asWritten,
  cannot: (row, form) =>
    row.batch
      ? NO_BATCH
      : form === 'apq'
        ? "graphql-ws' Subscribe message must carry the text; a trusted document's id goes in its place"
        : undefined,
  run: async (cell) => {
    const client = createWsClient({ url: wsUrl(cell.baseUrl) });
    const payload = {
      query: cell.form === 'trusted' ? id(cell) : cell.query,
      variables: cell.variables,
      operationName: cell.operationName,
    };
    try {
      return await untilDone(cell, false, (sink) => client.subscribe(payload, sink));
    } finally {
      await client.dispose();
    }
  },
};

/**
 * The legacy `graphql-ws` subprotocol: subscriptions-transport-ws at its defaults for text; a hash or
 * an id alone frame by frame, as Apollo Kotlin and Apollo iOS send them (that client refuses a
 * request without text).
 */
const LEGACY_WS: Way = {
  id: 'graphql-ws',
  name: 'graphql-ws (legacy)',
  client: `subscriptions-transport-ws ${version('subscriptions-transport-ws')}: new SubscriptionClient(url, {}, WebSocket); hashes and ids frame by frame, as Apollo Kotlin sends them`,
  carries: { parts: true, liveStream: true, subscriptions: true, mutations: true },
  sentText: asWritten,
  cannot: (row) => (row.batch ? NO_BATCH : undefined),
  run: async (cell) => {
    if (cell.form === 'text') {
      const client = new SubscriptionClient(wsUrl(cell.baseUrl), {}, WebSocket);
      try {
        return await untilDone(
          cell,
          false,
          (sink) =>
            client.request({ query: cell.query, variables: cell.variables, operationName: cell.operationName }).subscribe(sink).unsubscribe,
        );
      } finally {
        client.close();
      }
    }
    const socket = await legacySocket(cell.baseUrl);
    try {
      const send = (payload: Record<string, unknown>) => untilDone(cell, false, (sink) => socket.start(payload, sink));
      const extensions = persistedQuery(cell.query);
      const common = { variables: cell.variables, operationName: cell.operationName };
      const first = await send({ extensions, ...common });
      if (cell.form === 'trusted') return first;
      if (!notFound(first.results[0]) && first.refusal?.code !== 'PERSISTED_QUERY_NOT_FOUND')
        return { ...first, answeredByHashAlone: true };
      return { ...(await send({ query: cell.query, extensions, ...common })), answeredByHashAlone: false };
    } finally {
      socket.close();
    }
  },
};

/** The legacy subprotocol spoken frame by frame: connection_init, then `start` per operation; `data`, `error` and `complete` back. */
async function legacySocket(baseUrl: string) {
  const socket = new WebSocket(wsUrl(baseUrl), 'graphql-ws');
  const sinks = new Map<string, Sink>();
  let next = 0;
  socket.on('message', (raw) => {
    // A Buffer: ws's default binaryType.
    const frame = JSON.parse((raw as Buffer).toString()) as { type: string; id?: string; payload?: ExecutionPayload };
    const sink = frame.id === undefined ? undefined : sinks.get(frame.id);
    if (frame.type === 'data') sink?.next(frame.payload!);
    else if (frame.type === 'error') sink?.error(frame.payload && 'errors' in frame.payload ? frame.payload.errors : [frame.payload]);
    else if (frame.type === 'complete') sink?.complete();
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  socket.send(JSON.stringify({ type: 'connection_init', payload: {} }));
  return {
    start: (payload: Record<string, unknown>, sink: Sink) => {
      const operation = String(++next);
      sinks.set(operation, sink);
      socket.send(JSON.stringify({ id: operation, type: 'start', payload }));
      return () => socket.readyState === WebSocket.OPEN && socket.send(JSON.stringify({ id: operation, type: 'stop' }));
    },
    close: () => socket.close(),
  };
}

/**
 * GraphiQL's own executor: the page (Yoga's GraphiQL) builds it with @graphql-tools/url-loader and
 * these options (read from the page's bundle); its additional header is the CSRF one the gateway
 * sets. Queries and mutations go as POST (multipart/mixed accepted, read with meros), subscriptions
 * and live queries as SSE.
 */
const GRAPHIQL: Way = {
  id: 'graphiql',
  name: 'GraphiQL',
  client: `GraphiQL's executor (@graphql-tools/url-loader ${version('@graphql-tools/url-loader')}, as @graphql-yoga/render-graphiql builds it: subscriptionsProtocol GRAPHQL_SSE on the same URL)`,
  carries: { parts: true, liveStream: true, subscriptions: true, mutations: true },
  sentText: asWritten,
  cannot: (row, form) => (form !== 'text' ? TEXT_ONLY : row.batch ? NO_BATCH : undefined),
  run: async (cell) => {
    const wire = tappedFetch();
    const url = `${cell.baseUrl}/graphql`;
    const executor = new UrlLoader().getExecutorAsync(url, {
      subscriptionsProtocol: SubscriptionProtocol.GRAPHQL_SSE,
      subscriptionsEndpoint: url,
      credentials: 'same-origin',
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      inputValueDeprecation: true,
      headers: CSRF,
      fetch: wire.fetch,
    });
    const observed = await untilDone(cell, true, (sink) => {
      let iterator: AsyncIterator<unknown> | undefined;
      void (async () => {
        try {
          const outcome = await executor({ document: parse(cell.query), variables: cell.variables, operationName: cell.operationName });
          if (!(Symbol.asyncIterator in (outcome as object))) return (sink.next(outcome as ExecutionPayload), sink.complete());
          iterator = (outcome as AsyncIterable<unknown>)[Symbol.asyncIterator]();
          for (let step = await iterator.next(); !step.done; step = await iterator.next()) sink.next(step.value as ExecutionPayload);
          sink.complete();
        } catch (error) {
          sink.error(error);
        }
      })();
      return () => iterator?.return?.();
    });
    return fromWire(observed, wire.exchanges);
  },
};

export const WAYS: readonly Way[] = [GET, POST, APOLLO, URQL, RELAY, SSE, GRAPHQL_WS, LEGACY_WS, GRAPHIQL];

/**
 * The texts of a document as the clients send them, for the trusted documents' manifest: as written,
 * Apollo Client's (its cache adds __typename; @apollo/generate-persisted-query-manifest writes the
 * same) and urql's (its cache exchange adds __typename too; its persisted exchange hashes that text).
 */
export function clientTexts(row: Row): string[] {
  return [...new Set(WAYS.filter((way) => !way.cannot(row, 'trusted')).map((way) => way.sentText(row.document)))];
}
