import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { documentCaches } from './document-cache.ts';

const text = (name: string, length: number) => `query ${name} { ${'a '.repeat(Math.max(0, (length - name.length - 12) / 2))}}`;

describe('documentCaches', () => {
  it('keeps documents until their texts add up to the bound, then lets the least recently used go', () => {
    const { documentCache } = documentCaches(1);
    const [first, second, third] = ['A', 'B', 'C'].map((name) => text(name, 400));
    for (const query of [first!, second!]) documentCache.set(query, parse(query));
    expect(documentCache.get(first!)).toBeDefined(); // now the most recently used
    documentCache.set(third!, parse(third!));
    expect(documentCache.get(second!)).toBeUndefined();
    expect(documentCache.get(first!)).toBeDefined();
    expect(documentCache.get(third!)).toBeDefined();
    expect(documentCache.calculatedSize).toBeLessThanOrEqual(1024);
  });

  it('keeps no document longer than the whole bound, and bounds parse errors alike', () => {
    const { documentCache, errorCache } = documentCaches(1);
    const long = text('Long', 2_000);
    documentCache.set(long, parse(long));
    expect(documentCache.get(long)).toBeUndefined();
    errorCache.set('{'.repeat(2_000), new Error('Syntax Error'));
    expect(errorCache.size).toBe(0);
  });
});
