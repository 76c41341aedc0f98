import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { print } from 'graphql';
import { createClient } from 'graphql-ws';
import { SubscriptionClient } from 'subscriptions-transport-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { sha256Hex } from '../../src/authentication/api-keys.ts';
import type { CallerAuth } from '../../src/authentication/index.ts';
import { DEFAULT_LIMITS } from '../../src/settings/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { attachGraphqlWs, type GraphqlWs } from '../../src/transport/ws.ts';
import { parseClientMessage } from '../../src/transport/ws-legacy.ts';
import { bankEvent, deliverEvent } from '../helpers/deliver.ts';
import { BankEventsDocument } from '../generated/graphql.ts';
import { startKit, useKit, type Kit } from '../helpers/kit.ts';
import { record, registerSecret } from '../helpers/leak-scan.ts';
import { subscribeLegacyWs, subscribeWs } from '../helpers/subscribe.ts';
import { until } from '../helpers/wait.ts';

/**
 * The legacy `graphql-ws` subprotocol (subscriptions-transport-ws's, which Apollo Kotlin and Apollo
 * iOS speak by default) beside graphql-transport-ws on /graphql, driven with subscriptions-transport-ws's
 * own client at its defaults: the same origin check, credentials, limits and subscriptions as the
 * graphql-transport-ws path, and the protocol's own keep-alive.
 */

const wsUrl = (baseUrl: string | undefined, path = '/graphql') => `${baseUrl!.replace(/^http/, 'ws')}${path}`;

type Frame = { type: string; id?: string; payload?: any };

/** Every message the client's socket receives, parsed (the client is connected in its constructor). */
function framesOf(client: SubscriptionClient): Frame[] {
  const frames: Frame[] = [];
  // A Buffer: ws's default binaryType.
  (client.client as WebSocket).on('message', (data) => frames.push(JSON.parse((data as Buffer).toString()) as Frame));
  return frames;
}

/** How the client's socket closed. */
function closeOf(client: SubscriptionClient): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => (client.client as WebSocket).once('close', (code, reason) => resolve({ code, reason: String(reason) })));
}

/** One operation over `client`: its results, and how it ended. */
function run(client: SubscriptionClient, query: string, variables: Record<string, unknown> = {}): Promise<{ results: any[]; error?: any }> {
  return new Promise((resolve) => {
    const results: any[] = [];
    client.request({ query, variables }).subscribe({
      next: (value) => (record('graphql-ws (legacy) message', JSON.stringify(value)), results.push(value)),
      error: (error) => resolve({ results, error }),
      complete: () => resolve({ results }),
    });
  });
}

/** `{ cards { nodes { cardholder { cards { nodes { cardholder … } } } } } }`: 4 levels a turn. */
function cardholderLoop(turns: number): string {
  let selection = 'email';
  for (let i = 0; i < turns; i++) selection = `cards(first: 1) { nodes { cardholder { ${selection} } } }`;
  return `{ ${selection} }`;
}

const cardUpdate = (status: 'ACTIVE' | 'INACTIVE') =>
  `mutation { cardUpdate(input: {cardId: "crd_demo_ava_v", status: ${status}, updatedBy: "Jane Doe"}) { __typename ... on CardUpdateSuccess { card { status } } } }`;

