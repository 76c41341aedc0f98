import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Client as UrqlClient, cacheExchange, fetchExchange, subscriptionExchange } from '@urql/core';
import { GraphQLClient, ClientError } from 'graphql-request';
import { createClient as createSseClient, type Client as SseClient } from 'graphql-sse';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import {
  Environment,
  Network,
  Observable,
  RecordSource,
  Store,
  fetchQuery,
  requestSubscription,
  type ConcreteRequest,
  type FetchFunction,
  type SubscribeFunction,
} from 'relay-runtime';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SHIPPED_TRUSTED_DOCUMENTS } from '../../src/settings/index.ts';
import { apiClient } from '../../sandbox/test/helpers.ts';
import { BalancesDocument } from '../generated/graphql.ts';
import { useKit, type Kit } from '../helpers/kit.ts';

/**
 * The popular GraphQL clients against the gateway, each at its default settings (only the URL and
 * what the protocol strictly needs), for real: a gateway and its sandbox on ephemeral ports, bank
 * events reaching the gateway as the sandbox's signed webhooks (the gateway files its own webhook
 * subscriptions at start, as `npm start` does). Each client: a query with real data, an error that
 * reaches the caller with its `extensions.code`, a mutation where natural, and for the clients that
 * subscribe, two card status changes at the bank received in order. Apollo Client and
 * subscriptions-transport-ws are covered elsewhere.
 *
 * Every client is closed at the end of its test (dispose, unsubscribe, terminate) and the test waits
 * until the gateway has let go of each subscription.
 */

const kit = useKit({
  listen: true,
  reconcileWebhooks: true,
  webhooks: { agentCode: 'sandbox-agent', subagentCode: 'sandbox-subagent', companyCode: 'sandbox-company' },
});

const httpUrl = (target: Kit = kit) => `${target.baseUrl}/graphql`;
const wsUrl = (target: Kit = kit) => `${httpUrl(target).replace(/^http/, 'ws')}`;

/** The installed version of a client package, as its package.json says. */
function version(name: string): string {
  return (JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as { version: string })
    .version;
}

const CARD = 'crd_demo_ava_v';
const CARD_PATH = '/svc/api/v1/card';
const ACCOUNTS = 'query Accounts { accounts(first: 5) { nodes { id upstreamId status } } }';
const DEMO_ACCOUNTS = ['acc_demo_usd', 'acc_demo_eur', 'acc_demo_gbp', 'acc_demo_sgd', 'acc_demo_hkd'];
/** A variable of the wrong type: refused before anything runs with BAD_USER_INPUT, naming the variable. */
const BAD_VARIABLE = 'query Accounts($first: Int) { accounts(first: $first) { nodes { id } } }';
const CARD_STATUS = `subscription CardStatus($cardId: ID, $after: String) {
  cardStatusChanged(cardId: $cardId, after: $after) { status cardUpstreamId event { name cursor } card { upstreamId status } }
}`;
const CARD_UPDATE = `mutation CardUpdate($input: CardUpdateInput!) {
  cardUpdate(input: $input) { __typename ... on CardUpdateSuccess { card { upstreamId status } } ... on MutationError { message } }
}`;

/** What every client gets for BAD_VARIABLE with `first: "five"`: the variable and the path inside it. */
const BAD_VARIABLE_RESULT = {
  errors: [
    expect.objectContaining({
      message: 'Variable "$first" is invalid at "first": Int cannot represent non-integer value: "five"',
      extensions: {
        code: 'BAD_USER_INPUT',
        variable: 'first',
        issues: [{ path: ['first'], message: 'Int cannot represent non-integer value: "five"' }],
      },
    }),
  ],
};

interface CardStatusResult {
  data?: {
    cardStatusChanged: {
      status: string;
      cardUpstreamId: string;
      event: { name: string; cursor: string };
      card: { upstreamId: string; status: string } | null;
    };
  };
  errors?: unknown[];
}

