import { describe, expect, it } from 'vitest';
import { useKit } from '../helpers/kit.ts';

/**
 * Every failure a client can see has `extensions.code`, so a client can branch on it instead of on
 * words: malformed requests, requests no parser takes (Yoga's bare 415) and answers the client
 * accepts in no form (Yoga's bare 406) included.
 */
const kit = useKit({ listen: true });
const JSON_BODY = { 'content-type': 'application/json' };

const CASES: { name: string; init: RequestInit; query?: string; status: number; code: string; message?: RegExp }[] = [
  { name: 'a body that is not JSON', init: { method: 'POST', headers: JSON_BODY, body: '{"query":' }, status: 400, code: 'BAD_REQUEST' },
  { name: 'no query', init: { method: 'POST', headers: JSON_BODY, body: '{}' }, status: 200, code: 'BAD_REQUEST' },
  {
    name: 'variables that are not an object',
    init: { method: 'POST', headers: JSON_BODY, body: '{"query":"{ balances { currency } }","variables":"x"}' },
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'a syntax error',
    init: { method: 'POST', headers: JSON_BODY, body: '{"query":"{ balances { "}' },
    status: 200,
    code: 'GRAPHQL_PARSE_FAILED',
  },
  {
    name: 'an unknown field',
    init: { method: 'POST', headers: JSON_BODY, body: '{"query":"{ nope }"}' },
    status: 200,
    code: 'GRAPHQL_VALIDATION_FAILED',
  },
  {
    name: 'an operation name the document lacks',
    init: { method: 'POST', headers: JSON_BODY, body: '{"query":"query A { balances { currency } }","operationName":"B"}' },
    status: 400,
    code: 'OPERATION_RESOLUTION_FAILURE',
  },
  {
    name: 'a mutation over GET',
    init: { method: 'GET', headers: { 'x-graphql-csrf': '1' } },
    query: '?query=mutation%7BaccountClose(input:%7BaccountId:%22x%22%7D)%7B__typename%7D%7D',
    status: 405,
    code: 'BAD_REQUEST',
  },
  {
    name: 'a body in a content-type no GraphQL server takes',
    init: { method: 'POST', headers: { 'content-type': 'application/xml', 'x-graphql-csrf': '1' }, body: '<query/>' },
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: /send content-type: application\/json \(got application\/xml\)/,
  },
  {
    name: 'an answer the client accepts in no form',
    init: { method: 'POST', headers: { ...JSON_BODY, accept: 'text/html' }, body: '{"query":"{ balances { currency } }"}' },
    status: 406,
    code: 'NOT_ACCEPTABLE',
    message: /application\/json.*none of which Accept: text\/html allows/,
  },
];

describe('every client mistake has a code', () => {
  it.each(CASES)('$name: HTTP $status, $code', async ({ init, query, status, code, message }) => {
    const response = await fetch(`${kit.baseUrl}/graphql${query ?? ''}`, init);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/json/);
    const body = (await response.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors[0]!.extensions.code).toBe(code);
    if (message) expect(body.errors[0]!.message).toMatch(message);
    expect(kit.calls()).toEqual([]);
  });
});
