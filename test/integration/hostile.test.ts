import { request as httpRequest } from 'node:http';
import { createClient } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CSRF_HEADER } from '../../src/authentication/csrf.ts';
import { DEFAULT_LIMITS, SHIPPED_TRUSTED_DOCUMENTS } from '../../src/settings/index.ts';
import { bankEvent, deliverEvent } from '../helpers/deliver.ts';
import { AccountsDocument, BalancesDocument, BankEventsFeedDocument, DashboardDocument } from '../generated/graphql.ts';
import { useKit, type Kit } from '../helpers/kit.ts';
import { subscribeWs } from '../helpers/subscribe.ts';
import { postGraphql, type GraphqlAnswer } from '../helpers/http.ts';
import { until } from '../helpers/wait.ts';

/**
 * Hostile queries: each is refused before execution (no upstream call, counted from the sandbox's
 * request log) with its status and code. Unauthenticated, wrong-origin and CSRF-style requests are
 * in the auth suites.
 */

type Answer = GraphqlAnswer<{ data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] }>;

/** A typed document's trusted-document id (codegen's persisted documents put it in `__meta__`). */
const idOf = (document: object) => (document as { __meta__: { hash: string } }).__meta__.hash;

const codes = (answer: Answer) => answer.body.errors?.map((e) => e.extensions?.code);

/** A refusal: the status, the code, no data, and not one upstream call. */
function expectRefused(kit: Kit, answer: Answer, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(codes(answer)).toContain(code);
  expect(answer.body.data ?? null).toBeNull();
  expect(kit.calls()).toEqual([]);
}

/** `{ cards { nodes { cardholder { cards { nodes { cardholder … } } } } } }`: 4 levels a turn. */
function cardholderLoop(turns: number): string {
  let selection = 'email';
  for (let i = 0; i < turns; i++) selection = `cards(first: 1) { nodes { cardholder { ${selection} } } }`;
  return `{ ${selection} }`;
}