describe('the legacy graphql-ws subprotocol', () => {
  const kit = useKit({
    listen: true,
    reconcileWebhooks: true,
    webhooks: { agentCode: 'AG-LEG', subagentCode: 'SUB-LEG', companyCode: 'CO-LEG' },
  });

  it('answers a query with one data message, then complete', async () => {
    const client = new SubscriptionClient(wsUrl(kit.baseUrl), {}, WebSocket);
    const frames = framesOf(client);
    const query = '{ balances { currency } }';
    const answer = await run(client, query);
    expect(answer.error).toBeUndefined();
    expect(answer.results).toHaveLength(1);
    expect(answer.results[0].data.balances.length).toBeGreaterThan(0);
    expect(frames.filter((f) => f.id !== undefined).map((f) => f.type)).toEqual(['data', 'complete']);
    expect((client.client as WebSocket).protocol).toBe('graphql-ws');
    client.close();
  });

  it('delivers two card status changes in order, made by mutations over the same socket', async () => {
    // An occurrence is its id and created_at (whole seconds): this test's happen a minute after any other's.
    await kit.control('POST', 'clock/advance', { minutes: 1 });
    const cards = await subscribeLegacyWs(kit, 'subscription { cardStatusChanged { status cardUpstreamId event { name } } }');
    const blocked = await run(cards.client, cardUpdate('INACTIVE'));
    expect(blocked.results).toEqual([{ data: { cardUpdate: { __typename: 'CardUpdateSuccess', card: { status: 'INACTIVE' } } } }]);
    const active = await run(cards.client, cardUpdate('ACTIVE'));
    expect(active.results).toEqual([{ data: { cardUpdate: { __typename: 'CardUpdateSuccess', card: { status: 'ACTIVE' } } } }]);

    expect(await cards.next(2)).toEqual([
      { data: { cardStatusChanged: { status: 'INACTIVE', cardUpstreamId: 'crd_demo_ava_v', event: { name: 'issuing.card.blocked' } } } },
      { data: { cardStatusChanged: { status: 'ACTIVE', cardUpstreamId: 'crd_demo_ava_v', event: { name: 'issuing.card.active' } } } },
    ]);
    await cards.close();
  });

  it('resumes after a cursor as graphql-transport-ws does: what was missed in order, then live, none twice', async () => {
    const ALL = print(BankEventsDocument);
    const deliver = async (id: string) =>
      expect((await deliverEvent(kit.baseUrl, bankEvent(id, 'account.suspended', { status: 'SUSPENDED' }))).status).toBe(202);
    const ids = (results: any[]) => results.map((r) => r.data.bankEvents.upstreamId);
    const stamp = Date.now();

    const first = await subscribeLegacyWs(kit, ALL);
    await deliver(`acct_${stamp}_a`);
    const [seen] = await first.next(1);
    await first.close();

    await deliver(`acct_${stamp}_b`);
    await deliver(`acct_${stamp}_c`);
    const legacy = await subscribeLegacyWs(kit, ALL, { after: seen.data.bankEvents.cursor });
    const current = await subscribeWs(kit, ALL, { after: seen.data.bankEvents.cursor });
    await legacy.next(2);
    await deliver(`acct_${stamp}_d`);
    await legacy.next(3);
    await current.next(3);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(ids(legacy.received)).toEqual([`acct_${stamp}_b`, `acct_${stamp}_c`, `acct_${stamp}_d`]);
    expect(legacy.received).toEqual(current.received);
    await legacy.close();
    await current.close();
  });

  it('lets go of a subscription on stop, with the socket still open, and says complete', async () => {
    const before = kit.gateway.events.activeSubscriptions();
    const client = new SubscriptionClient(wsUrl(kit.baseUrl), {}, WebSocket);
    const frames = framesOf(client);
    const subscription = client.request({ query: 'subscription { bankEvents { upstreamId } }' }).subscribe({});
    await until('the gateway to register the subscription', () => kit.gateway.events.activeSubscriptions() === before + 1);
    subscription.unsubscribe();
    await until('the gateway to let go of the subscription', () => kit.gateway.events.activeSubscriptions() === before);
    await until("the subscription's complete frame", () => frames.some((f) => f.type === 'complete' && f.id === '1'));
    expect((client.client as WebSocket).readyState).toBe(WebSocket.OPEN);
    client.close();
  });

  it('refuses an operation over the query limits before it runs, with the coded error graphql-transport-ws gives', async () => {
    const client = new SubscriptionClient(wsUrl(kit.baseUrl), {}, WebSocket);
    const frames = framesOf(client);
    await kit.resetCounts();
    const answer = await run(client, cardholderLoop(4));
    expect(answer.results).toEqual([]);
    expect(answer.error).toMatchObject({
      message: `The operation is too complex (depth): Query depth limit of ${DEFAULT_LIMITS.maxDepth} exceeded, found 13.`,
      extensions: { code: 'QUERY_TOO_COMPLEX', limit: 'depth' },
    });
    // HTTP's status stays with HTTP.
    expect(answer.error.extensions.http).toBeUndefined();
    const refusal = frames.find((f) => f.type === 'error')!;
    expect(refusal).toEqual({ type: 'error', id: '1', payload: { errors: [answer.error] } });
    expect(kit.calls()).toEqual([]);

    const overCurrent = await transportWsErrors(kit, cardholderLoop(4));
    expect(overCurrent).toEqual(refusal.payload.errors);
    client.close();
  });

  it('sends ka right after connection_ack', async () => {
    const client = new SubscriptionClient(wsUrl(kit.baseUrl), {}, WebSocket);
    const frames = framesOf(client);
    await until('the first two frames', () => frames.length >= 2);
    expect(frames.slice(0, 2)).toEqual([{ type: 'connection_ack' }, { type: 'ka' }]);
    client.close();
  });

  it('still serves graphql-transport-ws clients on the same path, mutations included', async () => {
    const client = createClient({ url: wsUrl(kit.baseUrl), webSocketImpl: WebSocket, retryAttempts: 0 });
    const once = (query: string) =>
      new Promise<any>((resolve, reject) => {
        let value: unknown;
        client.subscribe({ query }, { next: (v) => (value = v), error: reject, complete: () => resolve(value) });
      });
    expect((await once('{ balances { currency } }')).data.balances.length).toBeGreaterThan(0);
    expect(await once(cardUpdate('INACTIVE'))).toEqual({
      data: { cardUpdate: { __typename: 'CardUpdateSuccess', card: { status: 'INACTIVE' } } },
    });
    await client.dispose();
  });

  it('chooses the subprotocol by what the client offers: graphql-transport-ws when both are', async () => {
    expect(await handshake(kit, ['graphql-ws', 'graphql-transport-ws'])).toEqual({ protocol: 'graphql-transport-ws' });
    expect(await handshake(kit, ['graphql-transport-ws', 'graphql-ws'])).toEqual({ protocol: 'graphql-transport-ws' });
    expect(await handshake(kit, ['graphql-ws'])).toEqual({ protocol: 'graphql-ws' });
    // Neither: refused as graphql-ws always refused it.
    expect(await handshake(kit, ['graphql-sse'])).toEqual({ error: 'Server sent no subprotocol' });
    expect(await handshake(kit, [])).toEqual({ protocol: '', closed: { code: 4406, reason: 'Subprotocol not acceptable' } });
    // Another path: the handshake is refused, as before.
    expect(await handshake(kit, ['graphql-ws'], '/other')).toEqual({ status: 400 });
  });

  it('closes a socket that breaks the protocol with a clear code', async () => {
    const before = kit.gateway.events.activeSubscriptions();
    const init = JSON.stringify({ type: 'connection_init', payload: {} });
    const start = (id: string) => JSON.stringify({ id, type: 'start', payload: { query: 'subscription { bankEvents { upstreamId } }' } });
    expect(await rawClose(kit, ['not json'])).toEqual({ code: 4400, reason: 'Invalid message received: not JSON' });
    expect(await rawClose(kit, [JSON.stringify({ type: 'subscribe', id: '1' })])).toEqual({
      code: 4400,
      reason: 'Invalid message received: unknown type',
    });
    expect(await rawClose(kit, [init, JSON.stringify({ id: '1', type: 'start', payload: {} })])).toEqual({
      code: 4400,
      reason: 'Invalid message received: start needs an id and a payload with a query (or a persisted query hash)',
    });
    expect(await rawClose(kit, [start('1')])).toEqual({ code: 4401, reason: 'Unauthorized' });
    expect(await rawClose(kit, [init, init])).toEqual({ code: 4429, reason: 'Too many initialisation requests' });
    expect(await rawClose(kit, [init, start('1'), start('1')])).toEqual({ code: 4409, reason: 'Subscriber for this id already exists' });
    expect(await rawClose(kit, [init, JSON.stringify({ type: 'connection_terminate' })])).toEqual({ code: 1000, reason: 'Normal closure' });
    // The size limit of graphql-transport-ws and HTTP bodies: closed before the message is parsed.
    expect(
      (
        await rawClose(kit, [
          JSON.stringify({ type: 'connection_init', payload: { padding: 'x'.repeat(DEFAULT_LIMITS.maxBodyBytes * 2) } }),
        ])
      ).code,
    ).toBe(1009);
    // The operation started before the duplicate ended with its socket.
    await until('the gateway to let go of the subscription', () => kit.gateway.events.activeSubscriptions() === before);
  });
});