/** The statuses and event names of the card status changes received, in order. */
const changes = (results: CardStatusResult[]) =>
  results.map((r) => `${r.data!.cardStatusChanged.status} (${r.data!.cardStatusChanged.event.name})`);
const BLOCKED_THEN_ACTIVE = ['INACTIVE (issuing.card.blocked)', 'ACTIVE (issuing.card.active)'];

/**
 * The gateway tells two occurrences of one bank event apart by the event's `created_at`, which has
 * whole seconds (src/events/models.ts): the same transition of the same card twice within one second
 * of the bank's clock is taken for a redelivery. Tests here block and activate the demo card over and
 * over within milliseconds, so each test runs its bank 10 s further ahead than the one before (a
 * sandbox reset puts the clock back to real time), and each change below is one more second ahead.
 */
let testsRun = 0;
beforeEach(async () => {
  testsRun += 1;
  await kit.control('POST', 'clock/advance', { seconds: 10 * testsRun });
});

/** The card's status changed at the bank (a PATCH to the sandbox): the bank delivers the event to the gateway. */
async function bankSetsCardStatus(target: Kit, status: 'ACTIVE' | 'INACTIVE'): Promise<void> {
  await target.control('POST', 'clock/advance', { seconds: 1 });
  const bank = await apiClient(target.sandbox);
  const changed = await bank.send('PATCH', CARD_PATH, { query: { id: CARD }, body: { card_status: status, updated_by: 'Jordan Miles' } });
  expect(changed.status).toBe(200);
}

/** Blocked, then active again, at the bank. */
async function blockThenActivate(target: Kit = kit): Promise<void> {
  await bankSetsCardStatus(target, 'INACTIVE');
  await bankSetsCardStatus(target, 'ACTIVE');
}

/** Resolves once the gateway has `count` subscriptions open: events sent after that reach them. */
async function subscriptionsOpen(count: number, target: Kit = kit): Promise<void> {
  await expect.poll(() => target.gateway.events.activeSubscriptions(), { timeout: 5_000, interval: 5 }).toBe(count);
}

/** Results pushed by a client, and a way to wait for the n-th. */
function collector<T>() {
  const received: T[] = [];
  return {
    received,
    push: (value: T) => void received.push(value),
    async next(count: number): Promise<T[]> {
      await expect.poll(() => received.length, { timeout: 10_000, interval: 10 }).toBeGreaterThanOrEqual(count);
      return received.slice();
    },
  };
}

/** The gateway's HTTP answers from now on (`POST /graphql 200`), as its server sends them. */
function gatewayAnswers(target: Kit = kit): () => string[] {
  const answers: string[] = [];
  const server = target.gateway.server.server;
  const listener = (request: IncomingMessage, response: ServerResponse) =>
    response.once('finish', () => answers.push(`${request.method} ${request.url} ${response.statusCode}`));
  server.on('request', listener);
  cleanups.push(() => server.off('request', listener));
  return () => answers.slice();
}

/** What each test opened, closed after it whatever its outcome. */
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  // Every subscription is let go of before the next test counts open ones.
  await subscriptionsOpen(0);
});

/**
 * graphql-ws 6.4.2 (The Guild), `createClient` from 'graphql-ws'.
 * Settings: `url` only (ws://host:port/graphql). Node 24's global WebSocket, no `webSocketImpl`;
 * everything else at its defaults (lazy, `retryAttempts: 5`, no connectionParams).
 */
