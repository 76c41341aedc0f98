import { persistedExchange } from '@urql/exchange-persisted';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { createClient as createWsClient } from 'graphql-ws';
import { Client, cacheExchange, fetchExchange, type Exchange } from 'urql';
import { GATEWAY_URL, TRUSTED_DOCUMENTS, WS_URL } from './config.ts';

/** The id codegen's client preset gives every document (`sha256:<hex>`), the key of the manifest. */
function documentId(document: TypedDocumentNode<unknown, never> | object): string {
  const hash = (document as { __meta__?: { hash?: string } }).__meta__?.hash;
  if (hash === undefined) throw new Error('a document without an id: run npm run codegen');
  return hash;
}

/** Queries and mutations over HTTP, by id alone when the gateway runs only trusted documents. */
const byId: Exchange[] = TRUSTED_DOCUMENTS
  ? [persistedExchange({ enforcePersistedQueries: true, enableForMutation: true, generateHash: async (_query, document) => documentId(document) })]
  : [];

export const client = new Client({
  url: GATEWAY_URL,
  exchanges: [cacheExchange, ...byId, fetchExchange],
  // Results carry typed errors inside `data` (ValidationError...): nothing stale may hide them.
  requestPolicy: 'cache-and-network',
  // Persisted queries go out as GETs (cacheable); the gateway's CSRF prevention wants this header on
  // a GET, which only a page allowed by CORS can add.
  fetchOptions: { headers: { 'x-graphql-csrf': '1' } },
});

/** Subscriptions over graphql-ws: reconnects forever, with the gateway's own backoff on top. */
export const ws = createWsClient({ url: WS_URL, retryAttempts: Infinity, lazy: true });

/** The subscribe message's `query`: the document's id for a trusted-documents gateway, else its text. */
export function subscriptionQuery(document: TypedDocumentNode<unknown, never> | object): string {
  return TRUSTED_DOCUMENTS ? documentId(document) : print(document as never);
}