describe('the legacy subprotocol in service mode, with allowed origins', () => {
  const API_KEY = 'gwk_test-legacy-key-0123456789abcdef';
  const OTHER_KEY = 'gwk_test-unknown-legacy-0123456789abcdef';
  registerSecret('a caller API key', API_KEY);
  registerSecret('a wrong caller API key', OTHER_KEY);
  const APP = 'http://localhost:5173';
  const kit = useKit({
    listen: true,
    auth: {
      mode: 'service',
      apiKeys: [{ name: 'reporting', sha256: sha256Hex(API_KEY), roles: ['viewer'], cardholderId: null }],
      jwt: undefined,
      allowedOrigins: [APP],
    },
  });

  it('serves a caller whose API key is in connectionParams', async () => {
    const client = new SubscriptionClient(wsUrl(kit.baseUrl), { connectionParams: { 'x-api-key': API_KEY } }, WebSocket);
    const answer = await run(client, '{ balances { currency } }');
    expect(answer.error).toBeUndefined();
    expect(answer.results[0].data.balances.length).toBeGreaterThan(0);
    client.close();
  });

  it('answers a wrong API key with connection_error, then closes the socket with 4403 as graphql-transport-ws does', async () => {
    const told: unknown[] = [];
    const client = new SubscriptionClient(
      wsUrl(kit.baseUrl),
      { connectionParams: { 'x-api-key': OTHER_KEY }, connectionCallback: (error) => told.push(error) },
      WebSocket,
    );
    const frames = framesOf(client);
    const closed = closeOf(client);
    const reason = "The API key in x-api-key is not one of this gateway's keys";
    expect(await closed).toEqual({ code: 4403, reason });
    expect(frames).toEqual([{ type: 'connection_error', payload: { message: reason } }]);
    expect(told).toEqual([{ message: reason }]);
    client.close();
  });

  it('closes a socket whose connection_init has no credential with 4401', async () => {
    const client = new SubscriptionClient(wsUrl(kit.baseUrl), {}, WebSocket);
    const frames = framesOf(client);
    const closed = await closeOf(client);
    expect(closed.code).toBe(4401);
    expect(frames).toEqual([{ type: 'connection_error', payload: { message: closed.reason } }]);
    client.close();
  });

  it('refuses a page on an origin not allowed at the upgrade (HTTP 403), and lets an allowed one in', async () => {
    const errors: string[] = [];
    const refused = new SubscriptionClient(wsUrl(kit.baseUrl), { wsOptionArguments: [{ origin: 'https://evil.example' }] }, WebSocket);
    refused.onError((event: { message: string }) => errors.push(event.message));
    await until('the refused client to hear an error', () => errors.length > 0);
    expect(errors[0]).toBe('Unexpected server response: 403');
    refused.close();

    const allowed = new SubscriptionClient(
      wsUrl(kit.baseUrl),
      { connectionParams: { 'x-api-key': API_KEY }, wsOptionArguments: [{ origin: APP }] },
      WebSocket,
    );
    expect((await run(allowed, '{ balances { currency } }')).error).toBeUndefined();
    allowed.close();
  });
});

