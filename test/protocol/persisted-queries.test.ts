import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { addTypenameToDocument } from '@apollo/client/utilities';
import { print } from 'graphql';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHIPPED_TRUSTED_DOCUMENTS } from '../../src/settings/index.ts';
import { DashboardDocument } from '../generated/graphql.ts';
import { startKit, useKit, type Kit } from '../helpers/kit.ts';
import { capturingLogger } from '../helpers/observe.ts';
import { freePort, REDIS_URL, redisAnswers } from '../helpers/redis.ts';
import { postGraphql } from '../helpers/http.ts';

/**
 * Automatic Persisted Queries as Apollo's clients speak them: the hash alone first, the document
 * with its hash when the gateway does not know it, the hash alone from then on. Driven by Apollo
 * Client's own PersistedQueryLink at its defaults, and on the wire for what the link does not show.
 */

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const persisted = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });

/** A document no other test (nor an earlier run sharing Redis) has registered. */
function uniqueQuery(): string {
  return `query Balances_${randomUUID().replaceAll('-', '')} { balances { currency } }`;
}

/** What went over the wire to the gateway: each request's method and whether it carried the document. */
function recordingFetch() {
  const sent: { method: string; withDocument: boolean; hashed: boolean }[] = [];
  const fetchAndRecord: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { query?: string; extensions?: unknown }) : undefined;
    const withDocument = body ? typeof body.query === 'string' : url.searchParams.has('query');
    const hashed = body ? body.extensions !== undefined : url.searchParams.has('extensions');
    sent.push({ method: init?.method ?? 'GET', withDocument, hashed });
    return fetch(input, init);
  };
  return { sent, fetch: fetchAndRecord };
}

function apolloClient(uri: string, fetchImpl: typeof fetch, options: { useGETForHashedQueries?: boolean } = {}) {
  const link = new PersistedQueryLink({ sha256, ...options }).concat(new HttpLink({ uri, fetch: fetchImpl }));
  return new ApolloClient({ link, cache: new InMemoryCache() });
}

const codeOf = (body: { errors?: { extensions?: { code?: string } }[] }) => body.errors?.[0]?.extensions?.code;

describe('automatic persisted queries (no trusted documents)', () => {
  const kit = useKit({ listen: true });

  it("Apollo Client's persisted-queries link: the hash alone, then the document once, then the hash alone again", async () => {
    const query = gql(uniqueQuery());
    const first = recordingFetch();
    const result = await apolloClient(`${kit.baseUrl}/graphql`, first.fetch).query({ query });
    expect((result.data as { balances: unknown[] }).balances.length).toBeGreaterThan(0);
    expect(first.sent).toEqual([
      { method: 'POST', withDocument: false, hashed: true },
      { method: 'POST', withDocument: true, hashed: true },
    ]);

    // Another app (a fresh client) that knows the same document: one request, the hash alone.
    const second = recordingFetch();
    const again = await apolloClient(`${kit.baseUrl}/graphql`, second.fetch).query({ query });
    expect((again.data as { balances: unknown[] }).balances.length).toBeGreaterThan(0);
    expect(second.sent).toEqual([{ method: 'POST', withDocument: false, hashed: true }]);
  });

  it('with useGETForHashedQueries the hash goes as a cacheable GET, marked by Apollo as CSRF-safe', async () => {
    const query = gql(uniqueQuery());
    const client = recordingFetch();
    const link = new PersistedQueryLink({ sha256, useGETForHashedQueries: true }).concat(
      // Apollo's mobile clients send this header with their GETs; the web client can be told to.
      new HttpLink({ uri: `${kit.baseUrl}/graphql`, fetch: client.fetch, headers: { 'apollo-require-preflight': 'true' } }),
    );
    const apollo = new ApolloClient({ link, cache: new InMemoryCache() });
    await apollo.query({ query });
    await new ApolloClient({ link, cache: new InMemoryCache() }).query({ query });
    expect(client.sent).toEqual([
      { method: 'GET', withDocument: false, hashed: true },
      { method: 'POST', withDocument: true, hashed: true },
      { method: 'GET', withDocument: false, hashed: true },
    ]);
  });

  it('on the wire: NOT_FOUND with HTTP 200, registration, then GET and POST by hash; a hash that is not the document is refused', async () => {
    const query = uniqueQuery();
    const hash = sha256(query);
    const unknown = await postGraphql(`${kit.baseUrl}/graphql`, { extensions: persisted(hash) });
    expect(unknown.status).toBe(200);
    expect(codeOf(unknown.body)).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(unknown.body.errors![0]!.message).toBe('PersistedQueryNotFound');

    const mismatch = await postGraphql(`${kit.baseUrl}/graphql`, { query, extensions: persisted(sha256(`${query} `)) });
    expect(codeOf(mismatch.body)).toBe('PERSISTED_QUERY_MISMATCH');
    expect(mismatch.body.data).toBeUndefined();
    // The refused document was not registered under either hash.
    expect(codeOf((await postGraphql(`${kit.baseUrl}/graphql`, { extensions: persisted(sha256(`${query} `)) })).body)).toBe(
      'PERSISTED_QUERY_NOT_FOUND',
    );

    const registered = await postGraphql(`${kit.baseUrl}/graphql`, { query, extensions: persisted(hash) });
    expect(Array.isArray(registered.body.data?.balances)).toBe(true);
    expect((await postGraphql(`${kit.baseUrl}/graphql`, { extensions: persisted(hash) })).body.data?.balances).toEqual(
      registered.body.data?.balances,
    );

    const url = `${kit.baseUrl}/graphql?extensions=${encodeURIComponent(JSON.stringify(persisted(hash)))}`;
    const viaGet = await fetch(url, { headers: { 'x-apollo-operation-name': 'Balances' } });
    expect(viaGet.status).toBe(200);
    expect(((await viaGet.json()) as { data: unknown }).data).toEqual(registered.body.data);
  });

  it('registers only a document that validates: junk with a matching hash is answered and forgotten', async () => {
    const junk = `query Junk_${randomUUID().replaceAll('-', '')} { noSuchField }`;
    const answer = await postGraphql(`${kit.baseUrl}/graphql`, { query: junk, extensions: persisted(sha256(junk)) });
    expect(codeOf(answer.body)).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(codeOf((await postGraphql(`${kit.baseUrl}/graphql`, { extensions: persisted(sha256(junk)) })).body)).toBe(
      'PERSISTED_QUERY_NOT_FOUND',
    );
  });
});

