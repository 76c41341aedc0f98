import { GRAPHQL_TRANSPORT_WS_PROTOCOL } from 'graphql-ws';
import { GRAPHQL_WS } from 'subscriptions-transport-ws';
import WebSocket from 'ws';
import type { WayInId } from '../../../src/transport/ways-in.ts';

/** A way the gateway answered, and the way in (src/transport/ways-in.ts) it is; none for a way not listed there. */
export interface Served {
  probe: string;
  id: WayInId | undefined;
}

const DEFERRED = 'query { ... @defer { balances { currency } } }';
const SUBSCRIPTION = 'subscription { bankEvents { name } }';

/**
 * The ways the gateway answers, seen from outside: the HTTP methods, what it sends for each media
 * type a GraphQL client asks for (a query, a deferred query, a subscription), the page, and the
 * WebSocket subprotocols of every GraphQL-over-WebSocket client library. A way it answers that
 * ways-in.ts does not list has no column in the matrix; the test fails on it.
 */
export async function probeWaysIn(baseUrl: string): Promise<Served[]> {
  const url = `${baseUrl}/graphql`;
  const served: Served[] = [];
  const http = async (
    probe: string,
    method: string,
    accept: string,
    query: string,
    id: WayInId | undefined,
    answered: (contentType: string, status: number) => boolean,
  ) => {
    const target = method === 'GET' ? `${url}?query=${encodeURIComponent(query)}` : url;
    const abort = new AbortController();
    const response = await fetch(target, {
      method,
      headers: { accept, 'x-graphql-csrf': '1', ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
      ...(method === 'GET' || method === 'HEAD' ? {} : { body: JSON.stringify({ query }) }),
      signal: abort.signal,
    });
    if (answered(response.headers.get('content-type') ?? '', response.status)) served.push({ probe, id });
    abort.abort();
  };
  const json = (contentType: string, status: number) => status === 200 && contentType.includes('json');
  const streamed = (type: string) => (contentType: string, status: number) => status === 200 && contentType.startsWith(type);
  await http('GET, JSON', 'GET', 'application/graphql-response+json', '{ balances { currency } }', 'http-get', json);
  await http('POST, JSON', 'POST', 'application/graphql-response+json', '{ balances { currency } }', 'http-post', json);
  for (const method of ['PUT', 'PATCH', 'DELETE'])
    await http(`${method}`, method, 'application/json', '{ balances { currency } }', undefined, (_type, status) => status < 400);
  await http('@defer, multipart/mixed', 'POST', 'multipart/mixed', DEFERRED, 'multipart-mixed', streamed('multipart/mixed'));
  await http(
    "@defer, Apollo's deferSpec",
    'POST',
    'multipart/mixed;deferSpec=20220824',
    DEFERRED,
    'multipart-apollo',
    streamed('multipart/mixed'),
  );
  await http('@defer, SSE', 'POST', 'text/event-stream', DEFERRED, 'sse', streamed('text/event-stream'));
  await http('@defer, NDJSON', 'POST', 'application/x-ndjson', DEFERRED, undefined, (_type, status) => status === 200);
  await http('subscription, SSE', 'POST', 'text/event-stream', SUBSCRIPTION, 'sse', streamed('text/event-stream'));
  await http(
    "subscription, Apollo's subscriptionSpec",
    'POST',
    'multipart/mixed;subscriptionSpec=1.0',
    SUBSCRIPTION,
    'multipart-apollo',
    streamed('multipart/mixed'),
  );
  await http('subscription, plain multipart/mixed', 'POST', 'multipart/mixed', SUBSCRIPTION, undefined, (_type, status) => status === 200);
  await http('subscription, NDJSON', 'POST', 'application/x-ndjson', SUBSCRIPTION, undefined, (_type, status) => status === 200);
  const page = await fetch(url, { headers: { accept: 'text/html' } });
  if (page.status === 200 && (page.headers.get('content-type') ?? '').startsWith('text/html'))
    served.push({ probe: 'the page', id: 'graphiql' });
  await page.body?.cancel();
  const subprotocols: [string, WayInId][] = [
    [GRAPHQL_TRANSPORT_WS_PROTOCOL, 'graphql-transport-ws'],
    [GRAPHQL_WS, 'graphql-ws'],
  ];
  for (const [subprotocol, id] of [...subprotocols, ['graphql-sse', undefined] as const, ['graphql', undefined] as const]) {
    if (await speaks(url.replace(/^http/, 'ws'), subprotocol)) served.push({ probe: `WebSocket ${subprotocol}`, id });
  }
  return served;
}

/** Whether a WebSocket offered only `subprotocol` is taken with it and its connection_init acknowledged. */
function speaks(url: string, subprotocol: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, subprotocol);
    const done = (answer: boolean) => {
      clearTimeout(timer);
      socket.terminate();
      resolve(answer);
    };
    const timer = setTimeout(() => done(false), 2_000);
    socket.on('open', () =>
      socket.protocol === subprotocol ? socket.send(JSON.stringify({ type: 'connection_init', payload: {} })) : done(false),
    );
    // A Buffer: ws's default binaryType.
    socket.on('message', (raw) => done((JSON.parse((raw as Buffer).toString()) as { type: string }).type === 'connection_ack'));
    socket.on('close', () => done(false));
    socket.on('error', () => done(false));
  });
}