describe('hostile queries are refused before execution', () => {
  const kit = useKit({ listen: true });

  it('answers a validation refusal 400 to a graphql-response+json client and 200 to an application/json one (GraphQL over HTTP)', async () => {
    const query = { query: cardholderLoop(4) };
    const legacy = await fetch(`${kit.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(query),
    });
    const body = (await legacy.json()) as Answer['body'];
    expect(legacy.status).toBe(200);
    expect(body.data).toBeUndefined();
    expect(body.errors?.map((e) => e.extensions?.code)).toEqual(['QUERY_TOO_COMPLEX']);
    expect((await postGraphql(`${kit.baseUrl}/graphql`, query)).status).toBe(400);
    expect(kit.calls()).toEqual([]);
  });

  it('deep: past the depth limit', async () => {
    const answer = await postGraphql(`${kit.baseUrl}/graphql`, { query: cardholderLoop(4) });
    expectRefused(kit, answer, 400, 'QUERY_TOO_COMPLEX');
    expect(answer.body.errors![0]!.extensions!.limit).toBe('depth');
    expect(answer.body.errors![0]!.message).toBe(
      `The operation is too complex (depth): Query depth limit of ${DEFAULT_LIMITS.maxDepth} exceeded, found 13.`,
    );
  });

  it('wide: a page of items with hundreds of fields each is over the cost limit', async () => {
    const answer = await postGraphql(`${kit.baseUrl}/graphql`, {
      query: `{ cards(first: 100) { nodes { ${'maskedNumber status '.repeat(300)} } } }`,
    });
    expectRefused(kit, answer, 400, 'QUERY_TOO_COMPLEX');
    expect(answer.body.errors![0]!.extensions!.limit).toBe('cost');
  });

  it('aliased: the same read under many names', async () => {
    const aliases = Array.from({ length: DEFAULT_LIMITS.maxAliases + 1 }, (_, i) => `b${i}: balances { currency }`).join(' ');
    const answer = await postGraphql(`${kit.baseUrl}/graphql`, { query: `{ ${aliases} }` });
    expectRefused(kit, answer, 400, 'QUERY_TOO_COMPLEX');
    expect(answer.body.errors![0]!.extensions!.limit).toBe('aliases');
  });

  it('costly: nested connections with large pages, literal or in variables', async () => {
    const nested = '{ accounts(first: 100) { nodes { transactions(first: 100) { nodes { amount { amount currency } createdAt } } } } }';
    const literal = await postGraphql(`${kit.baseUrl}/graphql`, { query: nested });
    expectRefused(kit, literal, 400, 'QUERY_TOO_COMPLEX');
    expect(literal.body.errors![0]!.message).toMatch(new RegExp(`Query Cost limit of ${DEFAULT_LIMITS.maxCost} exceeded, found \\d+`));
    const variables = await postGraphql(`${kit.baseUrl}/graphql`, {
      query:
        'query($a: Int, $t: Int) { accounts(first: $a) { nodes { transactions(first: $t) { nodes { amount { amount currency } createdAt } } } } }',
      variables: { a: 100, t: 100 },
    });
    expectRefused(kit, variables, 400, 'QUERY_TOO_COMPLEX');
  });

  it('a page over 100, a negative page or more than 100 ids: BAD_USER_INPUT naming the argument and the rule', async () => {
    const large = await postGraphql(`${kit.baseUrl}/graphql`, {
      query: 'query($n: Int) { balances { currency } beneficiaries(first: $n) { nodes { id } } }',
      variables: { n: 500 },
    });
    expectRefused(kit, large, 400, 'BAD_USER_INPUT');
    expect(large.body.errors![0]!.message).toBe('Argument "first" of Query.beneficiaries must be at most 100 (the largest page); got 500.');
    const negative = await postGraphql(`${kit.baseUrl}/graphql`, {
      query: '{ account(id: "acc_demo_usd") { transactions(last: -1) { nodes { createdAt } } } }',
    });
    expectRefused(kit, negative, 400, 'BAD_USER_INPUT');
    expect(negative.body.errors![0]!.message).toBe('Argument "last" of Account.transactions must not be negative; got -1.');
    const ids = Array.from({ length: 101 }, (_, i) => `"id${i}"`).join(', ');
    const nodes = await postGraphql(`${kit.baseUrl}/graphql`, { query: `{ nodes(ids: [${ids}]) { id } }` });
    expectRefused(kit, nodes, 400, 'BAD_USER_INPUT');
    expect(nodes.body.errors![0]!.message).toBe('Argument "ids" of Query.nodes must hold at most 100 items; got 101 items.');
  });

  it('directives flood', async () => {
    const answer = await postGraphql(`${kit.baseUrl}/graphql`, {
      query: `{ balances { ${'currency @include(if: true) '.repeat(DEFAULT_LIMITS.maxDirectives + 1)} } }`,
    });
    expectRefused(kit, answer, 400, 'QUERY_TOO_COMPLEX');
    expect(answer.body.errors![0]!.extensions!.limit).toBe('directives');
  });

  it('token flood: refused while parsing', async () => {
    const answer = await postGraphql(`${kit.baseUrl}/graphql`, {
      query: `{ balances { ${'currency '.repeat(DEFAULT_LIMITS.maxTokens)} } }`,
    });
    expectRefused(kit, answer, 400, 'QUERY_TOO_COMPLEX');
    expect(answer.body.errors![0]!.extensions!.limit).toBe('tokens');
  });

  it('oversized body, declared or chunked without a length: 413, and the connection is closed', async () => {
    for (const declared of [true, false]) {
      const answer = await oversizedPost(kit.baseUrl!, DEFAULT_LIMITS.maxBodyBytes * 4, declared);
      expect(answer.status).toBe(413);
      // Its unread rest would otherwise be taken for the next request on the connection.
      expect(answer.connection).toBe('close');
      expect(JSON.parse(answer.body).errors[0].extensions.code).toBe('REQUEST_ENTITY_TOO_LARGE');
    }
    expect(kit.calls()).toEqual([]);
  });

  it('oversized WebSocket message: the socket is closed (1009) before the message is parsed', async () => {
    const socket = new WebSocket(`${kit.baseUrl!.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
    await new Promise((resolve) => socket.once('open', resolve));
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { padding: 'x'.repeat(DEFAULT_LIMITS.maxBodyBytes * 2) } }));
    expect(await closed).toBe(1009);
    expect(kit.calls()).toEqual([]);
  });

  it('batched: an array body is not executed', async () => {
    const answer = await postGraphql(`${kit.baseUrl}/graphql`, [
      { query: '{ balances { currency } }' },
      { query: '{ accounts { nodes { id } } }' },
    ]);
    expect(answer.status).toBe(400);
    expect(codes(answer)).toEqual(['BAD_REQUEST']);
    expect(kit.calls()).toEqual([]);
  });

  it('within the limits the same shapes run', async () => {
    const answer = await postGraphql(`${kit.baseUrl}/graphql`, {
      query: '{ accounts(first: 100) { nodes { transactions(first: 5) { nodes { createdAt } } } } }',
    });
    expect(answer.body.errors).toBeUndefined();
    expect(kit.calls().length).toBeGreaterThan(1);
  });
});