describe(`graphql-ws ${version('graphql-ws')}: createClient({ url })`, () => {
  const open = (): WsClient => {
    const client = createWsClient({ url: wsUrl() });
    cleanups.push(() => client.dispose());
    return client;
  };

  it('runs a query: the demo accounts', async () => {
    const client = open();
    const results: unknown[] = [];
    for await (const result of client.iterate({ query: ACCOUNTS })) results.push(result);
    expect(results).toEqual([{ data: { accounts: { nodes: expect.any(Array) } } }]);
    const { nodes } = (results[0] as { data: { accounts: { nodes: { id: string; upstreamId: string; status: string }[] } } }).data.accounts;
    expect(nodes.map((n) => n.upstreamId).sort()).toEqual([...DEMO_ACCOUNTS].sort());
    expect(nodes.find((n) => n.upstreamId === 'acc_demo_usd')).toEqual({
      id: Buffer.from('Account:acc_demo_usd').toString('base64'),
      upstreamId: 'acc_demo_usd',
      status: 'ACTIVE',
    });
  });

  it('surfaces a variable of the wrong type as BAD_USER_INPUT with the variable and the path', async () => {
    const client = open();
    const results: unknown[] = [];
    // graphql-js reports variables that do not fit from execute(): over graphql-ws the errors are the
    // operation's one result (`next`), then `complete`, as graphql-ws' own server sends them.
    for await (const result of client.iterate({ query: BAD_VARIABLE, variables: { first: 'five' } })) results.push(result);
    expect(results).toEqual([BAD_VARIABLE_RESULT]);
  });

  it('runs a mutation: cardUpdate freezes the demo card', async () => {
    const client = open();
    const results: unknown[] = [];
    for await (const result of client.iterate({
      query: CARD_UPDATE,
      variables: { input: { cardId: CARD, status: 'INACTIVE', updatedBy: 'Jordan Miles' } },
    }))
      results.push(result);
    expect(results).toEqual([
      { data: { cardUpdate: { __typename: 'CardUpdateSuccess', card: { upstreamId: CARD, status: 'INACTIVE' } } } },
    ]);
  });

  it('receives two card status changes at the bank, in order, then resumes after the first with `after`', async () => {
    const client = open();
    const live = collector<CardStatusResult>();
    const stop = client.subscribe<CardStatusResult['data']>(
      { query: CARD_STATUS, variables: { cardId: CARD } },
      { next: live.push as never, error: (e) => live.push({ errors: [e] }), complete: () => {} },
    );
    cleanups.push(stop);
    await subscriptionsOpen(1);
    await blockThenActivate();
    const [blocked, active] = await live.next(2);
    expect(changes([blocked!, active!])).toEqual(BLOCKED_THEN_ACTIVE);
    expect(active!.data!.cardStatusChanged).toMatchObject({ cardUpstreamId: CARD, card: { upstreamId: CARD, status: 'ACTIVE' } });
    stop();
    await subscriptionsOpen(0);

    // A reconnect with the cursor of the first: the second comes again from the gateway's event
    // log, then live events; the first is not repeated.
    const resumed = collector<CardStatusResult>();
    cleanups.push(
      client.subscribe<CardStatusResult['data']>(
        { query: CARD_STATUS, variables: { cardId: CARD, after: blocked!.data!.cardStatusChanged.event.cursor } },
        { next: resumed.push as never, error: (e) => resumed.push({ errors: [e] }), complete: () => {} },
      ),
    );
    await subscriptionsOpen(1);
    await resumed.next(1);
    await bankSetsCardStatus(kit, 'INACTIVE');
    const replayed = await resumed.next(2);
    expect(changes(replayed)).toEqual(['ACTIVE (issuing.card.active)', 'INACTIVE (issuing.card.blocked)']);
    expect(replayed[0]!.data!.cardStatusChanged.event.cursor).toBe(active!.data!.cardStatusChanged.event.cursor);
  });
});

/**
 * graphql-sse 2.6.1 (The Guild), `createClient` from 'graphql-sse'.
 * Settings: `url` only (http://host:port/graphql). Its default "distinct connections" mode
 * (`singleConnection: false`): one POST per operation with `accept: text/event-stream`, which is
 * Yoga's own SSE mode; Node 24's global fetch; everything else at its defaults.
 */
