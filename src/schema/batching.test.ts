import { describe, expect, it } from 'vitest';
import { loadByIdOrList } from './batched-reads.ts';

function source(total: number) {
  const items = Array.from({ length: total }, (_, i) => ({ id: `id${i}` }));
  const calls: string[] = [];
  return {
    calls,
    read: {
      one: async (id: string) => {
        calls.push(`one ${id}`);
        return items.find((item) => item.id === id) ?? null;
      },
      page: async (page: number, size: number) => {
        calls.push(`page ${page}`);
        return items.slice((page - 1) * size, page * size);
      },
      idOf: (item: { id: string }) => item.id,
    },
  };
}

describe('loadByIdOrList', () => {
  it('reads a few keys one by one', async () => {
    const s = source(300);
    const loaded = await loadByIdOrList(['id1', 'id2', 'id3'], s.read);
    expect(loaded.map((i) => i.id)).toEqual(['id1', 'id2', 'id3']);
    expect(s.calls).toEqual(['one id1', 'one id2', 'one id3']);
  });

  it('answers many keys from one page of the list', async () => {
    const s = source(80);
    const ids = ['id5', 'id9', 'id12', 'id40', 'id79', 'id3'];
    const loaded = await loadByIdOrList(ids, s.read);
    expect(new Set(loaded.map((i) => i.id))).toEqual(new Set(ids));
    expect(s.calls).toEqual(['page 1']);
  });

  it('stops paging once every key is found, and reads the missing ones singly', async () => {
    const s = source(250);
    const loaded = await loadByIdOrList(['id1', 'id150', 'id2', 'id3', 'id4', 'nope'], s.read);
    expect(loaded.map((i) => i.id).sort()).toEqual(['id1', 'id150', 'id2', 'id3', 'id4']);
    expect(s.calls).toEqual(['page 1', 'page 2', 'page 3', 'one nope']);
  });

  it('gives up on the list after a page without any of the keys: one call more than reading each', async () => {
    const s = source(10_000);
    await loadByIdOrList(['id9000', 'id9001', 'id9002', 'id9003', 'id9004'], s.read);
    expect(s.calls).toEqual(['page 1', 'one id9000', 'one id9001', 'one id9002', 'one id9003', 'one id9004']);
  });
});
