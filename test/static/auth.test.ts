import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { constantTimeEqual, createApiKeyMatcher, sha256Hex } from '../../src/authentication/api-keys.ts';
import { presentedCredential, presentedOnSocket } from '../../src/authentication/credentials.ts';
import { CSRF_HEADER, useCsrfPrevention } from '../../src/authentication/csrf.ts';
import { anonymousMayRun } from '../../src/authorization/anonymous-operations.ts';
import { createOriginCheck } from '../../src/authentication/origins.ts';
import { closeReason } from '../../src/authentication/refusal.ts';

/**
 * The pieces of caller authentication that need no gateway; the transports are in
 * test/integration/auth-*.test.ts, and `npm run api-key` in test/processes/api-key-tool.test.ts.
 */

describe('constant-time comparison', () => {
  const bytes = (text: string) => Buffer.from(text);
  it('is true for equal inputs only', () => {
    expect(constantTimeEqual(bytes('same-digest'), bytes('same-digest'))).toBe(true);
    expect(constantTimeEqual(bytes('same-digest'), bytes('same-digesT'))).toBe(false);
  });
  it('is false, not an exception, for inputs of different lengths', () => {
    expect(constantTimeEqual(bytes('short'), bytes('longer input'))).toBe(false);
    expect(constantTimeEqual(bytes(''), bytes('x'))).toBe(false);
  });
});

describe('API key matching', () => {
  const match = createApiKeyMatcher([
    { name: 'reporting', sha256: sha256Hex('key-one') },
    { name: 'treasury', sha256: sha256Hex('key-two') },
  ]);
  it('names the key that matches', () => {
    expect(match('key-one')).toBe('reporting');
    expect(match('key-two')).toBe('treasury');
  });
  it('matches nothing for an unknown key, a prefix, or the hash itself', () => {
    expect(match('key-three')).toBeUndefined();
    expect(match('key-')).toBeUndefined();
    expect(match(sha256Hex('key-one'))).toBeUndefined();
  });
});

describe('reading credentials', () => {
  it('tells bearer tokens, API keys, malformed headers and both-at-once apart', () => {
    expect(presentedCredential('Bearer abc.def', null)).toEqual({ kind: 'bearer', token: 'abc.def' });
    expect(presentedCredential(null, ' k1 ')).toEqual({ kind: 'api-key', key: 'k1' });
    expect(presentedCredential('Basic dXNlcjpwYXNz', null)).toEqual({ kind: 'malformed' });
    expect(presentedCredential('Bearer ', null)).toEqual({ kind: 'malformed' });
    expect(presentedCredential('Bearer t', 'k')).toEqual({ kind: 'both' });
    expect(presentedCredential(undefined, '')).toEqual({ kind: 'none' });
  });
  it('takes graphql-ws connectionParams first, then upgrade headers', () => {
    expect(presentedOnSocket({ 'x-api-key': 'k' }, { authorization: 'Bearer t' })).toEqual({ kind: 'api-key', key: 'k' });
    expect(presentedOnSocket(undefined, { authorization: 'Bearer t' })).toEqual({ kind: 'bearer', token: 't' });
    expect(presentedOnSocket({ authorization: 42 }, {})).toEqual({ kind: 'none' });
  });
});

describe('what an anonymous passthrough caller may run', () => {
  const may = (source: string, name?: string) => anonymousMayRun(parse(source), name);
  it('the login mutation and introspection', () => {
    expect(may('mutation { accessTokenCreate(input: {clientKey: "k", clientSecret: "s", email: "a@b.c"}) { __typename } }')).toBe(true);
    expect(may('{ __schema { types { name } } __typename }')).toBe(true);
  });
  it('nothing else, however it is dressed', () => {
    expect(may('{ balances { currency } }')).toBe(false);
    expect(
      may(
        'mutation { accessTokenCreate(input: {clientKey: "k", clientSecret: "s", email: "a@b.c"}) { __typename } accountClose { __typename } }',
      ),
    ).toBe(false);
    expect(may('mutation M { ...F } fragment F on Mutation { cardCreate { __typename } }')).toBe(false);
    expect(may('query { ... on Query { balances { currency } } }')).toBe(false);
    expect(may('subscription { bankEvents { id } }')).toBe(false);
    expect(may('query A { __typename } mutation B { cardCreate { __typename } }', 'B')).toBe(false);
  });
});