describe(`graphql-sse ${version('graphql-sse')}: createClient({ url }), distinct connections mode`, () => {
  const open = (): SseClient => {
    const client = createSseClient({ url: httpUrl() });
    cleanups.push(() => client.dispose());
    return client;
  };

  it('runs a query: the demo accounts', async () => {
    const client = open();
    const results: unknown[] = [];
    for await (const result of client.iterate({ query: ACCOUNTS })) results.push(result);
    expect(results).toHaveLength(1);
    const { nodes } = (results[0] as { data: { accounts: { nodes: { upstreamId: string; status: string }[] } } }).data.accounts;
    expect(nodes.map((n) => n.upstreamId).sort()).toEqual([...DEMO_ACCOUNTS].sort());
    expect(nodes.find((n) => n.upstreamId === 'acc_demo_hkd')?.status).toBe('CLOSED');
  });

  it('surfaces a variable of the wrong type as BAD_USER_INPUT with the variable and the path', async () => {
    const client = open();
    const answers = gatewayAnswers();
    const results: unknown[] = [];
    const iterated = (async () => {
      for await (const result of client.iterate({ query: BAD_VARIABLE, variables: { first: 'five' } })) results.push(result);
      return 'completed';
    })();
    // graphql-sse takes any answer but 200 for a network failure and tries again (5 times, from 1 s
    // apart, doubling), then reports a NetworkError without reading the body: the GraphQL over SSE
    // protocol has the server report errors found before execution as `next` events of a 200 stream.
    const outcome = await Promise.race([
      iterated.catch((error: unknown) => String(error)),
      new Promise((resolve) => setTimeout(resolve, 5_000, 'no answer in 5 s')),
    ]);
    expect({ outcome, answers: answers() }).toEqual({ outcome: 'completed', answers: ['POST /graphql 200'] });
    expect(results).toEqual([BAD_VARIABLE_RESULT]);
  });

  it('receives two card status changes at the bank, in order', async () => {
    const client = open();
    const live = collector<CardStatusResult>();
    cleanups.push(
      client.subscribe(
        { query: CARD_STATUS, variables: { cardId: CARD } },
        { next: live.push as never, error: (e) => live.push({ errors: [e] }), complete: () => {} },
      ),
    );
    await subscriptionsOpen(1);
    await blockThenActivate();
    const received = await live.next(2);
    expect(changes(received)).toEqual(BLOCKED_THEN_ACTIVE);
    expect(received.map((r) => r.data!.cardStatusChanged.cardUpstreamId)).toEqual([CARD, CARD]);
    expect(received[1]!.data!.cardStatusChanged.card).toEqual({ upstreamId: CARD, status: 'ACTIVE' });
  });
});

/**
 * urql: @urql/core 6.0.3, `new Client({ url, exchanges: [cacheExchange, fetchExchange,
 * subscriptionExchange({ forwardSubscription })] })` as urql's docs show, the subscription
 * exchange forwarding to a graphql-ws 6.4.2 `createClient({ url })`.
 * Settings: `url`, the exchanges, and the CSRF header on its requests
 * (`fetchOptions: { headers: { 'x-graphql-csrf': '1' } }`). urql sends queries as GET by default
 * (`preferGetMethod: 'within-url-limit'`) with only CORS-safelisted headers, which any web page
 * could send to the gateway too: such a GET is refused (`CSRF_HEADER_REQUIRED`), as Apollo Server
 * refuses it, unless it carries a header only a page the CORS check let in can add. That header
 * is the one setting urql needs; everything else is at its defaults.
 */
