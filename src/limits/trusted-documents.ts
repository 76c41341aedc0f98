import { readFileSync } from 'node:fs';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { parse, type DocumentNode } from 'graphql';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import { apqHashOf, type SocketDocuments } from './persisted-queries.ts';
import { refusal } from './refusal.ts';
import type { RouterTraffic } from './router.ts';
import { sha256Hex } from '../platform/secrets.ts';

/**
 * Trusted documents: with a manifest, only its documents are executed, named by id.
 *
 * The manifest is either GraphQL Code Generator's persisted-documents file (`npm run codegen` writes
 * schema/trusted-documents.json): `{ "sha256:<hex>": "<document>" }`, or Apollo's persisted query
 * manifest (`{"format": "apollo-persisted-query-manifest", "version": 1, "operations": [{"id",
 * "body", ...}]}`, what Apollo Kotlin, Apollo iOS and `@apollo/generate-persisted-query-manifest`
 * export), so the hashes Apollo's clients send with Automatic Persisted Queries are the ids. In
 * both, an id is the SHA-256 of its document text. A request names its document by id, with or
 * without the `sha256:` prefix:
 * - HTTP POST: `{"documentId": "sha256:<hex>", "variables": …}` (GraphQL over HTTP's persisted
 *   documents, what the client preset's `__meta__.hash` is for) or Apollo's
 *   `{"extensions": {"persistedQuery": {"version": 1, "sha256Hash": "<hex>"}}}`;
 * - HTTP GET and SSE: `?documentId=sha256:<hex>` or `?extensions={"persistedQuery":…}`;
 * - graphql-ws: the id as the subscribe message's `query` (graphql-ws' persisted-queries recipe).
 * A request with query text, an unknown id or no id at all is refused before parsing.
 *
 * @graphql-yoga/plugin-persisted-operations turns an HTTP request's id into the document; it never
 * runs for graphql-ws (its hook is Yoga's onParams). The parse guard here runs on every transport
 * and lets nothing but a manifest document through, so it is the rule; the Yoga plugin is the
 * HTTP adapter to it.
 */

export interface TrustedDocuments {
  /** The document for an id (`sha256:<hex>` or `<hex>`), if trusted. */
  get(id: string): DocumentNode | undefined;
  readonly size: number;
}

const HEX_ID = /^(?:sha256:)?([0-9a-f]{64})$/i;
/** How the Yoga plugin hands a persisted document to the parser. */
const PLACEHOLDER = /^__PERSISTED_OPERATION_(.+)__$/;

/** Reads and checks a manifest: every id must be the SHA-256 of its document, every document parse. */
export function loadTrustedDocuments(path: string): TrustedDocuments {
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`trusted documents: cannot read the manifest ${path}: ${(error as Error).message}`, { cause: error });
  }
  const entries = manifestEntries(manifest);
  if (!entries) {
    throw new Error(
      `trusted documents: ${path} must be a JSON object of "sha256:<hex>": "<document>", or an Apollo persisted query manifest`,
    );
  }
  const documents = new Map<string, DocumentNode>();
  for (const [id, text] of entries) {
    const hex = HEX_ID.exec(id)?.[1]?.toLowerCase();
    if (typeof text !== 'string' || hex !== sha256Hex(text)) {
      throw new Error(`trusted documents: in ${path}, "${id}" is not the SHA-256 of its document`);
    }
    documents.set(hex, parse(text));
  }
  return {
    get: (id) => {
      const hex = HEX_ID.exec(id)?.[1];
      return hex ? documents.get(hex.toLowerCase()) : undefined;
    },
    size: documents.size,
  };
}

/** A manifest's [id, document] pairs, in either format; undefined for anything else. */
function manifestEntries(manifest: unknown): [string, unknown][] | undefined {
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) return undefined;
  const apollo = manifest as { format?: unknown; operations?: unknown };
  if (apollo.format === undefined) return Object.entries(manifest);
  if (apollo.format !== 'apollo-persisted-query-manifest' || !Array.isArray(apollo.operations)) return undefined;
  return apollo.operations.map((operation: { id?: unknown; body?: unknown }) => [String(operation?.id), operation?.body]);
}

const notInList = () =>
  refusal('PERSISTED_QUERY_NOT_IN_LIST', 'Unknown document id: only the trusted documents of this gateway are executed.');
const idRequired = () => refusal('PERSISTED_QUERY_ID_REQUIRED', 'No document id: send the id of a trusted document (documentId).');
const onlyTrusted = () =>
  refusal('PERSISTED_QUERY_ONLY', 'Query text is not accepted: send the id of a trusted document (documentId) instead.');

/**
 * `fromRouter`, with FEDERATION_SUBGRAPH: the supergraph's router (limits/router.ts) sends the query
 * plans it makes, never the clients' documents, so its requests may carry text; the router holds
 * the clients to its own persisted documents (docs/federation.md).
 */
export function useTrustedDocuments(trusted: TrustedDocuments, fromRouter?: RouterTraffic): Plugin[] {
  const router = (request: Request | undefined) => fromRouter !== undefined && request !== undefined && fromRouter(request.headers);
  return [
    usePersistedOperations({
      allowArbitraryOperations: (request) => router(request),
      extractPersistedOperationId: documentIdOf,
      getPersistedOperation: (id) => trusted.get(id) ?? null,
      customErrors: {
        notFound: () => notInList(),
        persistedQueryOnly: () => onlyTrusted(),
        keyNotFound: () => idRequired(),
      },
    }),
    {
      onParse({ params, context, setParsedDocument }) {
        if (router((context as { request?: Request }).request)) return;
        const source = typeof params.source === 'string' ? params.source : params.source.body;
        const id = PLACEHOLDER.exec(source)?.[1] ?? source.trim();
        const document = trusted.get(id);
        if (document) return setParsedDocument(document);
        throw HEX_ID.test(id) ? notInList() : onlyTrusted();
      },
    },
  ];
}

/** The id a request names its document by (see above), or null. */
function documentIdOf(params: GraphQLParams & { documentId?: unknown }, request: Request): string | null {
  if (typeof params.documentId === 'string') return params.documentId;
  const fromUrl = request.method === 'GET' ? new URL(request.url).searchParams.get('documentId') : null;
  if (fromUrl) return fromUrl;
  return apqHashOf(params.extensions) ?? null;
}

/**
 * On a WebSocket an Apollo client may name a trusted document by its APQ hash alone: that hash is
 * the operation's id, which the parse guard above turns into the manifest's document or refuses.
 * The router's subscriptions (`fromRouter`, by the socket's upgrade headers) go as text.
 */
export function trustedSocketDocuments(fromRouter?: RouterTraffic): SocketDocuments {
  return async ({ query, extensions }, upgrade) => {
    if (typeof query === 'string' && upgrade && fromRouter?.(upgrade)) return { query };
    const hash = apqHashOf(extensions);
    if (typeof query === 'string') return { query };
    return hash === undefined ? idRequired() : { query: hash };
  };
}