describe('origins', () => {
  const check = createOriginCheck(['https://app.example']);
  it('allows listed origins, the gateway\u2019s own, and requests without an Origin', () => {
    expect(check('https://app.example')).toBe(true);
    expect(check('HTTPS://APP.EXAMPLE')).toBe(true);
    expect(check('http://gw.internal:4000', 'gw.internal:4000')).toBe(true);
    expect(check(undefined)).toBe(true);
  });
  it('refuses any other origin, and a look-alike', () => {
    expect(check('https://evil.example')).toBe(false);
    expect(check('https://app.example.evil.example')).toBe(false);
    expect(check('null', 'gw.internal')).toBe(false);
  });
  it('allows everything with *', () => {
    expect(createOriginCheck(['*'])('https://anything.example')).toBe(true);
  });
});

describe('which requests need the CSRF header', () => {
  const plugin = useCsrfPrevention();
  /** What the plugin makes of a request: refused with its code, or let through. */
  const verdict = (request: Request): string => {
    try {
      // Synchronous: the plugin refuses by throwing, before anything is parsed.
      void plugin.onRequestParse!({ request } as never);
      return 'passes';
    } catch (error) {
      return String((error as { extensions?: { code?: string } }).extensions?.code);
    }
  };
  const request = (contentType?: string, headers: Record<string, string> = {}) =>
    new Request('http://gw/graphql', { method: 'POST', headers: { ...(contentType ? { 'content-type': contentType } : {}), ...headers } });
  it('refuses those a page could send without a preflight', () => {
    expect(verdict(new Request('http://gw/graphql?query={__typename}'))).toBe('CSRF_HEADER_REQUIRED');
    expect(verdict(request('application/x-www-form-urlencoded'))).toBe('CSRF_HEADER_REQUIRED');
    expect(verdict(request('multipart/form-data; boundary=x'))).toBe('CSRF_HEADER_REQUIRED');
    expect(verdict(request('Text/Plain;charset=UTF-8'))).toBe('CSRF_HEADER_REQUIRED');
  });
  it('lets JSON through, and anything with the header', () => {
    expect(verdict(request('application/json'))).toBe('passes');
    expect(verdict(request('application/graphql-response+json; charset=utf-8'))).toBe('passes');
    expect(verdict(request('text/plain', { [CSRF_HEADER]: '1' }))).toBe('passes');
    expect(verdict(new Request('http://gw/graphql?query={__typename}', { headers: { [CSRF_HEADER]: '1' } }))).toBe('passes');
  });
  it("takes Apollo's own CSRF headers as proof too: Apollo Kotlin and iOS mark their GETs with the operation name", () => {
    expect(verdict(new Request('http://gw/graphql?query={__typename}', { headers: { 'X-APOLLO-OPERATION-NAME': 'Dashboard' } }))).toBe(
      'passes',
    );
    expect(verdict(new Request('http://gw/graphql?query={__typename}', { headers: { 'apollo-require-preflight': 'true' } }))).toBe(
      'passes',
    );
    // A header that is not on the list proves nothing.
    expect(verdict(new Request('http://gw/graphql?query={__typename}', { headers: { 'apollographql-client-name': 'web' } }))).toBe(
      'CSRF_HEADER_REQUIRED',
    );
  });
});

describe('graphql-ws close reasons', () => {
  it('fit in the 123 bytes a close frame allows', () => {
    const long = 'é'.repeat(200);
    expect(Buffer.byteLength(closeReason(long))).toBeLessThanOrEqual(123);
    expect(closeReason(long).endsWith('…')).toBe(true);
    expect(closeReason('short')).toBe('short');
  });
});
