import { useAPQ } from '@graphql-yoga/plugin-apq';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import type { GraphQLError } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../platform/logger.ts';
import { connectRedis } from '../platform/redis-options.ts';
import { sha256Hex } from '../platform/secrets.ts';
import type { RedisTarget } from '../settings/index.ts';

/**
 * Automatic Persisted Queries as Apollo defines them (Apollo Client's persisted-queries link, Apollo
 * Kotlin and Apollo iOS at their defaults): a client first sends only the SHA-256 of its document
 * (`extensions.persistedQuery`); an unknown hash answers PERSISTED_QUERY_NOT_FOUND, the client then
 * sends the document with its hash, which registers it, and the hash alone works from then on (POST
 * or a cacheable GET). A hash that is not the document's answers PERSISTED_QUERY_MISMATCH.
 *
 * The protocol is The Guild's `@graphql-yoga/plugin-apq`. What is added here:
 * - Where the hashes live: in this process (bounded: MEMORY_MAX_ENTRIES and APQ_MAX_KB of text,
 *   least recently used out first) and, with REDIS_URL, in Redis, so a hash registered through one
 *   instance works on all of them. Redis failing costs nothing but a round trip: the client is
 *   told NOT_FOUND and sends its document again (logged once per outage).
 * - What gets registered: only a document that passed validation (the plugin would store any text
 *   whose hash matches, junk included, before it is even parsed).
 * - Both refusals answer HTTP 200 (`forceStatusCodeOk`): Apollo iOS treats any other status as a
 *   failed request before it reads the body, so it would never send the document.
 *
 * With TRUSTED_DOCUMENTS set this is not used: trusted-documents.ts answers every hash from the
 * manifest, and nothing can register (limits/documents.ts picks one or the other).
 */

/** One day: a hash unused that long is forgotten; its client just sends the document again. */
const TTL_SECONDS = 24 * 60 * 60;
const MEMORY_MAX_ENTRIES = 1_000;
const COMMAND_TIMEOUT_MS = 250;
const HEX = /^[0-9a-f]{64}$/;

export interface PersistedQueryStore {
  /** The document registered under `hash`, or null (unknown, expired, or Redis not answering). */
  get(hash: string): Promise<string | null>;
  /** Registers `query` under `hash` (which the caller has checked): never throws. */
  set(hash: string, query: string): Promise<void>;
  close(): Promise<void>;
}

export interface PersistedQueryStoreOptions {
  logger: Logger;
  redis?: RedisTarget | undefined;
  /** Names the Redis keys (default `persisted-query`): instances that share hashes share it. */
  keyPrefix?: string | undefined;
  /** The documents kept in this process, by the length of their text in KB (APQ_MAX_KB). */
  maxKb: number;
}

export function createPersistedQueryStore(options: PersistedQueryStoreOptions): PersistedQueryStore {
  const memory = new LRUCache<string, string>({
    max: MEMORY_MAX_ENTRIES,
    maxSize: options.maxKb * 1024,
    sizeCalculation: (query) => query.length || 1,
    ttl: TTL_SECONDS * 1_000,
  });
  const shared = options.redis ? redisHashes(options.redis, options.keyPrefix ?? 'persisted-query', options.logger) : undefined;
  return {
    get: async (hash) => {
      if (!HEX.test(hash)) return null;
      const known = memory.get(hash);
      if (known !== undefined || !shared) return known ?? null;
      const query = await shared.get(hash);
      if (query !== null) memory.set(hash, query);
      return query;
    },
    set: async (hash, query) => {
      memory.set(hash, query);
      await shared?.set(hash, query);
    },
    close: async () => shared?.close(),
  };
}

/** The Redis half: each failure is a miss, said once per outage (and once when Redis answers again). */
function redisHashes(target: RedisTarget, prefix: string, logger: Logger) {
  const redis = connectRedis(target, { commandTimeout: COMMAND_TIMEOUT_MS });
  let failing = false;
  const failed = (error: Error) => {
    if (!failing) logger.warn({ reason: error.message }, 'persisted queries: Redis is not answering; clients will resend their documents');
    failing = true;
  };
  const answered = () => {
    if (failing) logger.info('persisted queries: Redis answers again');
    failing = false;
  };
  // ioredis reports each reconnect attempt; the first command that fails says it once.
  redis.on('error', () => {});
  const key = (hash: string) => `${prefix}:${hash}`;
  return {
    get: (hash: string): Promise<string | null> =>
      redis.get(key(hash)).then(
        (query) => (answered(), query),
        (error: Error) => (failed(error), null),
      ),
    set: (hash: string, query: string): Promise<void> => redis.set(key(hash), query, 'EX', TTL_SECONDS).then(answered, failed),
    close: () =>
      redis.quit().then(
        () => undefined,
        () => redis.disconnect(),
      ),
  };
}

