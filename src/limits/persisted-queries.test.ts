import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it, vi } from 'vitest';
import { apqSocketDocuments, useAutomaticPersistedQueries, type PersistedQueryStore } from './persisted-queries.ts';

function storeSpy(): PersistedQueryStore & { get: ReturnType<typeof vi.fn> } {
  return { get: vi.fn(async () => null), set: vi.fn(async () => {}), close: async () => {} };
}

type OnParams = (payload: unknown) => unknown;

describe('automatic persisted queries over HTTP', () => {
  it('leaves a request that names no hash at once: no promise, no look-up', () => {
    const store = storeSpy();
    const hooks = useAutomaticPersistedQueries(store).flatMap((plugin) => (plugin.onParams ? [plugin.onParams as OnParams] : []));
    const answers = hooks.map((onParams) =>
      onParams({ params: { query: '{ __typename }' }, request: new Request('http://gateway/graphql'), setParams: () => {} }),
    );
    expect(answers).toEqual([undefined]);
    expect(store.get).not.toHaveBeenCalled();
  });

  it('looks up a hash sent alone, and answers PERSISTED_QUERY_NOT_FOUND for one it does not know', async () => {
    const store = storeSpy();
    const [hashes] = useAutomaticPersistedQueries(store);
    const sha256Hash = 'a'.repeat(64);
    const params = { extensions: { persistedQuery: { version: 1, sha256Hash } } };
    await expect(
      (hashes!.onParams as OnParams)({ params, request: new Request('http://gateway/graphql'), setParams: () => {}, fetchAPI: globalThis }),
    ).rejects.toMatchObject({
      extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' },
    });
    expect(store.get).toHaveBeenCalledWith(sha256Hash);
  });
});

describe('registering a document', () => {
  /** A store whose writes finish when the test says so. */
  function slowStore() {
    const pending: (() => void)[] = [];
    const stored: string[] = [];
    const store: PersistedQueryStore = {
      get: async () => null,
      set: (hash) => new Promise<void>((resolve) => void pending.push(() => (stored.push(hash), resolve()))),
      close: async () => {},
    };
    return { store, pending, stored };
  }
  const query = '{ hello }';
  const hash = createHash('sha256').update(query).digest('hex');

  it('answers the request that registers a document only once the store holds it: from that answer on the hash works on every instance', async () => {
    const { store, pending, stored } = slowStore();
    const schema = createSchema({ typeDefs: 'type Query { hello: String }', resolvers: { Query: { hello: () => 'hi' } } });
    const yoga = createYoga({ schema, plugins: useAutomaticPersistedQueries(store), logging: false });
    let answered = false;
    const answer = Promise.resolve(
      yoga.fetch('http://gateway/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } }),
      }),
    ).then((response) => ((answered = true), response));
    await vi.waitFor(() => expect(pending).toHaveLength(1));
    await sleep(20);
    expect(answered).toBe(false);
    pending[0]!();
    expect(await (await answer).json()).toEqual({ data: { hello: 'hi' } });
    expect(stored).toEqual([hash]);
  });

  it('over a WebSocket, the operation waits for the same write', async () => {
    const { store, pending, stored } = slowStore();
    const named = await apqSocketDocuments(store)({ query, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    if (named instanceof Error) throw named;
    let registered = false;
    const registering = Promise.resolve(named.validated?.()).then(() => (registered = true));
    await sleep(20);
    expect([registered, pending.length]).toEqual([false, 1]);
    pending[0]!();
    await registering;
    expect(stored).toEqual([hash]);
  });
});
