import { createServer, type Server } from 'node:http';
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { CombinedProtocolErrors } from '@apollo/client/errors';
import { createSchema, createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/authentication/api-keys.ts';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { incrementalDelivery } from '../../src/transport/incremental-delivery.ts';
import { bankEvent, deliverEvent } from '../helpers/deliver.ts';
import { CardUpdateDocument } from '../generated/graphql.ts';
import { startKit, useKit, type Kit } from '../helpers/kit.ts';
import { record, registerSecret } from '../helpers/leak-scan.ts';
import { subscribeSse } from '../helpers/subscribe.ts';
import { until } from '../helpers/wait.ts';

/**
 * Subscriptions over HTTP multipart in Apollo's protocol (src/transport/multipart-subscriptions.ts): what
 * Apollo Client's HttpLink sends a subscription over by default. The real client first, then the
 * wire as served, then the rules every HTTP subscription obeys (auth, CORS, CSRF, `after`, limits),
 * and the 406 that says what would work.
 */

/** What Apollo Client 4's HttpLink sends with a subscription (BaseHttpLink: its `accept` first, then the defaults). */
const APOLLO_ACCEPT = 'multipart/mixed;boundary=graphql;subscriptionSpec=1.0,application/graphql-response+json,application/json;q=0.9';
const CONTENT_TYPE = 'multipart/mixed;boundary="graphql";subscriptionSpec=1.0';
/** Every part is followed by its delimiter at once, so a client knows the part is whole; then `--` ends the body. */
const DELIMITER = '\r\n--graphql';
const part = (json: string) => `\r\ncontent-type: application/json; charset=utf-8\r\n\r\n${json}${DELIMITER}`;
const HEARTBEAT_PART = part('{}');
const CLOSING = `${DELIMITER}--\r\n`;

const CARD = 'crd_demo_ava_v';
const CARD_STATUS = `subscription CardStatus($cardId: ID, $after: String) { cardStatusChanged(cardId: $cardId, after: $after) { status event { upstreamId cursor } } }`;

/** A multipart subscription read as raw text: every byte as served, and each part's JSON as it completes. */
interface RawStream {
  response: Response;
  text: () => string;
  /** The JSON text of every complete part so far, heartbeats included. */
  parts: string[];
  /** Resolves once `count` parts other than heartbeats have come. */
  messages(count: number, timeoutMs?: number): Promise<unknown[]>;
  /** Resolves once the body has ended (the closing boundary read, or the connection closed). */
  ended: Promise<void>;
  abort(): void;
}

async function openRaw(url: string, body: unknown, headers: Record<string, string> = {}, method = 'POST'): Promise<RawStream> {
  const abort = new AbortController();
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', accept: APOLLO_ACCEPT, ...headers },
    body: method === 'GET' ? undefined : JSON.stringify(body),
    signal: abort.signal,
  });
  let raw = '';
  const parts: string[] = [];
  const ended = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        raw += decoder.decode(chunk, { stream: true });
        parts.splice(0, parts.length, ...completeParts(raw));
      }
    } catch {
      // Aborted by the test.
    }
    record('multipart subscription', raw);
  })();
  const messages = async (count: number, timeoutMs = 5_000) => {
    const payloads = () => parts.filter((text) => text !== '{}');
    await until(
      () => `${count} messages (got ${JSON.stringify(parts)})`,
      () => payloads().length >= count,
      { timeoutMs },
    );
    return payloads().map((text) => JSON.parse(text) as unknown);
  };
  return { response, text: () => raw, parts, messages, ended, abort: () => abort.abort() };
}

/** The JSON of each part whose closing delimiter has arrived. */
function completeParts(raw: string): string[] {
  const pieces = raw.split(DELIMITER);
  return pieces.slice(1, -1).map((piece) => piece.slice(piece.indexOf('\r\n\r\n') + 4));
}

