import { describe, expect, it, vi } from 'vitest';
import { useAutomaticPersistedQueries, type PersistedQueryStore } from './persisted-queries.ts';

function storeSpy(): PersistedQueryStore & { get: ReturnType<typeof vi.fn> } {
  return { get: vi.fn(async () => null), set: vi.fn(async () => {}), close: async () => {} };
}

type OnParams = (payload: unknown) => unknown;

describe('automatic persisted queries over HTTP', () => {
  it('leaves a request that names no hash at once: no promise, no look-up', () => {
    const store = storeSpy();
    const hooks = useAutomaticPersistedQueries(store).flatMap((plugin) => (plugin.onParams ? [plugin.onParams as OnParams] : []));
    const answers = hooks.map((onParams) => onParams({ params: { query: '{ __typename }' }, request: new Request('http://gateway/graphql'), setParams: () => {} }));
    expect(answers).toEqual([undefined]);
    expect(store.get).not.toHaveBeenCalled();
  });

  it('looks up a hash sent alone, and answers PERSISTED_QUERY_NOT_FOUND for one it does not know', async () => {
    const store = storeSpy();
    const [hashes] = useAutomaticPersistedQueries(store);
    const sha256Hash = 'a'.repeat(64);
    const params = { extensions: { persistedQuery: { version: 1, sha256Hash } } };
    await expect((hashes!.onParams as OnParams)({ params, request: new Request('http://gateway/graphql'), setParams: () => {}, fetchAPI: globalThis })).rejects.toMatchObject({
      extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' },
    });
    expect(store.get).toHaveBeenCalledWith(sha256Hash);
  });
});