describe('automatic persisted queries with Redis: every instance knows a registered hash', () => {
  let available = false;
  const kits: Kit[] = [];
  beforeAll(async () => {
    available = await redisAnswers(REDIS_URL);
    if (!available) return;
    kits.push(await startKit({ listen: true, redis: { url: REDIS_URL }, redisKeyPrefix: `apq-${randomUUID()}` }));
    kits.push(await startKit({ listen: true, redis: { url: REDIS_URL }, redisKeyPrefix: `apq-${randomUUID()}` }));
  });
  afterAll(async () => {
    for (const kit of kits) await kit.close();
  });

  it('a hash registered through one instance runs by hash alone on another', async (context) => {
    if (!available) return context.skip();
    const [one, two] = kits as [Kit, Kit];
    const query = uniqueQuery();
    const hash = sha256(query);
    expect(codeOf((await postGraphql(`${two.baseUrl}/graphql`, { extensions: persisted(hash) })).body)).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect((await postGraphql(`${one.baseUrl}/graphql`, { query, extensions: persisted(hash) })).body.data?.balances).toBeDefined();
    await expect
      .poll(async () => (await postGraphql(`${two.baseUrl}/graphql`, { extensions: persisted(hash) })).body.data?.balances)
      .toBeDefined();
  });

  it('Redis not answering: the client is told NOT_FOUND, sends its document and is served; the log says so once', async () => {
    const logger = capturingLogger();
    const deadRedis = `redis://127.0.0.1:${await freePort()}`;
    const kit = await startKit({ listen: true, redis: { url: deadRedis }, logger: logger.logger });
    try {
      const query = gql(uniqueQuery());
      const client = recordingFetch();
      const result = await apolloClient(`${kit.baseUrl}/graphql`, client.fetch).query({ query });
      expect((result.data as { balances: unknown[] }).balances.length).toBeGreaterThan(0);
      expect(client.sent.map((request) => request.withDocument)).toEqual([false, true]);
      // The instance's own memory keeps the hash: a second client needs one request.
      const second = recordingFetch();
      await apolloClient(`${kit.baseUrl}/graphql`, second.fetch).query({ query });
      expect(second.sent.map((request) => request.withDocument)).toEqual([false]);
      expect(logger.messages(/persisted queries: Redis is not answering/)).toHaveLength(1);
    } finally {
      await kit.close();
    }
  });
});

describe("automatic persisted queries with trusted documents: only the manifest's hashes run", () => {
  const kit = useKit({ listen: true, limits: { trustedDocuments: SHIPPED_TRUSTED_DOCUMENTS } });

  it("with codegen's manifest, Apollo's link sends the document's manifest id (generateHash) and runs it by id at once", async () => {
    const client = recordingFetch();
    const link = new PersistedQueryLink({
      generateHash: (document) => (document as unknown as { __meta__: { hash: string } }).__meta__.hash,
    }).concat(new HttpLink({ uri: `${kit.baseUrl}/graphql`, fetch: client.fetch }));
    const result = await new ApolloClient({ link, cache: new InMemoryCache() }).query({ query: DashboardDocument });
    expect((result.data as { balances: unknown[] }).balances.length).toBeGreaterThan(0);
    expect(client.sent).toEqual([{ method: 'POST', withDocument: false, hashed: true }]);
  });

  it('an unlisted document can never register: its hash is not in the list, its text is refused', async () => {
    const query = uniqueQuery();
    const hash = sha256(query);
    const client = recordingFetch();
    await expect(apolloClient(`${kit.baseUrl}/graphql`, client.fetch).query({ query: gql(query) })).rejects.toThrow(/Unknown document id/);
    // PERSISTED_QUERY_NOT_IN_LIST is no reason for the link to send the document.
    expect(client.sent).toEqual([{ method: 'POST', withDocument: false, hashed: true }]);
    expect(codeOf((await postGraphql(`${kit.baseUrl}/graphql`, { query, extensions: persisted(hash) })).body)).toBe('PERSISTED_QUERY_ONLY');
    expect(codeOf((await postGraphql(`${kit.baseUrl}/graphql`, { extensions: persisted(hash) })).body)).toBe('PERSISTED_QUERY_NOT_IN_LIST');
  });
});