describe('subscriptions over HTTP multipart (Apollo protocol), against the gateway', () => {
  const kit = useKit({
    listen: true,
    reconcileWebhooks: true,
    webhooks: { agentCode: 'AG-MP', subagentCode: 'SUB-MP', companyCode: 'CO-MP' },
  });
  const url = () => `${kit.baseUrl}/graphql`;
  const open = () => kit.gateway.events.activeSubscriptions();
  let minutes = 0;

  /**
   * Freezes (INACTIVE) or unfreezes (ACTIVE) the demo card: the sandbox tells the gateway, which
   * publishes cardStatusChanged. The clock moves on first: a reset puts it back, and a change at the
   * same instant as an earlier test's would be the same occurrence (test/integration/event-identity.test.ts).
   */
  async function setCard(status: 'INACTIVE' | 'ACTIVE'): Promise<void> {
    await kit.control('POST', 'clock/advance', { minutes: ++minutes });
    const result = await kit.execute(CardUpdateDocument, { input: { cardId: CARD, status, updatedBy: 'Jane Doe' } });
    expect(result.data?.cardUpdate.__typename).toBe('CardUpdateSuccess');
  }

  it('Apollo Client 4 at its defaults receives two card status changes in order, and lets go when unsubscribed', async () => {
    const client = new ApolloClient({ link: new HttpLink({ uri: url() }), cache: new InMemoryCache() });
    const received: { data?: unknown; error?: unknown }[] = [];
    const errors: unknown[] = [];
    const before = open();
    const subscription = client.subscribe({ query: gql(CARD_STATUS), variables: { cardId: CARD } }).subscribe({
      next: (result) => received.push(result),
      error: (error: unknown) => errors.push(error),
    });
    await until('the gateway to register the subscription', () => open() > before);

    await setCard('INACTIVE');
    await setCard('ACTIVE');
    await until(
      () => `two results (got ${JSON.stringify(received)})`,
      () => received.length >= 2,
    );

    expect(errors).toEqual([]);
    expect(received.map((result) => result.error)).toEqual([undefined, undefined]);
    const changes = received.map(
      (result) => (result.data as { cardStatusChanged: { status: string; event: { upstreamId: string } } }).cardStatusChanged,
    );
    expect(changes.map((change) => [change.status, change.event.upstreamId])).toEqual([
      ['INACTIVE', `${CARD}_issuing.card.blocked`],
      ['ACTIVE', `${CARD}_issuing.card.active`],
    ]);
    subscription.unsubscribe();
    await until('the gateway to let go of the subscription', () => open() === before);
    client.stop();
  });

  it('serves the exact wire format: the content type, a heartbeat at once, payload-wrapped events, and the closing boundary when the gateway ends its subscriptions', async () => {
    const before = open();
    const stream = await openRaw(
      url(),
      { query: 'subscription { cardStatusChanged(cardId: "crd_demo_ava_v") { status } }' },
      { 'accept-encoding': 'gzip, deflate, br' },
    );
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toBe(CONTENT_TYPE);
    // A stream is neither compressed (events would be held back) nor tagged.
    expect(stream.response.headers.get('content-encoding')).toBeNull();
    expect(stream.response.headers.get('etag')).toBeNull();
    await until('the gateway to register the subscription', () => open() > before);
    await until('the first heartbeat', () => stream.parts.length > 0);
    expect(stream.text()).toBe(`${DELIMITER}${HEARTBEAT_PART}`);

    await setCard('INACTIVE');
    await stream.messages(1);
    const event = part('{"payload":{"data":{"cardStatusChanged":{"status":"INACTIVE"}}}}');
    // Heartbeats come every 5 s: past the first, however many the test's pace let in.
    const withoutLaterHeartbeats = () =>
      `${DELIMITER}${HEARTBEAT_PART}${stream
        .text()
        .slice(DELIMITER.length + HEARTBEAT_PART.length)
        .replaceAll(HEARTBEAT_PART, '')}`;
    expect(withoutLaterHeartbeats()).toBe(`${DELIMITER}${HEARTBEAT_PART}${event}`);

    await kit.gateway.events.endSubscriptions();
    await stream.ended;
    expect(withoutLaterHeartbeats()).toBe(`${DELIMITER}${HEARTBEAT_PART}${event}--\r\n`);
    expect(open()).toBe(before);
  });

  it('frees the subscription when the client goes away', async () => {
    const before = open();
    const stream = await openRaw(url(), { query: CARD_STATUS });
    await until('the gateway to register the subscription', () => open() > before);
    stream.abort();
    await until('the gateway to let go of the subscription after the client aborted', () => open() === before);
  });

  it('sends each event as SSE sends it, errors included (masked, coded, with their path)', async () => {
    const query = 'subscription { cardStatusChanged(cardId: "crd_gone") { status cardUpstreamId card { upstreamId } } }';
    const before = open();
    const multipart = await openRaw(url(), { query });
    const sse = await subscribeSse(kit, query);
    await until('the gateway to register both subscriptions', () => open() >= before + 2);
    const event = bankEvent('crd_gone_issuing.card.blocked', 'issuing.card.blocked', { card_id: 'crd_gone' });
    expect((await deliverEvent(kit.baseUrl, event)).status).toBe(202);

    const [overSse] = await sse.next(1);
    const [overMultipart] = await multipart.messages(1);
    expect(overMultipart).toEqual({ payload: overSse });
    expect(overSse).toMatchObject({
      data: { cardStatusChanged: { status: 'INACTIVE', cardUpstreamId: 'crd_gone', card: null } },
      errors: [{ path: ['cardStatusChanged', 'card'], extensions: { code: 'NOT_FOUND' } }],
    });
    await sse.close();
    multipart.abort();
    await until('the gateway to let go of both subscriptions', () => open() === before);
  });

  it('resumes after a cursor: the events missed come first', async () => {
    const before = open();
    const first = await openRaw(url(), { query: CARD_STATUS, variables: { cardId: CARD } });
    await until('the gateway to register the subscription', () => open() > before);
    await setCard('INACTIVE');
    const [frozen] = (await first.messages(1)) as { payload: { data: { cardStatusChanged: { event: { cursor: string } } } } }[];
    first.abort();
    await until('the gateway to let go of the first subscription', () => open() === before);

    await setCard('ACTIVE');
    const resumed = await openRaw(url(), {
      query: CARD_STATUS,
      variables: { cardId: CARD, after: frozen!.payload.data.cardStatusChanged.event.cursor },
    });
    const [missed] = (await resumed.messages(1)) as { payload: { data: { cardStatusChanged: { status: string } } } }[];
    expect(missed!.payload.data.cardStatusChanged.status).toBe('ACTIVE');
    resumed.abort();
    await until('the gateway to let go of the resumed subscription', () => open() === before);
  });

  it('answers a subscription refused before its stream starts in JSON when accepted, else as one part', async () => {
    const bad = { query: 'subscription { cardStatusChanged(after: "not-a-cursor") { status } }' };
    const json = await fetch(url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: APOLLO_ACCEPT },
      body: JSON.stringify(bad),
    });
    expect(json.headers.get('content-type')).toContain('application/graphql-response+json');
    expect((await json.json()) as unknown).toMatchObject({ errors: [{ extensions: { code: 'BAD_USER_INPUT', argument: 'after' } }] });

    const only = await openRaw(url(), bad, { accept: 'multipart/mixed;subscriptionSpec=1.0' });
    await only.ended;
    expect(only.response.headers.get('content-type')).toBe(CONTENT_TYPE);
    expect(only.parts.map((text) => JSON.parse(text) as unknown)).toEqual([
      {},
      { payload: { errors: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })] } },
    ]);
    expect(only.text().endsWith(CLOSING)).toBe(true);
  });

  it('refuses a subscription over the limits before it starts, as for any operation', async () => {
    const before = open();
    const aliases = Array.from({ length: 16 }, (_, index) => `s${index}: status`).join(' ');
    const response = await fetch(url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: APOLLO_ACCEPT },
      body: JSON.stringify({ query: `subscription { cardStatusChanged { ${aliases} } }` }),
    });
    expect(response.status).toBe(400);
    expect((await response.json()) as unknown).toMatchObject({ errors: [{ extensions: { code: 'QUERY_TOO_COMPLEX', limit: 'aliases' } }] });
    expect(open()).toBe(before);
  });

  it('serves a GET subscription (with the CSRF header) as a stream without an ETag', async () => {
    const before = open();
    const query = encodeURIComponent('subscription { cardStatusChanged { status } }');
    const stream = await openRaw(`${url()}?query=${query}`, undefined, { 'x-graphql-csrf': '1' }, 'GET');
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toBe(CONTENT_TYPE);
    expect(stream.response.headers.get('etag')).toBeNull();
    await until('the gateway to register the subscription', () => open() > before);
    stream.abort();
    await until('the gateway to let go of the subscription', () => open() === before);
  });

  it('keeps SSE for a client that lists text/event-stream first', async () => {
    const response = await fetch(url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: `text/event-stream, ${APOLLO_ACCEPT}` },
      body: JSON.stringify({ query: 'subscription { cardStatusChanged { status } }' }),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    await response.body?.cancel();
  });

  describe('an Accept that allows no answer: a 406 that says what was sent and what would work', () => {
    async function refusal(accept: string, query: string) {
      const response = await fetch(url(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept },
        body: JSON.stringify({ query }),
      });
      expect(response.status).toBe(406);
      expect(response.headers.get('content-type')).toContain('application/json');
      return ((await response.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] }).errors;
    }

    it('a subscription with JSON only: names SSE, multipart with subscriptionSpec and graphql-ws, never @defer', async () => {
      const before = open();
      const errors = await refusal('application/json', 'subscription { cardStatusChanged { status } }');
      expect(errors).toEqual([
        {
          message:
            'A subscription is answered as a stream of events, which Accept: application/json does not allow: send Accept: text/event-stream or multipart/mixed;subscriptionSpec=1.0, or subscribe over WebSocket (graphql-transport-ws).',
          extensions: {
            code: 'SUBSCRIPTION_TRANSPORT_NOT_ACCEPTED',
            received: 'application/json',
            accept: ['text/event-stream', 'multipart/mixed;subscriptionSpec=1.0'],
            webSocketProtocol: 'graphql-transport-ws',
          },
        },
      ]);
      expect(errors[0]!.message).not.toContain('@defer');
      // The subscription it had opened is let go.
      await until('the gateway to let go of the refused subscription', () => open() === before);
    });

    it('a subscription with a plain multipart/mixed (an incremental-delivery client): the same', async () => {
      const [error] = await refusal('multipart/mixed', 'subscription { cardStatusChanged { status } }');
      expect(error!.extensions).toMatchObject({ code: 'SUBSCRIPTION_TRANSPORT_NOT_ACCEPTED', received: 'multipart/mixed' });
    });

    it('a @defer query with JSON only: names @defer and the media types that take parts', async () => {
      const errors = await refusal('application/json', '{ balances { currency ... @defer { available { amount } } } }');
      expect(errors).toEqual([
        {
          message:
            'An operation with @defer or @stream is answered in parts, which Accept: application/json does not allow: send Accept: multipart/mixed or text/event-stream.',
          extensions: {
            code: 'INCREMENTAL_DELIVERY_NOT_ACCEPTED',
            received: 'application/json',
            accept: ['multipart/mixed', 'text/event-stream'],
          },
        },
      ]);
    });

    it('a plain query with multipart/mixed is answered as before (Yoga multipart, one part)', async () => {
      const response = await fetch(url(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'multipart/mixed' },
        body: JSON.stringify({ query: '{ balances { currency } }' }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('multipart/mixed; boundary="-"');
      const text = await response.text();
      expect(text).toMatch(
        /^\r\n---\r\nContent-Type: application\/json; charset=utf-8\r\nContent-Length: \d+\r\n\r\n\{"data":\{"balances":\[/,
      );
      expect(text.endsWith('\r\n-----\r\n')).toBe(true);
    });
  });
});

describe('service mode: auth, CORS and CSRF apply to a multipart subscription as to any HTTP request', () => {
  const API_KEY = 'gwk_test-multipart-key-0123456789abcdef';
  const WRONG_KEY = 'gwk_test-multipart-wrong-0123456789abcdef';
  const ORIGIN = 'https://app.example';
  registerSecret('a caller API key', API_KEY);
  registerSecret('a wrong caller API key', WRONG_KEY);
  let kit: Kit;
  const url = () => `${kit.baseUrl}/graphql`;
  const SUBSCRIPTION = 'subscription { accountStatusChanged { status } }';

  beforeAll(async () => {
    kit = await startKit({
      listen: true,
      auth: {
        mode: 'service',
        apiKeys: [{ name: 'reporting', sha256: sha256Hex(API_KEY), roles: ['viewer'], cardholderId: null }],
        jwt: undefined,
        allowedOrigins: [ORIGIN],
      },
    });
  });
  afterAll(() => kit?.close());

  it('refuses a wrong API key with a 401 in JSON before anything starts', async () => {
    const before = kit.gateway.events.activeSubscriptions();
    const response = await fetch(url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: APOLLO_ACCEPT, 'x-api-key': WRONG_KEY },
      body: JSON.stringify({ query: SUBSCRIPTION }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toContain('json');
    expect(response.headers.get('www-authenticate')).toContain('realm="banking-gateway"');
    expect((await response.json()) as unknown).toMatchObject({ errors: [{ extensions: { code: 'UNAUTHENTICATED' } }] });
    expect(kit.gateway.events.activeSubscriptions()).toBe(before);
  });

  it('streams for a good API key from an allowed origin, with its CORS headers', async () => {
    const before = kit.gateway.events.activeSubscriptions();
    const stream = await openRaw(url(), { query: SUBSCRIPTION }, { 'x-api-key': API_KEY, origin: ORIGIN });
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toBe(CONTENT_TYPE);
    expect(stream.response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    await until('the gateway to register the subscription', () => kit.gateway.events.activeSubscriptions() > before);
    stream.abort();
    await until('the gateway to let go of the subscription', () => kit.gateway.events.activeSubscriptions() === before);
  });

  it('gives a page from another origin no CORS headers, and refuses its preflight', async () => {
    const other = 'https://evil.example';
    const preflight = await fetch(url(), {
      method: 'OPTIONS',
      headers: {
        origin: other,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, accept, x-api-key',
      },
    });
    expect(preflight.status).toBe(403);
    expect((await preflight.json()) as unknown).toMatchObject({ errors: [{ extensions: { code: 'ORIGIN_NOT_ALLOWED' } }] });
  });

  it('refuses a text/plain POST (a form any page could send) for want of a CSRF header', async () => {
    const response = await fetch(url(), {
      method: 'POST',
      headers: { 'content-type': 'text/plain', accept: APOLLO_ACCEPT, 'x-api-key': API_KEY },
      body: JSON.stringify({ query: SUBSCRIPTION }),
    });
    expect(response.status).toBe(403);
    expect((await response.json()) as unknown).toMatchObject({ errors: [{ extensions: { code: 'CSRF_HEADER_REQUIRED' } }] });
  });
});

describe('the multipart processor on its own: heartbeat interval and a stream that fails', () => {
  let server: Server;
  let url: string;
  let feed: { push(value: number): void; fail(error: Error): void } | undefined;
  let returned = 0;

  /** `ticks` yields what the test pushes, and throws what it fails with. */
  const schema = createSchema({
    typeDefs: 'type Query { ok: Boolean } type Subscription { ticks: Int }',
    resolvers: {
      Subscription: {
        ticks: {
          subscribe: () => {
            const queue: (number | Error)[] = [];
            let wake: (() => void) | undefined;
            const put = (item: number | Error) => (queue.push(item), wake?.());
            feed = { push: put, fail: put };
            return {
              [Symbol.asyncIterator]() {
                return this;
              },
              async next() {
                while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
                const item = queue.shift()!;
                if (item instanceof Error) throw item;
                return { value: { ticks: item }, done: false };
              },
              async return() {
                returned++;
                return { value: undefined, done: true };
              },
            };
          },
        },
      },
    },
  });

  beforeAll(async () => {
    // Without the gateway's per-request state: subscriptions are told apart by their own hook.
    const delivery = incrementalDelivery({ multipartHeartbeatMs: 40 });
    const plugins = [
      delivery.answerableAcceptOnly,
      useDeferStream(),
      delivery.streamFormAccepted,
      delivery.subscriptionsNoted!,
      delivery.streamAnswers,
    ];
    const yoga = createYoga({ schema, plugins, logging: false });
    server = createServer((req, res) => void yoga.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/graphql`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends a `{}` heartbeat at the interval given, between events', async () => {
    feed = undefined;
    const stream = await openRaw(url, { query: 'subscription { ticks }' });
    await until('the subscription to start', () => feed !== undefined);
    await until('four heartbeats', () => stream.parts.length >= 4, { timeoutMs: 2_000 });
    expect(stream.parts.slice(0, 4)).toEqual(['{}', '{}', '{}', '{}']);
    feed!.push(1);
    expect(await stream.messages(1)).toEqual([{ payload: { data: { ticks: 1 } } }]);
    const returnedBefore = returned;
    stream.abort();
    await until('the iterator to return after the client went away', () => returned > returnedBefore);
  });

  it('ends a stream that fails after it started with the transport error, masked, then the closing boundary', async () => {
    feed = undefined;
    const stream = await openRaw(url, { query: 'subscription { ticks }' });
    await until('the subscription to start', () => feed !== undefined);
    feed!.push(7);
    feed!.fail(new Error('redis went away at 10.0.0.7:6379'));
    await stream.ended;
    expect(stream.parts.filter((text) => text !== '{}')).toEqual([
      '{"payload":{"data":{"ticks":7}}}',
      '{"payload":null,"errors":[{"message":"Unexpected error.","locations":[{"line":1,"column":1}],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}',
    ]);
    expect(stream.text().endsWith(`}${CLOSING}`)).toBe(true);
    expect(stream.text()).not.toContain('10.0.0.7');
  });

  it('is read by Apollo Client: the event as data, the transport error as protocol errors', async () => {
    feed = undefined;
    const client = new ApolloClient({ link: new HttpLink({ uri: url }), cache: new InMemoryCache() });
    const results: { data?: unknown; error?: unknown }[] = [];
    let completed = false;
    let failure: unknown;
    // No cache: Apollo writes a protocol error's empty data to it, and warns that `ticks` is missing.
    client.subscribe({ query: gql('subscription { ticks }'), fetchPolicy: 'no-cache' }).subscribe({
      next: (result) => results.push(result),
      complete: () => (completed = true),
      error: (error: unknown) => ((failure = error), (completed = true)),
    });
    await until('the subscription to start', () => feed !== undefined);
    feed!.push(3);
    feed!.fail(new Error('boom'));
    await until('the subscription to end', () => completed);
    expect(failure).toBeUndefined();
    expect(results[0]).toMatchObject({ data: { ticks: 3 } });
    const failed = results.at(-1)!.error;
    expect(CombinedProtocolErrors.is(failed)).toBe(true);
    expect((failed as CombinedProtocolErrors).errors).toEqual([
      { message: 'Unexpected error.', locations: [{ line: 1, column: 1 }], extensions: { code: 'INTERNAL_SERVER_ERROR' } },
    ]);
    client.stop();
  });
});