/** A POST of about `bytes`, with its Content-Length or in chunks without one. */
function oversizedPost(baseUrl: string, bytes: number, declared: boolean): Promise<{ status: number; connection?: string; body: string }> {
  const head = `{"query": "{ balances { currency } }", "variables": {"pad": "`;
  const chunk = 'x'.repeat(16 * 1024);
  const chunks = Math.ceil(bytes / chunk.length);
  const tail = '"}}';
  const headers: Record<string, string | number> = { 'content-type': 'application/json' };
  if (declared) headers['content-length'] = head.length + chunks * chunk.length + tail.length;
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}/graphql`, { method: 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (part: string) => (body += part));
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
    });
    // The gateway may answer and close before the whole body is sent.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    req.write(head);
    for (let i = 0; i < chunks; i++) req.write(chunk);
    req.end(tail);
  });
}

describe('in production', () => {
  const kit = useKit({ listen: true, limits: { production: true, introspection: false, graphiql: false } });

  it('refuses introspection, over HTTP and graphql-ws', async () => {
    for (const query of ['{ __schema { types { name } } }', '{ __type(name: "Account") { fields { name } } }']) {
      const answer: Answer = await postGraphql(`${kit.baseUrl}/graphql`, { query });
      expectRefused(kit, answer, 400, 'GRAPHQL_VALIDATION_FAILED');
      expect(answer.body.errors![0]!.message).toContain('introspection has been disabled');
      const overWs = await wsErrors(kit, query);
      expect(overWs.map((e) => e.message)).toEqual(answer.body.errors!.map((e) => e.message));
    }
  });

  it('hides the limits and every "Did you mean" suggestion', async () => {
    const deep = await postGraphql(`${kit.baseUrl}/graphql`, { query: cardholderLoop(4) });
    expectRefused(kit, deep, 400, 'QUERY_TOO_COMPLEX');
    expect(deep.body.errors![0]!.message).toBe('The operation is too complex (depth): use fewer levels of nesting.');
    const typo = await postGraphql(`${kit.baseUrl}/graphql`, { query: '{ balance { currency } }' });
    expect(typo.body.errors![0]!.message).toBe('Cannot query field "balance" on type "Query".');
    const badEnum = await postGraphql(`${kit.baseUrl}/graphql`, {
      query: 'query($s: AccountStatus) { accounts(status: $s) { nodes { id } } }',
      variables: { s: 'ACTIV' },
    });
    expect(badEnum.body.errors![0]!.message).not.toContain('Did you mean');
    expect(badEnum.body.errors![0]!.message).toContain('"ACTIV"');
    expect(kit.calls()).toEqual([]);
  });

  it('serves no GraphiQL: a browser asking for a page is told there is none', async () => {
    const response = await fetch(`${kit.baseUrl}/graphql`, { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(response.status).toBe(406);
    const body = (await response.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors[0]!.extensions.code).toBe('NOT_ACCEPTABLE');
    expect(body.errors[0]!.message).toMatch(/application\/json.*none of which Accept: text\/html,application\/xhtml\+xml allows/);
  });
});

describe('with trusted documents', () => {
  const kit = useKit({
    listen: true,
    limits: { production: true, introspection: false, graphiql: false, trustedDocuments: SHIPPED_TRUSTED_DOCUMENTS },
  });

  it('refuses an unknown document id, Apollo-style or GraphQL-over-HTTP-style', async () => {
    const unknown = 'sha256:' + '0'.repeat(64);
    expectRefused(kit, await postGraphql(`${kit.baseUrl}/graphql`, { documentId: unknown }), 400, 'PERSISTED_QUERY_NOT_IN_LIST');
    expectRefused(
      kit,
      await postGraphql(`${kit.baseUrl}/graphql`, { extensions: { persistedQuery: { version: 1, sha256Hash: '0'.repeat(64) } } }),
      400,
      'PERSISTED_QUERY_NOT_IN_LIST',
    );
  });

  it('refuses query text, even with an id, and a request with neither', async () => {
    expectRefused(kit, await postGraphql(`${kit.baseUrl}/graphql`, { query: '{ balances { currency } }' }), 400, 'PERSISTED_QUERY_ONLY');
    expectRefused(
      kit,
      await postGraphql(`${kit.baseUrl}/graphql`, { query: '{ balances { currency } }', documentId: idOf(BalancesDocument) }),
      400,
      'PERSISTED_QUERY_ONLY',
    );
    expectRefused(kit, await postGraphql(`${kit.baseUrl}/graphql`, { variables: {} }), 400, 'PERSISTED_QUERY_ID_REQUIRED');
  });

  it('runs shipped documents by id: POST, Apollo extensions, GET', async () => {
    const accounts = await postGraphql(`${kit.baseUrl}/graphql`, { documentId: idOf(AccountsDocument), variables: { first: 2 } });
    expect(accounts.body.errors).toBeUndefined();
    expect((accounts.body.data as { accounts: { edges: unknown[] } }).accounts.edges).toHaveLength(2);

    const hex = idOf(DashboardDocument).replace('sha256:', '');
    const dashboard = await postGraphql(`${kit.baseUrl}/graphql`, { extensions: { persistedQuery: { version: 1, sha256Hash: hex } } });
    expect(dashboard.body.errors).toBeUndefined();
    expect(Object.keys(dashboard.body.data as object)).toEqual(['accounts', 'balances', 'upcomingPayouts']);

    const get = await fetch(`${kit.baseUrl}/graphql?documentId=${encodeURIComponent(idOf(BalancesDocument))}`, {
      headers: { accept: 'application/graphql-response+json', [CSRF_HEADER]: '1' },
    });
    expect(get.status).toBe(200);
    expect(((await get.json()) as Answer['body']).data).toHaveProperty('balances');
    expect(kit.calls().length).toBeGreaterThan(0);
  });

  it('subscribes by id over graphql-ws and refuses query text there', async () => {
    const feed = await subscribeWs(kit, idOf(BankEventsFeedDocument));
    await deliverEvent(kit.baseUrl, bankEvent('evt_trusted_ws'));
    const [event] = await feed.next(1);
    expect(event).toMatchObject({ data: { bankEvents: { id: expect.any(String), name: 'account.active' } } });
    await feed.close();

    const refused = await wsErrors(kit, 'subscription { bankEvents { id } }');
    expect(refused.map((e) => e.extensions?.code)).toEqual(['PERSISTED_QUERY_ONLY']);
    const unknown = await wsErrors(kit, `sha256:${'0'.repeat(64)}`);
    expect(unknown.map((e) => e.extensions?.code)).toEqual(['PERSISTED_QUERY_NOT_IN_LIST']);
  });

  it('subscribes by id over server-sent events', async () => {
    const abort = new AbortController();
    const response = await fetch(`${kit.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ documentId: idOf(BankEventsFeedDocument) }),
      signal: abort.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    await until('the gateway to register the subscription', () => kit.gateway.events.activeSubscriptions() > 0);
    await deliverEvent(kit.baseUrl, bankEvent('evt_trusted_sse'));
    // The shipped feed selects the event's own id (an occurrence's, not the bank's), its name and its data.
    let text = '';
    for (let reads = 0; reads < 100 && !text.includes('account.active'); reads++) text += (await reader.read()).value ?? '';
    expect(text).toContain('event: next');
    expect(text).toContain('"name":"account.active"');
    abort.abort();
  });
});

/** The errors graphql-ws answers a subscribe with (it must answer with errors, not data). */
async function wsErrors(kit: Kit, query: string): Promise<{ message: string; extensions?: Record<string, unknown> }[]> {
  const client = createClient({ url: `${kit.baseUrl!.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
  try {
    return await new Promise((resolve, reject) => {
      client.subscribe(
        { query },
        {
          next: (value) => reject(new Error(`unexpected result ${JSON.stringify(value)}`)),
          error: (errors) => resolve(errors as never),
          complete: () => reject(new Error('completed without an error')),
        },
      );
    });
  } finally {
    await client.dispose();
  }
}
