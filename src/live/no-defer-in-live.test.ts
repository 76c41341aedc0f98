import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { NoDeferOrStreamInLiveQueryRule } from './no-defer-in-live.ts';

const schema = buildSchema(`
  directive @defer(if: Boolean! = true, label: String) on FRAGMENT_SPREAD | INLINE_FRAGMENT
  directive @stream(if: Boolean! = true, initialCount: Int = 0, label: String) on FIELD
  directive @live(if: Boolean = true, throttle: Int) on QUERY
  type Balance { currency: String amount: String }
  type Query { balances: [Balance!] total: Int }
`);

const messages = (text: string) => validate(schema, parse(text), [NoDeferOrStreamInLiveQueryRule]).map((error) => error.message);

describe('NoDeferOrStreamInLiveQueryRule', () => {
  it.each([
    ['@defer in a named fragment', 'query { ...F0 } fragment F0 on Query { ... @defer { balances { currency } } }'],
    ['@defer on a spread', 'query { ...F0 @defer } fragment F0 on Query { total }'],
    [
      '@stream in a fragment nested in a fragment',
      'query { ...F0 } fragment F0 on Query { ...F1 } fragment F1 on Query { balances @stream { currency } }',
    ],
    ['@defer in a fragment spread twice', 'query { ...F0 ... { ...F0 } } fragment F0 on Query { ... @defer { total } }'],
  ])('lets a query without @live defer and stream: %s', (_case, text) => {
    expect(messages(text)).toEqual([]);
  });

  it('refuses a live query reaching @defer through nested fragments, naming @live, the operation and the fragment', () => {
    expect(messages('query Screen @live { ...F0 } fragment F0 on Query { ...F1 } fragment F1 on Query { ... @defer { total } }')).toEqual([
      'Cannot mix "@defer" with "@live": The live query "Screen" reaches @defer in fragment "F1". A live query is pushed whole each time it changes: remove @live, or the @defer.',
    ]);
  });

  it("refuses @stream in the live query's own selection and @defer on a spread, each once", () => {
    expect(messages('query @live { balances @stream { currency } ...F0 @defer ...F0 } fragment F0 on Query { total }')).toEqual([
      'Cannot mix "@stream" with "@live": A live query reaches @stream in its own selection. A live query is pushed whole each time it changes: remove @live, or the @stream.',
      'Cannot mix "@defer" with "@live": A live query reaches @defer in its own selection. A live query is pushed whole each time it changes: remove @live, or the @defer.',
    ]);
  });

  it('judges each operation of a document by the fragments it spreads', () => {
    const document =
      'query Live @live { ...Plain } query Deferred { ...Later } fragment Plain on Query { total } fragment Later on Query { ... @defer { balances { currency } } }';
    expect(messages(document)).toEqual([]);
    expect(messages(`${document} query Both @live { ...Later }`)).toEqual([
      expect.stringContaining('The live query "Both" reaches @defer in fragment "Later"'),
    ]);
  });

  it('takes @live(if: $variable) as live, and a literal if: false on either directive as off', () => {
    expect(messages('query ($on: Boolean) @live(if: $on) { ... @defer { total } }')).toHaveLength(1);
    expect(messages('query @live(if: false) { ... @defer { total } }')).toEqual([]);
    expect(messages('query @live { ... @defer(if: false) { total } balances @stream(if: false) { currency } }')).toEqual([]);
  });

  it('ends on fragments that spread each other (NoFragmentCycles reports them)', () => {
    expect(messages('query @live { ...A } fragment A on Query { ...B } fragment B on Query { ...A ... @defer { total } }')).toHaveLength(1);
  });
});
