import { GRAPHQL_TRANSPORT_WS_PROTOCOL } from 'graphql-ws';
import { LEGACY_PROTOCOL } from './ws-legacy.ts';

/**
 * Every way an operation reaches the gateway and its answer leaves: the transports server.ts,
 * yoga.ts, ws.ts and incremental-delivery.ts mount. The compatibility matrix (test/protocol/matrix.test.ts)
 * drives each with the client that defines it, against every directive and document form, and fails
 * when one of these has no column or the server answers a way that is not here
 * (docs/contributing.md: a feature that adds a way adds it here and its column there).
 */
export const WAYS_IN = [
  {
    id: 'http-get',
    request: 'GET /graphql, the parameters in the URL',
    answer: 'JSON (application/graphql-response+json or application/json)',
  },
  { id: 'http-post', request: 'POST /graphql, a JSON body', answer: 'JSON' },
  {
    id: 'multipart-apollo',
    request: 'GET or POST with Accept: multipart/mixed;deferSpec=20220824 (@defer) or ;subscriptionSpec=1.0 (subscriptions)',
    answer: "Apollo's multipart: incremental parts, or each event as a `payload` part with heartbeats",
  },
  {
    id: 'multipart-mixed',
    request: 'GET or POST with Accept: multipart/mixed',
    answer: 'incremental delivery parts (boundary "-"), as urql and meros read them',
  },
  {
    id: 'sse',
    request: 'GET or POST with Accept: text/event-stream',
    answer: 'GraphQL over SSE, one connection per operation: `next` events, then `complete`',
  },
  {
    id: 'graphql-transport-ws',
    request: `WebSocket upgrade, subprotocol ${GRAPHQL_TRANSPORT_WS_PROTOCOL}`,
    answer: "graphql-ws' messages",
    subprotocol: GRAPHQL_TRANSPORT_WS_PROTOCOL,
  },
  {
    id: 'graphql-ws',
    request: `WebSocket upgrade, subprotocol ${LEGACY_PROTOCOL}`,
    answer: "subscriptions-transport-ws' messages (Apollo Kotlin, Apollo iOS)",
    subprotocol: LEGACY_PROTOCOL,
  },
  {
    id: 'graphiql',
    request: 'GET /graphql with Accept: text/html: the page, whose executor POSTs queries and mutations and subscribes over SSE',
    answer: 'the page',
  },
] as const;

export type WayInId = (typeof WAYS_IN)[number]['id'];