describe(`urql (@urql/core ${version('@urql/core')}) with subscriptionExchange over graphql-ws`, () => {
  const open = () => {
    const ws = createWsClient({ url: wsUrl() });
    cleanups.push(() => ws.dispose());
    return new UrqlClient({
      url: httpUrl(),
      fetchOptions: { headers: { 'x-graphql-csrf': '1' } },
      exchanges: [
        cacheExchange,
        fetchExchange,
        subscriptionExchange({
          forwardSubscription(request) {
            const input = { ...request, query: request.query || '' };
            return {
              subscribe(sink) {
                const unsubscribe = ws.subscribe(input, sink);
                return { unsubscribe };
              },
            };
          },
        }),
      ],
    });
  };

  it('runs a query: the demo accounts', async () => {
    const client = open();
    const result = await client.query(ACCOUNTS, {}).toPromise();
    expect(result.error).toBeUndefined();
    const nodes = (result.data as { accounts: { nodes: { upstreamId: string }[] } }).accounts.nodes;
    expect(nodes.map((n) => n.upstreamId).sort()).toEqual([...DEMO_ACCOUNTS].sort());
  });

  it('surfaces a variable of the wrong type as BAD_USER_INPUT with the variable and the path', async () => {
    const client = open();
    // A mutation, which urql POSTs (its queries go out as GET: see the query above).
    const result = await client.mutation(CARD_UPDATE, { input: { cardId: CARD, status: 'FROZEN', updatedBy: 'Jordan Miles' } }).toPromise();
    expect(result.data).toBeUndefined();
    expect(result.error?.graphQLErrors).toHaveLength(1);
    expect(result.error!.graphQLErrors[0]!.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      variable: 'input',
      issues: [{ path: ['input', 'status'], message: expect.any(String) }],
    });
    expect(kit.calls(CARD_PATH, 'PATCH')).toEqual([]);
  });

  it('runs a mutation: cardUpdate freezes the demo card', async () => {
    const client = open();
    const result = await client
      .mutation(CARD_UPDATE, { input: { cardId: CARD, status: 'INACTIVE', updatedBy: 'Jordan Miles' } })
      .toPromise();
    expect(result.error).toBeUndefined();
    // urql's cacheExchange adds __typename to every selection set.
    expect(result.data).toEqual({
      cardUpdate: { __typename: 'CardUpdateSuccess', card: { __typename: 'Card', upstreamId: CARD, status: 'INACTIVE' } },
    });
  });

  it('receives two card status changes at the bank, in order', async () => {
    const client = open();
    const live = collector<CardStatusResult>();
    const { unsubscribe } = client
      .subscription(CARD_STATUS, { cardId: CARD })
      .subscribe((result) => live.push({ data: result.data, errors: result.error ? [result.error] : undefined }));
    cleanups.push(unsubscribe);
    await subscriptionsOpen(1);
    await blockThenActivate();
    const received = await live.next(2);
    expect(received.every((r) => r.errors === undefined)).toBe(true);
    expect(changes(received)).toEqual(BLOCKED_THEN_ACTIVE);
    expect(received[1]!.data!.cardStatusChanged.card).toMatchObject({ upstreamId: CARD, status: 'ACTIVE' });
  });
});

/**
 * graphql-request 7.4.0, `new GraphQLClient(url)` and its `request(document, variables)`.
 * Settings: `url` only (POST with a JSON body, its default).
 */
describe(`graphql-request ${version('graphql-request')}: new GraphQLClient(url)`, () => {
  it('runs a query: the demo accounts', async () => {
    const client = new GraphQLClient(httpUrl());
    const data = await client.request<{ accounts: { nodes: { id: string; upstreamId: string; status: string }[] } }>(ACCOUNTS);
    expect(data.accounts.nodes.map((n) => n.upstreamId).sort()).toEqual([...DEMO_ACCOUNTS].sort());
    expect(data.accounts.nodes.find((n) => n.upstreamId === 'acc_demo_eur')).toEqual({
      id: Buffer.from('Account:acc_demo_eur').toString('base64'),
      upstreamId: 'acc_demo_eur',
      status: 'ACTIVE',
    });
  });

  it('runs a mutation: cardUpdate freezes the demo card, and the bank has it frozen', async () => {
    const client = new GraphQLClient(httpUrl());
    const data = await client.request(CARD_UPDATE, { input: { cardId: CARD, status: 'INACTIVE', updatedBy: 'Jordan Miles' } });
    expect(data).toEqual({ cardUpdate: { __typename: 'CardUpdateSuccess', card: { upstreamId: CARD, status: 'INACTIVE' } } });
    const bank = await apiClient(kit.sandbox);
    const card = await bank.get(CARD_PATH, { query: { id: CARD } });
    expect((card.body as { data: { cardHashId: string; cardStatus: string }[] }).data).toEqual([
      expect.objectContaining({ cardHashId: CARD, cardStatus: 'INACTIVE' }),
    ]);
    const read = await client.request<{ card: { status: string } }>('query Card($id: ID!) { card(id: $id) { status } }', { id: CARD });
    expect(read.card.status).toBe('INACTIVE');
  });

  it('surfaces a variable of the wrong type as a ClientError with BAD_USER_INPUT, the variable and the path', async () => {
    const client = new GraphQLClient(httpUrl());
    const error = await client.request(BAD_VARIABLE, { first: 'five' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ClientError);
    const { response } = error as ClientError;
    expect(response.status).toBe(400);
    expect(response.errors).toHaveLength(1);
    expect(response.errors![0]!.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      variable: 'first',
      issues: [{ path: ['first'], message: expect.any(String) }],
    });
  });
});