describe('graceful shutdown', () => {
  it('completes legacy subscriptions and closes their sockets with 1001', async () => {
    const kit = await startKit({ listen: true });
    const client = new SubscriptionClient(wsUrl(kit.baseUrl), {}, WebSocket);
    const frames = framesOf(client);
    const closed = closeOf(client);
    client.request({ query: 'subscription { bankEvents { upstreamId } }' }).subscribe({});
    await until('the gateway to register the subscription', () => kit.gateway.events.activeSubscriptions() === 1);
    await kit.gateway.server.stop(1_000);
    expect(await closed).toEqual({ code: 1001, reason: 'server shutting down' });
    expect(frames.at(-1)).toEqual({ type: 'complete', id: '1' });
    expect(kit.gateway.events.activeSubscriptions()).toBe(0);
    client.close();
    await kit.sandbox.close();
  });
});

describe('the adapter alone', () => {
  const lines: string[] = [];
  const logger = createLogger('debug', { write: (line: string) => void lines.push(line) });
  const auth = {
    originAllowed: () => true,
    authorizeSocket: async () => ({ kind: 'anonymous', name: 'anonymous' }),
  } as unknown as CallerAuth;
  let server: Server;
  let sockets: GraphqlWs;
  let baseUrl: string;

  beforeAll(async () => {
    server = createServer();
    sockets = attachGraphqlWs(server, { yoga: {} as never, auth, logger, maxPayloadBytes: 1_024, legacyKeepAliveMs: 40 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await sockets.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('reads each client message as graphql-ws reads its own, refusing what is not one', () => {
    expect(parseClientMessage('{"type":"connection_init","payload":{"x-api-key":"k"}}')).toEqual({
      type: 'connection_init',
      payload: { 'x-api-key': 'k' },
    });
    expect(parseClientMessage('{"id":"1","type":"start","payload":{"query":"{ a }","variables":null}}')).toEqual({
      type: 'start',
      id: '1',
      payload: { query: '{ a }', variables: null },
    });
    expect(parseClientMessage('{"id":"1","type":"stop"}')).toEqual({ type: 'stop', id: '1' });
    expect(parseClientMessage('{"type":"connection_terminate"}')).toEqual({ type: 'connection_terminate' });
    expect(parseClientMessage('{"type":')).toEqual({ refused: 'Invalid message received: not JSON' });
    expect(parseClientMessage('[1]')).toEqual({ refused: 'Invalid message received: no type' });
    expect(parseClientMessage('{"type":"ping"}')).toEqual({ refused: 'Invalid message received: unknown type' });
    expect(parseClientMessage('{"type":"stop"}')).toEqual({ refused: 'Invalid message received: stop needs an id' });
    for (const payload of [
      undefined,
      {},
      { query: 1 },
      { query: '{ a }', variables: [] },
      { query: '{ a }', operationName: 2 },
      { query: '{ a }', extensions: 'x' },
    ]) {
      expect(parseClientMessage(JSON.stringify({ id: '1', type: 'start', payload }))).toEqual({
        refused: 'Invalid message received: start needs an id and a payload with a query (or a persisted query hash)',
      });
    }
    expect(parseClientMessage(JSON.stringify({ id: '', type: 'start', payload: { query: '{ a }' } }))).toHaveProperty('refused');
  });

  it('sends ka on its interval after the first', async () => {
    const client = new SubscriptionClient(wsUrl(baseUrl), {}, WebSocket);
    const frames = framesOf(client);
    await until('four ka frames', () => frames.filter((f) => f.type === 'ka').length >= 4);
    expect(frames[0]).toEqual({ type: 'connection_ack' });
    expect(new Set(frames.slice(1).map((f) => f.type))).toEqual(new Set(['ka']));
    expect(sockets.connections).toBe(1);
    client.close();
    await until('the socket to close', () => sockets.connections === 0);
  });

  it('logs a client that broke the protocol at info, without a stack', async () => {
    lines.length = 0;
    expect(await rawClose({ baseUrl }, ['{"type":'])).toEqual({ code: 4400, reason: 'Invalid message received: not JSON' });
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.code === 4400)!;
    expect(logged).toMatchObject({
      level: 30,
      reason: 'Invalid message received: not JSON',
      msg: 'WebSocket closed: the client broke the graphql-ws (legacy) protocol',
    });
    expect(JSON.stringify(logged)).not.toContain('stack');
  });

  it('closes, with the code and reason given, the legacy sockets too', async () => {
    const client = new SubscriptionClient(wsUrl(baseUrl), {}, WebSocket);
    const frames = framesOf(client);
    await until('the first frame', () => frames.length > 0);
    const closed = closeOf(client);
    await sockets.close(1012, 'service restart');
    expect(await closed).toEqual({ code: 1012, reason: 'service restart' });
    expect(sockets.connections).toBe(0);
    client.close();
  });
});

/** What a raw WebSocket offering `protocols` gets: the chosen subprotocol (and a close, if any soon), or the refusal. */
function handshake(
  target: { baseUrl: string | undefined },
  protocols: string[],
  path?: string,
): Promise<{ protocol?: string; closed?: { code: number; reason: string }; status?: number; error?: string }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(wsUrl(target.baseUrl, path), protocols);
    socket.on('unexpected-response', (_request, response) => {
      resolve({ status: response.statusCode ?? 0 });
      socket.terminate();
    });
    socket.on('error', (error) => resolve({ error: error.message }));
    socket.on('open', () => {
      const timer = setTimeout(() => {
        resolve({ protocol: socket.protocol });
        socket.close();
      }, 100);
      socket.once('close', (code, reason) => {
        clearTimeout(timer);
        resolve({ protocol: socket.protocol, closed: { code, reason: String(reason) } });
      });
    });
  });
}

/** Sends `messages` on a raw legacy socket; how the gateway closed it. */
function rawClose(target: { baseUrl: string | undefined }, messages: string[]): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(wsUrl(target.baseUrl), 'graphql-ws');
    socket.on('error', () => {});
    socket.on('open', () => messages.forEach((message) => socket.send(message)));
    socket.on('close', (code, reason) => resolve({ code, reason: String(reason) }));
  });
}

/** The errors graphql-transport-ws answers a refused operation with. */
async function transportWsErrors(kit: Kit, query: string): Promise<unknown[]> {
  const client = createClient({ url: wsUrl(kit.baseUrl), webSocketImpl: WebSocket, retryAttempts: 0 });
  try {
    return await new Promise((resolve, reject) => {
      client.subscribe(
        { query },
        {
          next: (value) => reject(new Error(`unexpected result ${JSON.stringify(value)}`)),
          error: (errors) => resolve(errors as unknown[]),
          complete: () => reject(new Error('completed')),
        },
      );
    });
  } finally {
    await client.dispose();
  }
}