/** The request whose document arrived with its hash: registered once validation has passed it. */
interface Offer {
  hash: string;
  query: string;
  /** The store's write, which the request's answer waits for. */
  registering?: Promise<void>;
}

export function useAutomaticPersistedQueries(store: PersistedQueryStore): Plugin[] {
  const offers = new WeakMap<Request, Offer>();
  // The plugin checks the hash and answers the protocol; registering is left to onValidate below.
  const { onParams: protocol, ...apq } = useAPQ({
    store: { get: (hash) => store.get(hash), set: () => undefined },
    responseConfig: { forceStatusCodeOk: true },
  });
  return [
    {
      ...apq,
      // The plugin's own hook is async: it would cost every request a promise (and a hook of its
      // own, with the offer's), though only requests that name a hash take part.
      onParams(payload) {
        const { params, request } = payload;
        const hash = apqHashOf(params.extensions);
        if (hash === undefined) return;
        if (typeof params.query === 'string') offers.set(request, { hash, query: params.query });
        return protocol?.(payload);
      },
    },
    {
      onValidate({ context }) {
        const offer = offers.get((context as { request: Request }).request);
        if (!offer) return;
        return ({ valid }) => {
          if (valid) offer.registering = store.set(offer.hash, offer.query);
        };
      },
      // The registering request is answered once the store holds its document (the write runs beside
      // the execution): a client that sends the hash alone next, to any instance, finds it there.
      // Bounded by the store (Redis' command timeout); the store never rejects.
      onResultProcess({ request }) {
        return offers.get(request)?.registering;
      },
    },
  ];
}

/** The SHA-256 an Apollo client names its document by (`extensions.persistedQuery`, version 1), if any. */
export function apqHashOf(extensions: unknown): string | undefined {
  const persisted = (extensions as { persistedQuery?: { version?: unknown; sha256Hash?: unknown } } | null | undefined)?.persistedQuery;
  return persisted?.version === 1 && typeof persisted.sha256Hash === 'string' ? persisted.sha256Hash : undefined;
}

/** A WebSocket operation's payload, as far as its document goes: its text, an APQ hash, or both. */
interface SocketDocumentRequest {
  query?: string | undefined;
  extensions?: Record<string, unknown> | null | undefined;
}

/**
 * The text to run and what to do once it passed validation (register it: the operation waits for
 * that write, as the HTTP answer does), or the refusal to answer with.
 */
type SocketDocument = { query: string; validated?: () => Promise<void> } | GraphQLError;

/**
 * Persisted queries on a WebSocket, where Yoga's request hooks (and so the plugins above) never run:
 * Apollo Kotlin with APQ on sends an operation's hash alone on the legacy `graphql-ws` subprotocol
 * too, and the document after PERSISTED_QUERY_NOT_FOUND, as over HTTP. `upgrade`: the headers the
 * socket was opened with (a supergraph's router is told by them).
 */
export type SocketDocuments = (payload: SocketDocumentRequest, upgrade?: { get(name: string): string | null }) => Promise<SocketDocument>;

const MISSING_QUERY = () => createGraphQLError('Must provide query string.', { extensions: { code: 'BAD_REQUEST' } });

/** Without persisted queries: an operation's document is its text. */
export const textSocketDocuments: SocketDocuments = async ({ query }) => (typeof query === 'string' ? { query } : MISSING_QUERY());

/** The same answers as the HTTP plugin: NOT_FOUND, MISMATCH, and registration once validated. */
export function apqSocketDocuments(store: PersistedQueryStore): SocketDocuments {
  return async ({ query, extensions }) => {
    const hash = apqHashOf(extensions);
    if (hash === undefined) return textSocketDocuments({ query });
    if (typeof query !== 'string') {
      const known = await store.get(hash);
      return known === null
        ? createGraphQLError('PersistedQueryNotFound', { extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } })
        : { query: known };
    }
    if (sha256Hex(query) !== hash.toLowerCase())
      return createGraphQLError('PersistedQueryMismatch', { extensions: { code: 'PERSISTED_QUERY_MISMATCH' } });
    return { query, validated: () => store.set(hash, query) };
  };
}