describe("trusted documents from Apollo's persisted query manifest (what Apollo Kotlin and iOS export)", () => {
  const query = gql(uniqueQuery());
  // What Apollo Client sends (its cache adds __typename): @apollo/generate-persisted-query-manifest writes the same.
  const body = print(addTypenameToDocument(query));
  const directory = mkdtempSync(join(tmpdir(), 'apollo-manifest-'));
  const manifest = join(directory, 'persisted-query-manifest.json');
  writeFileSync(
    manifest,
    JSON.stringify({
      format: 'apollo-persisted-query-manifest',
      version: 1,
      operations: [{ id: sha256(body), body, name: 'Balances', type: 'query' }],
    }),
  );
  const kit = useKit({ listen: true, limits: { trustedDocuments: manifest } });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('Apollo Client at its defaults (SHA-256 of the printed document) runs a listed document by hash alone', async () => {
    const client = recordingFetch();
    const result = await apolloClient(`${kit.baseUrl}/graphql`, client.fetch).query({ query });
    expect((result.data as { balances: unknown[] }).balances.length).toBeGreaterThan(0);
    expect(client.sent).toEqual([{ method: 'POST', withDocument: false, hashed: true }]);
    await expect(apolloClient(`${kit.baseUrl}/graphql`, recordingFetch().fetch).query({ query: gql(uniqueQuery()) })).rejects.toThrow(
      /Unknown document id/,
    );
  });
});

/** The legacy `graphql-ws` subprotocol spoken frame by frame, as Apollo Kotlin speaks it with APQ on. */
async function legacySocket(baseUrl: string) {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/graphql`, 'graphql-ws');
  const frames: { type: string; id?: string; payload?: any }[] = [];
  // A Buffer: ws's default binaryType.
  socket.on('message', (data) => frames.push(JSON.parse((data as Buffer).toString())));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  socket.send(JSON.stringify({ type: 'connection_init', payload: {} }));
  const answer = async (id: string, payload: unknown) => {
    socket.send(JSON.stringify({ id, type: 'start', payload }));
    await expect.poll(() => frames.some((frame) => frame.id === id && (frame.type === 'complete' || frame.type === 'error'))).toBe(true);
    return frames.filter((frame) => frame.id === id && frame.type !== 'complete');
  };
  return { answer, close: () => socket.close() };
}

describe('automatic persisted queries on the legacy graphql-ws subprotocol (Apollo Kotlin with APQ on)', () => {
  const kit = useKit({ listen: true });

  it('the hash alone: not found; with the document: run and registered; the hash alone again: run', async () => {
    const query = uniqueQuery();
    const extensions = persisted(sha256(query));
    const socket = await legacySocket(kit.baseUrl!);
    try {
      const [unknown] = await socket.answer('1', { extensions });
      expect(unknown).toMatchObject({
        type: 'error',
        payload: { errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] },
      });
      const [registered] = await socket.answer('2', { query, extensions });
      expect(registered!.type).toBe('data');
      expect(Array.isArray(registered!.payload.data.balances)).toBe(true);
      const [byHash] = await socket.answer('3', { extensions });
      expect(byHash).toEqual(registered ? { ...registered, id: '3' } : undefined);
      // Over HTTP too: one store.
      expect((await postGraphql(`${kit.baseUrl}/graphql`, { extensions })).body.data?.balances).toEqual(registered!.payload.data.balances);
      const [mismatch] = await socket.answer('4', { query, extensions: persisted(sha256(`${query} `)) });
      expect(mismatch).toMatchObject({ type: 'error', payload: { errors: [{ extensions: { code: 'PERSISTED_QUERY_MISMATCH' } }] } });
    } finally {
      socket.close();
    }
  });
});

describe('trusted documents named by their APQ hash on the legacy graphql-ws subprotocol', () => {
  const kit = useKit({ listen: true, limits: { trustedDocuments: SHIPPED_TRUSTED_DOCUMENTS } });

  it('a listed hash runs at once; an unlisted one is not in the list', async () => {
    const listed = (DashboardDocument as unknown as { __meta__: { hash: string } }).__meta__.hash.replace('sha256:', '');
    const socket = await legacySocket(kit.baseUrl!);
    try {
      const [dashboard] = await socket.answer('1', { extensions: persisted(listed), operationName: 'Dashboard' });
      expect(dashboard!.type).toBe('data');
      expect(dashboard!.payload.data.balances.length).toBeGreaterThan(0);
      const [unlisted] = await socket.answer('2', { extensions: persisted(sha256(uniqueQuery())) });
      expect(unlisted).toMatchObject({ type: 'error', payload: { errors: [{ extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST' } }] } });
    } finally {
      socket.close();
    }
  });
});