/**
 * Relay: relay-runtime 21.0.1, `new Environment({ network: Network.create(fetchFn, subscribeFn),
 * store: new Store(new RecordSource()) })` as Relay's docs show. The fetch function POSTs JSON:
 * `{ query: operation.text, variables }`, or for a persisted query (no text) the id as
 * `{ documentId: operation.id, variables }` (Relay's docs send it as `doc_id`, which the gateway
 * answers, as `id`, with 400 PERSISTED_QUERY_ID_REQUIRED; it takes `documentId`, GraphQL over HTTP's
 * name, or Apollo's `extensions.persistedQuery`). The subscribe
 * function is Relay's docs' graphql-ws one: `Observable.create((sink) => wsClient.subscribe({
 * operationName: operation.name, query: operation.text, variables }, sink))` with a graphql-ws
 * 6.4.2 `createClient({ url })`.
 *
 * The artifacts below are written by hand in the shape relay-compiler gives them (the compiler is a
 * build step of an app, not of this gateway).
 */
describe(`Relay (relay-runtime ${version('relay-runtime')})`, () => {
  const fetchFn =
    (target: Kit): FetchFunction =>
    async (operation, variables) => {
      const response = await fetch(httpUrl(target), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(operation.text ? { query: operation.text, variables } : { documentId: operation.id, variables }),
      });
      return response.json();
    };

  const environment = (target: Kit) => {
    const ws = createWsClient({ url: wsUrl(target) });
    cleanups.push(() => ws.dispose());
    const subscribe: SubscribeFunction = (operation, variables) =>
      Observable.create((sink) => ws.subscribe({ operationName: operation.name, query: operation.text!, variables }, sink as never));
    return new Environment({ network: Network.create(fetchFn(target), subscribe), store: new Store(new RecordSource()) });
  };

  const scalar = (name: string) => ({ alias: null, args: null, kind: 'ScalarField', name, storageKey: null }) as const;

  const accountsSelections = [
    {
      alias: null,
      args: [{ kind: 'Literal', name: 'first', value: 5 }],
      concreteType: 'AccountConnection',
      kind: 'LinkedField',
      name: 'accounts',
      plural: false,
      selections: [
        {
          alias: null,
          args: null,
          concreteType: 'Account',
          kind: 'LinkedField',
          name: 'nodes',
          plural: true,
          selections: [scalar('id'), scalar('upstreamId'), scalar('status')],
          storageKey: null,
        },
      ],
      storageKey: 'accounts(first:5)',
    },
  ];
  const AccountsQuery = {
    fragment: {
      argumentDefinitions: [],
      kind: 'Fragment',
      metadata: null,
      name: 'ClientsAccountsQuery',
      selections: accountsSelections,
      type: 'Query',
      abstractKey: null,
    },
    kind: 'Request',
    operation: { argumentDefinitions: [], kind: 'Operation', name: 'ClientsAccountsQuery', selections: accountsSelections },
    params: {
      cacheID: 'ClientsAccountsQuery',
      id: null,
      metadata: {},
      name: 'ClientsAccountsQuery',
      operationKind: 'query',
      text: 'query ClientsAccountsQuery {\n  accounts(first: 5) {\n    nodes {\n      id\n      upstreamId\n      status\n    }\n  }\n}\n',
    },
  } as unknown as ConcreteRequest;

  /** schema/operations/accounts.graphql's Balances, persisted: its id is in schema/trusted-documents.json, its text is not sent. */
  const money = (name: string) => ({
    alias: null,
    args: null,
    concreteType: 'Money',
    kind: 'LinkedField',
    name,
    plural: false,
    selections: [scalar('amount'), scalar('currency')],
    storageKey: null,
  });
  const balancesArguments = [{ defaultValue: null, kind: 'LocalArgument', name: 'currency' }];
  const balancesSelections = [
    {
      alias: null,
      args: [{ kind: 'Variable', name: 'currency', variableName: 'currency' }],
      concreteType: 'Balance',
      kind: 'LinkedField',
      name: 'balances',
      plural: true,
      selections: [scalar('currency'), money('available'), money('pending'), money('reserved')],
      storageKey: null,
    },
  ];
  const BalancesQuery = {
    fragment: {
      argumentDefinitions: balancesArguments,
      kind: 'Fragment',
      metadata: null,
      name: 'Balances',
      selections: balancesSelections,
      type: 'Query',
      abstractKey: null,
    },
    kind: 'Request',
    operation: { argumentDefinitions: balancesArguments, kind: 'Operation', name: 'Balances', selections: balancesSelections },
    params: {
      id: (BalancesDocument as unknown as { __meta__: { hash: string } }).__meta__.hash,
      metadata: {},
      name: 'Balances',
      operationKind: 'query',
      text: null,
    },
  } as unknown as ConcreteRequest;

  const cardStatusArguments = [{ defaultValue: null, kind: 'LocalArgument', name: 'cardId' }];
  const cardStatusSelections = [
    {
      alias: null,
      args: [{ kind: 'Variable', name: 'cardId', variableName: 'cardId' }],
      concreteType: 'CardStatusChange',
      kind: 'LinkedField',
      name: 'cardStatusChanged',
      plural: false,
      selections: [
        scalar('status'),
        {
          alias: null,
          args: null,
          concreteType: 'BankEvent',
          kind: 'LinkedField',
          name: 'event',
          plural: false,
          selections: [scalar('name'), scalar('cursor')],
          storageKey: null,
        },
        {
          alias: null,
          args: null,
          concreteType: 'Card',
          kind: 'LinkedField',
          name: 'card',
          plural: false,
          selections: [scalar('id'), scalar('upstreamId'), scalar('status')],
          storageKey: null,
        },
      ],
      storageKey: null,
    },
  ];
  const CardStatusSubscription = {
    fragment: {
      argumentDefinitions: cardStatusArguments,
      kind: 'Fragment',
      metadata: null,
      name: 'ClientsCardStatusSubscription',
      selections: cardStatusSelections,
      type: 'Subscription',
      abstractKey: null,
    },
    kind: 'Request',
    operation: {
      argumentDefinitions: cardStatusArguments,
      kind: 'Operation',
      name: 'ClientsCardStatusSubscription',
      selections: cardStatusSelections,
    },
    params: {
      cacheID: 'ClientsCardStatusSubscription',
      id: null,
      metadata: {},
      name: 'ClientsCardStatusSubscription',
      operationKind: 'subscription',
      text: 'subscription ClientsCardStatusSubscription(\n  $cardId: ID\n) {\n  cardStatusChanged(cardId: $cardId) {\n    status\n    event {\n      name\n      cursor\n    }\n    card {\n      id\n      upstreamId\n      status\n    }\n  }\n}\n',
    },
  } as unknown as ConcreteRequest;

  describe('against the gateway with query text', () => {
    it('runs a query through fetchQuery: the demo accounts, in the store', async () => {
      const env = environment(kit);
      const data = (await fetchQuery(env, AccountsQuery, {}).toPromise()) as {
        accounts: { nodes: { id: string; upstreamId: string; status: string }[] };
      };
      expect(data.accounts.nodes.map((n) => n.upstreamId).sort()).toEqual([...DEMO_ACCOUNTS].sort());
      // Normalised by global id: the record is in Relay's store under Account.id.
      const usd = Buffer.from('Account:acc_demo_usd').toString('base64');
      expect(env.getStore().getSource().get(usd)).toMatchObject({ __typename: 'Account', upstreamId: 'acc_demo_usd', status: 'ACTIVE' });
    });

    it('receives two card status changes at the bank, in order, through requestSubscription', async () => {
      const env = environment(kit);
      const live = collector<CardStatusResult['data']>();
      const errors: unknown[] = [];
      const subscription = requestSubscription(env, {
        subscription: CardStatusSubscription,
        variables: { cardId: CARD },
        onNext: (data) => live.push(data as CardStatusResult['data']),
        onError: (error) => errors.push(error),
      });
      cleanups.push(() => subscription.dispose());
      await subscriptionsOpen(1);
      await blockThenActivate();
      const received = await live.next(2);
      expect(errors).toEqual([]);
      expect(changes(received.map((data) => ({ data })))).toEqual(BLOCKED_THEN_ACTIVE);
      expect(received[1]!.cardStatusChanged.card).toEqual({
        id: Buffer.from(`Card:${CARD}`).toString('base64'),
        upstreamId: CARD,
        status: 'ACTIVE',
      });
      // The card in the store is the one the last event read.
      expect(
        env
          .getStore()
          .getSource()
          .get(Buffer.from(`Card:${CARD}`).toString('base64')),
      ).toMatchObject({ status: 'ACTIVE', upstreamId: CARD });
    });
  });

  describe('against a gateway that runs only trusted documents (TRUSTED_DOCUMENTS=true), by persisted id', () => {
    const trusted = useKit({ listen: true, limits: { trustedDocuments: SHIPPED_TRUSTED_DOCUMENTS } });

    it('runs a persisted query by id: the balances in USD', async () => {
      const data = (await fetchQuery(environment(trusted), BalancesQuery, { currency: 'USD' }).toPromise()) as {
        balances: { currency: string; available: { amount: string; currency: string } }[];
      };
      expect(data.balances).toHaveLength(1);
      expect(data.balances[0]).toMatchObject({
        currency: 'USD',
        available: { amount: expect.stringMatching(/^\d+(\.\d+)?$/), currency: 'USD' },
      });
      expect(Number(data.balances[0]!.available.amount)).toBeGreaterThan(0);
    });

    it('surfaces a variable of the wrong type as BAD_USER_INPUT with the variable and the path (error.source.errors)', async () => {
      const error = await fetchQuery(environment(trusted), BalancesQuery, { currency: 'DOLLARS' })
        .toPromise()
        .then(
          () => undefined,
          (e: unknown) => e as Error & { source?: { errors: { extensions: unknown }[] } },
        );
      expect(error?.message).toMatch(/No data returned for operation `Balances`/);
      expect(error!.source!.errors).toHaveLength(1);
      expect(error!.source!.errors[0]!.extensions).toEqual({
        code: 'BAD_USER_INPUT',
        variable: 'currency',
        issues: [{ path: ['currency'], message: expect.any(String) }],
      });
    });

    it('surfaces an id the gateway does not trust as PERSISTED_QUERY_NOT_IN_LIST', async () => {
      const unknown = {
        ...BalancesQuery,
        params: { ...BalancesQuery.params, id: `sha256:${'0'.repeat(64)}`, cacheID: 'unknown' },
      } as unknown as ConcreteRequest;
      const error = await fetchQuery(environment(trusted), unknown, { currency: 'USD' })
        .toPromise()
        .then(
          () => undefined,
          (e: unknown) => e as Error & { source?: { errors: { extensions: { code: string } }[] } },
        );
      expect(error!.source!.errors.map((e) => e.extensions.code)).toEqual(['PERSISTED_QUERY_NOT_IN_LIST']);
    });
  });
});
