import { persistedExchange } from '@urql/exchange-persisted';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { getOperationAST, print, type DocumentNode } from 'graphql';
import { createClient as createWsClient } from 'graphql-ws';
import { Client, cacheExchange, fetchExchange, subscriptionExchange, type Exchange } from 'urql';
import { GATEWAY_URL, TRUSTED_DOCUMENTS, WS_URL } from './config.ts';

/** The id codegen's client preset gives every document (`sha256:<hex>`), the key of the manifest. */
function documentId(document: TypedDocumentNode<unknown, never> | object): string {
  const hash = (document as { __meta__?: { hash?: string } }).__meta__?.hash;
  if (hash === undefined) throw new Error('a document without an id: run npm run codegen');
  return hash;
}

/** Queries and mutations over HTTP, by id alone when the gateway runs only trusted documents. */
const byId: Exchange[] = TRUSTED_DOCUMENTS
  ? [
      persistedExchange({
        enforcePersistedQueries: true,
        enableForMutation: true,
        generateHash: async (_query, document) => documentId(document),
      }),
    ]
  : [];

/** Subscriptions over graphql-ws: reconnects forever, with the gateway's own backoff on top. */
const ws = createWsClient({ url: WS_URL, retryAttempts: Infinity, lazy: true });

/** A `query … @live`: the gateway streams it, so it goes where subscriptions go (docs/frontend.md, "Live queries"). */
function isLiveQuery(document: DocumentNode): boolean {
  const operation = getOperationAST(document);
  return operation?.operation === 'query' && (operation.directives ?? []).some((directive) => directive.name.value === 'live');
}

/**
 * Subscriptions and live queries over graphql-ws, before fetchExchange sees them: each push of a
 * live query is the query's new result, so `useQuery` renders it. After a reconnect graphql-ws
 * subscribes again and the live query answers the current state at once.
 */
const streams = subscriptionExchange({
  isSubscriptionOperation: ({ kind, query }) => kind === 'subscription' || (kind === 'query' && isLiveQuery(query)),
  forwardSubscription: ({ variables, operationName }, operation) => ({
    subscribe: (sink) => ({ unsubscribe: ws.subscribe({ query: subscriptionQuery(operation.query), variables, operationName }, sink) }),
  }),
});

export const client = new Client({
  url: GATEWAY_URL,
  exchanges: [cacheExchange, streams, ...byId, fetchExchange],
  // Results carry typed errors inside `data` (ValidationError...): nothing stale may hide them.
  requestPolicy: 'cache-and-network',
  // Persisted queries go out as GETs (cacheable); the gateway's CSRF prevention wants this header on
  // a GET, which only a page allowed by CORS can add.
  fetchOptions: { headers: { 'x-graphql-csrf': '1' } },
});

/** The subscribe message's `query`: the document's id for a trusted-documents gateway, else its text. */
function subscriptionQuery(document: TypedDocumentNode<unknown, never> | object): string {
  return TRUSTED_DOCUMENTS ? documentId(document) : print(document as never);
}
