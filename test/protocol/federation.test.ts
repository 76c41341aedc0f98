import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { createClient as createWsClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { sha256Hex } from '../../src/authentication/api-keys.ts';
import { SHIPPED_TRUSTED_DOCUMENTS, type CallerAuthConfig } from '../../src/settings/index.ts';
import { composeSupergraph, subgraphSdl } from '../../examples/supergraph/compose.ts';
import { crmYoga } from '../../examples/supergraph/crm.ts';
import { gatewayConfig } from '../../examples/supergraph/gateway.config.ts';
import { extraCardMutation } from '../../bench/operations.ts';
import { bankEvent, deliverEvent } from '../helpers/deliver.ts';
import { useKit, type Kit } from '../helpers/kit.ts';
import { registerSecret } from '../helpers/leak-scan.ts';
import { postGraphql } from '../helpers/http.ts';
import { until } from '../helpers/wait.ts';

/**
 * The gateway as a Federation 2 subgraph behind a real router: its subgraph SDL composed with the
 * example CRM's (examples/supergraph) by The Guild's composition, and Hive Gateway's runtime, set up
 * by the example's gateway.config.ts, serving the supergraph in-process. Through the router the
 * gateway keeps what it promises directly: the same bank calls for the same data, authorization
 * decided before reading for the end caller (never the router), cardholder-bound callers seeing
 * only their own, audit records naming the end caller, and live events.
 */

const ROUTER_TOKEN = 'router-token-federation-test-0123456789';
const ADMIN_KEY = 'gwk_test-federation-admin-0123456789abcd';
const VIEWER_KEY = 'gwk_test-federation-viewer-0123456789abc';
const AVA_KEY = 'gwk_test-federation-ava-0123456789abcdef';
for (const secret of [ROUTER_TOKEN, ADMIN_KEY, VIEWER_KEY, AVA_KEY]) registerSecret('a test secret', secret);
// The example's router configuration reads the router's secret from its environment (its requests'
// time): set for this file alone, since the files of a worker share one process.env.
beforeAll(() => void (process.env.FEDERATION_ROUTER_TOKEN = ROUTER_TOKEN));
afterAll(() => void delete process.env.FEDERATION_ROUTER_TOKEN);

const SERVICE: CallerAuthConfig = {
  mode: 'service',
  apiKeys: [
    { name: 'ops-admin', sha256: sha256Hex(ADMIN_KEY), roles: ['admin'], cardholderId: null },
    { name: 'dashboard', sha256: sha256Hex(VIEWER_KEY), roles: ['viewer'], cardholderId: null },
    { name: 'ava-phone', sha256: sha256Hex(AVA_KEY), roles: ['cardholder'], cardholderId: 'chd_demo_ava' },
  ],
  jwt: undefined,
  allowedOrigins: [],
};

// Bank calls are counted for reads repeated from test to test: the record cache stays off.
const kit = useKit({
  listen: true,
  cache: false,
  auth: SERVICE,
  reconcileWebhooks: true,
  federation: { subgraph: true, routerToken: ROUTER_TOKEN },
});
const crm = createServer((req, res) => void crmYoga.handle(req, res));
let router: ReturnType<typeof createGatewayRuntime>;

beforeAll(async () => {
  await new Promise<void>((resolve) => crm.listen(0, '127.0.0.1', resolve));
  const crmUrl = `http://127.0.0.1:${(crm.address() as { port: number }).port}/graphql`;
  const bankUrl = `${kit.baseUrl}/graphql`;
  const supergraph = composeSupergraph([
    { name: 'bank', url: bankUrl, sdl: await subgraphSdl(bankUrl, { 'x-router-token': ROUTER_TOKEN, 'x-api-key': ADMIN_KEY }) },
    { name: 'crm', url: crmUrl, sdl: await subgraphSdl(crmUrl) },
  ]);
  router = createGatewayRuntime({ ...gatewayConfig, supergraph, logging: false } as Parameters<typeof createGatewayRuntime>[0]);
});
afterAll(async () => {
  await router?.dispose();
  await new Promise((resolve) => crm.close(resolve));
});

type Answer = { data?: Record<string, any> | null; errors?: { message: string; extensions?: { code?: string } }[] };

async function through(
  target: 'router' | 'gateway',
  query: string,
  key: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const body = { query, variables };
  const asked = { 'x-api-key': key, ...headers };
  const answer =
    target === 'router'
      ? await postGraphql<Answer>('http://router.test/graphql', body, asked, { fetch: router.fetch })
      : await postGraphql<Answer>(`${kit.baseUrl}/graphql`, body, asked);
  return answer.body;
}

/** The bank calls an operation made, as a sorted multiset (method, path, query). */
async function callsOf(run: () => Promise<unknown>, into?: Kit): Promise<string[]> {
  const target = into ?? kit;
  await target.resetCounts();
  await run();
  return target
    .calls()
    .map((call) => `${call.method} ${call.path} ${JSON.stringify(call.query)}`)
    .sort();
}

const codes = (answer: Answer) => (answer.errors ?? []).map((error) => error.extensions?.code);

describe('the gateway as a subgraph behind Hive Gateway', () => {
  it('answers a query joining the CRM with payouts, beneficiaries and cards, at the bank calls the same data costs directly', async () => {
    const joined = `{
      dealPayouts { upstreamId status reference sourceAmount { amount currency } }
      beneficiaries(first: 10) { nodes { upstreamId nickname relationshipManager { name email } } }
      cards(first: 3) { nodes { upstreamId status } }
    }`;
    const direct = `{
      payout(id: "pay_demo_1") { upstreamId status reference sourceAmount { amount currency } }
      beneficiaries(first: 10) { nodes { upstreamId nickname } }
      cards(first: 3) { nodes { upstreamId status } }
    }`;
    let viaRouter: Answer = {};
    let straight: Answer = {};
    const routerCalls = await callsOf(async () => (viaRouter = await through('router', joined, ADMIN_KEY)));
    const directCalls = await callsOf(async () => (straight = await through('gateway', direct, ADMIN_KEY)));
    expect(viaRouter.errors).toBeUndefined();
    expect(viaRouter.data!.dealPayouts).toEqual([straight.data!.payout]);
    expect(viaRouter.data!.cards).toEqual(straight.data!.cards);
    const managers = Object.fromEntries(
      viaRouter.data!.beneficiaries.nodes.map((b: { upstreamId: string; relationshipManager: { name: string } | null }) => [
        b.upstreamId,
        b.relationshipManager?.name ?? null,
      ]),
    );
    expect(managers).toMatchObject({ ben_demo_us: 'Maya Chen', ben_demo_gb: 'Tom Okafor', ben_demo_de: 'Lena Vogel', ben_demo_sg: null });
    expect(routerCalls).toEqual(directCalls);
  });

  it('reads 50 cards by their representations at the bank calls of as many node lookups, and of the cards screen', async () => {
    for (let n = 1; n <= 48; n++) {
      const { query, variables } = extraCardMutation(n);
      expect((await through('gateway', query, ADMIN_KEY, variables)).errors).toBeUndefined();
    }
    const listed = (await through('gateway', '{ cards(first: 50) { nodes { upstreamId } } }', ADMIN_KEY)).data!.cards.nodes.map(
      (card: { upstreamId: string }) => card.upstreamId,
    );
    expect(listed).toHaveLength(50);
    const representations = listed.map((upstreamId: string) => ({ __typename: 'Card', upstreamId }));
    const entities = '_entities(representations: $r) { ... on Card { upstreamId status } }';
    let answer: Answer = {};
    const entityCalls = await callsOf(
      async () =>
        (answer = await through(
          'gateway',
          `query ($r: [_Any!]!) { ${entities} }`,
          ADMIN_KEY,
          { r: representations },
          { 'x-router-token': ROUTER_TOKEN },
        )),
    );
    expect(answer.data!._entities.map((card: { upstreamId: string }) => card.upstreamId)).toEqual(listed);
    const ids = listed.map((id: string) => encodeGlobalID('Card', id));
    const nodeCalls = await callsOf(() =>
      through('gateway', 'query ($ids: [ID!]!) { nodes(ids: $ids) { ... on Card { upstreamId status } } }', ADMIN_KEY, { ids }),
    );
    const screenCalls = await callsOf(() => through('gateway', '{ cards(first: 50) { nodes { upstreamId status } } }', ADMIN_KEY));
    expect(entityCalls).toEqual(nodeCalls);
    expect(entityCalls.length).toBeLessThanOrEqual(screenCalls.length);
    expect(entityCalls.length).toBeGreaterThan(0);
  });

  it('refuses a viewer through the router what it refuses directly, before any bank read', async () => {
    const payout = `mutation { payoutCreate(input: { quoteId: "quo_demo_pay_1", beneficiaryId: "ben_demo_gb", reference: "Invoice 9", sourceOfFunds: "Business revenue" }) { __typename ... on MutationError { message } } }`;
    let viaRouter: Answer = {};
    let straight: Answer = {};
    expect(await callsOf(async () => (viaRouter = await through('router', payout, VIEWER_KEY)))).toEqual([]);
    expect(await callsOf(async () => (straight = await through('gateway', payout, VIEWER_KEY)))).toEqual([]);
    expect(viaRouter.data?.payoutCreate ?? null).toEqual(straight.data?.payoutCreate ?? null);
    expect(codes(viaRouter)).toEqual(codes(straight));
  });

  it("shows a cardholder-bound caller only its own cards, and answers another cardholder's card and a missing one alike", async () => {
    const viaRouter = await through('router', '{ cards(first: 50) { nodes { upstreamId cardholderUpstreamId } } }', AVA_KEY);
    expect(new Set(viaRouter.data!.cards.nodes.map((card: { cardholderUpstreamId: string }) => card.cardholderUpstreamId))).toEqual(
      new Set(['chd_demo_ava']),
    );
    // A card of the finance desk's (chd_demo_ops): someone else's for Ava.
    const create = 'mutation ($input: CardCreateInput!) { cardCreate(input: $input) { ... on CardCreateSuccess { card { upstreamId } } } }';
    const theirsId = (await through('gateway', create, ADMIN_KEY, extraCardMutation(1).variables)).data!.cardCreate.card
      .upstreamId as string;
    const entity = (upstreamId: string) =>
      through(
        'gateway',
        'query ($r: [_Any!]!) { _entities(representations: $r) { ... on Card { upstreamId } } }',
        AVA_KEY,
        { r: [{ __typename: 'Card', upstreamId }] },
        { 'x-router-token': ROUTER_TOKEN },
      );
    const theirs = await entity(theirsId);
    const missing = await entity('crd_nobody');
    expect(theirs).toEqual({ data: { _entities: [null] } });
    expect(missing).toEqual(theirs);
  });

  it('records a mutation through the router under the end caller, not the router', async () => {
    await kit.resetCounts();
    const freeze = 'mutation { cardUpdate(input: { cardId: "crd_demo_ava_v", status: ACTIVE, updatedBy: "Jordan Miles" }) { __typename } }';
    expect((await through('router', freeze, ADMIN_KEY)).data).toEqual({ cardUpdate: { __typename: 'CardUpdateSuccess' } });
    const records = kit.audit();
    expect(records).toHaveLength(1);
    expect(records[0]!.caller).toMatchObject({ name: 'ops-admin' });
  });

  it('delivers a bank event to a subscription opened through the router (graphql-ws to the gateway)', async () => {
    const abort = new AbortController();
    const response = await router.fetch('http://router.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-api-key': ADMIN_KEY },
      body: JSON.stringify({ query: 'subscription { bankEvents { upstreamId name } }' }),
      signal: abort.signal,
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    try {
      await until("the gateway to hold the router's subscription", () => kit.gateway.events.activeSubscriptions() === 1, {
        timeoutMs: 10_000,
      });
      expect((await deliverEvent(kit.baseUrl, { ...bankEvent('evt_through_router'), created_at: '2026-12-01T12:00:00+0000' })).status).toBe(
        202,
      );
      let received = '';
      while (!received.includes('evt_through_router')) received += (await reader.read()).value ?? '';
      expect(received).toContain('"name":"account.active"');
    } finally {
      await reader.cancel();
      abort.abort();
    }
    await until('the router to let go of its subscription', () => kit.gateway.events.activeSubscriptions() === 0, { timeoutMs: 10_000 });
  });
});

describe("the subgraph's own doors", () => {
  it('answers _entities and _service to the router alone: anyone else is refused before anything runs', async () => {
    const representations = { r: [{ __typename: 'Card', upstreamId: 'crd_demo_ava_v' }] };
    let refused: Answer = {};
    expect(
      await callsOf(
        async () =>
          (refused = await through(
            'gateway',
            'query ($r: [_Any!]!) { _entities(representations: $r) { __typename } }',
            ADMIN_KEY,
            representations,
          )),
      ),
    ).toEqual([]);
    expect(codes(refused)).toEqual(['ROUTER_ONLY']);
    expect(codes(await through('gateway', '{ _service { sdl } }', ADMIN_KEY))).toEqual(['ROUTER_ONLY']);
    expect(
      codes(await through('gateway', '{ ... on Query { _service { sdl } } }', ADMIN_KEY, undefined, { 'x-router-token': 'not-the-token' })),
    ).toEqual(['ROUTER_ONLY']);
    const sdl = (await through('gateway', '{ _service { sdl } }', ADMIN_KEY, undefined, { 'x-router-token': ROUTER_TOKEN })).data!._service
      .sdl as string;
    expect(sdl).toContain('@key(fields: "upstreamId")');
    // What npm run codegen prints for composing offline is what the router is told.
    expect(sdl.trim()).toBe(readFileSync(new URL('../../schema/subgraph.graphql', import.meta.url), 'utf8').trim());
  });
});

describe('trusted documents behind a router', () => {
  const trusted = useKit({
    listen: true,
    limits: { trustedDocuments: SHIPPED_TRUSTED_DOCUMENTS },
    federation: { subgraph: true, routerToken: ROUTER_TOKEN },
  });
  const balances = async (headers: Record<string, string>) =>
    (await postGraphql<Answer>(`${trusted.baseUrl}/graphql`, { query: '{ balances { currency } }' }, headers)).body;

  it("runs the router's query plans as text, and still refuses a client's text", async () => {
    expect((await balances({ 'x-router-token': ROUTER_TOKEN })).data!.balances.length).toBeGreaterThan(0);
    expect(codes(await balances({}))).toEqual(['PERSISTED_QUERY_ONLY']);
    expect(codes(await balances({ 'x-router-token': 'not-the-token' }))).toEqual(['PERSISTED_QUERY_ONLY']);
  });

  it("takes the router's subscriptions as text over graphql-ws, its token in the upgrade's headers", async () => {
    const open = (headers: Record<string, string>) =>
      new Promise<unknown>((resolve) => {
        const client = createWsClient({
          url: `${trusted.baseUrl!.replace(/^http/, 'ws')}/graphql`,
          webSocketImpl: class extends WebSocket {
            constructor(url: string, protocols: string[]) {
              super(url, protocols, { headers });
            }
          },
          retryAttempts: 0,
        });
        const stop = client.subscribe(
          { query: 'subscription { bankEvents { upstreamId } }' },
          { next: resolve, error: (error) => resolve({ error }), complete: () => resolve('complete') },
        );
        void until('the subscription to register', () => trusted.gateway.events.activeSubscriptions() === 1, { timeoutMs: 2_000 }).then(
          () => (stop(), void client.dispose(), resolve('registered')),
          () => undefined,
        );
      });
    expect(await open({ 'x-router-token': ROUTER_TOKEN })).toBe('registered');
    await until('it to be let go', () => trusted.gateway.events.activeSubscriptions() === 0, { timeoutMs: 5_000 });
    expect(JSON.stringify(await open({}))).toContain('PERSISTED_QUERY_ONLY');
  });
});

describe('a router fetch of many entities', () => {
  it('takes up to 500 representations in one _entities, and refuses more naming the argument, before any bank call', async () => {
    const representations = (count: number) => ({
      r: Array.from({ length: count }, (_, n) => ({ __typename: 'Card', upstreamId: `crd_many_${n}` })),
    });
    const query = 'query ($r: [_Any!]!) { _entities(representations: $r) { __typename } }';
    let refused: Answer = {};
    expect(
      await callsOf(
        async () => (refused = await through('gateway', query, ADMIN_KEY, representations(501), { 'x-router-token': ROUTER_TOKEN })),
      ),
    ).toEqual([]);
    expect(refused.errors).toEqual([
      expect.objectContaining({
        message: 'Argument "representations" of Query._entities must hold at most 500 items; got 501 items.',
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
      }),
    ]);
    expect(
      (await through('gateway', query, ADMIN_KEY, representations(500), { 'x-router-token': ROUTER_TOKEN })).data!._entities,
    ).toHaveLength(500);
  });
});

describe('the directives a router plans itself', () => {
  it('answers @defer through the router in parts, each a plain query to the gateway; @live is not in the supergraph', async () => {
    const response = await router.fetch('http://router.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'multipart/mixed', 'x-api-key': ADMIN_KEY },
      body: JSON.stringify({
        query:
          '{ accounts(first: 2) { nodes { upstreamId } } ...Later } fragment Later on Query { ... @defer { dealPayouts { upstreamId status } } }',
      }),
    });
    expect(response.headers.get('content-type')).toContain('multipart/mixed');
    const body = await response.text();
    expect(body).toContain('"hasNext":true');
    expect(body).toContain('"dealPayouts":[{"upstreamId":"pay_demo_1","status":"PENDING"}]');
    const live = await through('router', 'query @live { balances { currency } }', ADMIN_KEY);
    expect(live.errors?.[0]?.message).toBe('Unknown directive "@live".');
  });
});
