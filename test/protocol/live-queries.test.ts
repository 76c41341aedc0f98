import { encodeGlobalID } from '@pothos/plugin-relay';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import { getNamedType, isObjectType, parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOTS_BY_KIND, STATIC_ROOTS } from '../../src/live/identifiers.ts';
import { buildSchema } from '../../src/schema/index.ts';
import { useKit, type Kit } from '../helpers/kit.ts';
import { until } from '../helpers/wait.ts';

/**
 * Live queries (`@live`) with real clients at their defaults against the sandbox, its events
 * reaching the gateway as signed webhooks: a result is pushed when something it read changed, and
 * only then; every client that leaves frees what it held.
 */

const kit = useKit({
  listen: true,
  reconcileWebhooks: true,
  webhooks: { agentCode: 'AG-LIVE', subagentCode: 'SUB-LIVE', companyCode: 'CO-LIVE' },
  liveQueries: { maxPerConnection: 3 },
});

const httpUrl = (target: Kit = kit) => `${target.baseUrl}/graphql`;
const wsUrl = (target: Kit = kit) => httpUrl(target).replace(/^http/, 'ws');

const AVA_CARD = 'crd_demo_ava_v';
const OTHER_CARD = 'crd_demo_ava_p';
const DASHBOARD = 'query Dashboard @live { balances { currency available { amount } } }';
const CARD_SCREEN = `query CardScreen @live { card(id: "${AVA_CARD}") { status } }`;

type Result = { data?: Record<string, any> | null; errors?: readonly { message: string; extensions?: Record<string, unknown> }[] };

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  await until('every live query to be let go', () => kit.gateway.live.stats().open === 0, { timeoutMs: 5_000 });
});

/** Every result a client receives, in order; `stop` ends the operation from the client's side. */
interface Received {
  results: Result[];
  stop(): void;
}

function overWs(query: string, target: Kit = kit): Received {
  const client = createWsClient({ url: wsUrl(target) });
  cleanups.push(() => client.dispose());
  const results: Result[] = [];
  const stop = client.subscribe(
    { query },
    {
      next: (result) => void results.push(result as Result),
      error: (error) => void results.push({ errors: [{ message: String(error) }] }),
      complete: () => {},
    },
  );
  return { results, stop };
}

function overSse(query: string): Received {
  const client = createSseClient({ url: httpUrl(), headers: { 'x-graphql-csrf': '1' } });
  cleanups.push(() => client.dispose());
  const results: Result[] = [];
  const stop = client.subscribe(
    { query },
    {
      next: (result) => void results.push(result as Result),
      error: (error) => void results.push({ errors: [{ message: String(error) }] }),
      complete: () => {},
    },
  );
  return { results, stop };
}

const usd = (result: Result | undefined) =>
  (result?.data?.balances as { currency: string; available: { amount: string } }[] | undefined)?.find((b) => b.currency === 'USD')
    ?.available.amount;

async function freeze(card: string): Promise<void> {
  const updated = await kit.execute(
    parse(
      `mutation { cardUpdate(input: { cardId: "${encodeGlobalID('Card', card)}", status: INACTIVE, updatedBy: "Jane Doe" }) { __typename } }`,
    ) as TypedDocumentNode<Record<string, any>, Record<string, never>>,
  );
  expect(updated.data?.cardUpdate.__typename).toBe('CardUpdateSuccess');
}

describe('live queries', () => {
  it('declares @live in the schema', () => {
    expect(
      buildSchema()
        .getDirective('live')
        ?.args.map((arg) => arg.name),
    ).toEqual(['if', 'throttle']);
  });

  it('knows which kinds of record every root field reads', () => {
    const known = new Set<string>([
      ...STATIC_ROOTS,
      'node',
      'nodes',
      ...Object.values(ROOTS_BY_KIND).flatMap((roots) => [...roots.lists, ...roots.single]),
    ]);
    const roots = Object.keys(buildSchema().getQueryType()!.getFields());
    expect(roots.filter((root) => !known.has(root))).toEqual([]);
    // And names none the schema lacks.
    expect([...known].filter((root) => !roots.includes(root))).toEqual([]);
    expect(isObjectType(getNamedType(buildSchema().getQueryType()!.getFields().card!.type))).toBe(true);
  });

  it('pushes a live dashboard its new balance after a deposit (graphql-ws), one bank read for it', async () => {
    const live = overWs(DASHBOARD);
    await until('the first result', () => live.results.length === 1);
    const before = Number(usd(live.results[0]));
    await kit.resetCounts();
    await kit.control('POST', 'deposits', { currency: 'USD', amount: 1250, payer_name: 'Globex' });
    await until('the new balance', () => live.results.length === 2);
    expect(Number(usd(live.results[1]))).toBe(before + 1250);
    expect(kit.calls('/svc/api/v1/account/balance')).toHaveLength(1);
  });

  it('pushes a live card screen its new status after another caller freezes it (graphql-sse)', async () => {
    const live = overSse(CARD_SCREEN);
    await until('the first result', () => live.results.length === 1);
    // `isLive`: the protocol's mark on each result of a live query (@n1ru4l/graphql-live-query).
    expect(live.results[0]).toEqual({ data: { card: { status: 'ACTIVE' } }, isLive: true });
    await freeze(AVA_CARD);
    await until('the new status', () => live.results.length === 2);
    expect(live.results[1]?.data).toEqual({ card: { status: 'INACTIVE' } });
  });

  it('pushes nothing when a change touches nothing the query read', async () => {
    const live = overWs(CARD_SCREEN);
    await until('the first result', () => live.results.length === 1);
    const reruns = await metric('gateway_live_query_reruns_total');
    await freeze(OTHER_CARD);
    // The write re-runs the screen (a write invalidates by kind); its result did not change.
    await until('the re-run', async () => (await metric('gateway_live_query_reruns_total')) > reruns);
    const marker = overWs(DASHBOARD);
    await until('a later operation to answer', () => marker.results.length === 1);
    expect(live.results).toHaveLength(1);
  });

  it('refuses a live query past the limit per connection with LIVE_QUERY_LIMIT', async () => {
    const client = createWsClient({ url: wsUrl() });
    cleanups.push(() => client.dispose());
    const results: Result[][] = [[], [], [], []];
    for (const received of results)
      client.subscribe(
        { query: DASHBOARD },
        { next: (result) => void received.push(result as Result), error: () => {}, complete: () => {} },
      );
    await until('every answer', () => results.every((received) => received.length === 1));
    const refused = results.filter((received) => received[0]?.errors?.[0]?.extensions?.code === 'LIVE_QUERY_LIMIT');
    expect(refused).toHaveLength(1);
    expect(kit.gateway.live.stats().open).toBe(3);
  });

  it('frees the store entry, its identifiers and timers when the client leaves', async () => {
    const live = overWs(
      'query Rates @live { balances { currency } fxRate(sourceCurrency: "USD", destinationCurrency: "EUR", sourceAmount: "100") { __typename } }',
    );
    await until('the first result', () => live.results.length === 1);
    expect(kit.gateway.live.stats()).toMatchObject({ open: 1, timers: 1 });
    expect(kit.gateway.live.stats().tracked).toBeGreaterThan(0);
    live.stop();
    await until('the store to let go', () => kit.gateway.live.stats().open === 0);
    expect(kit.gateway.live.stats()).toEqual({ open: 0, groups: 0, tracked: 0, timers: 0 });
  });
});

async function metric(name: string): Promise<number> {
  const text = await kit.gateway.metrics.registry.getSingleMetricAsString(name);
  return Number(/ (\d+)$/m.exec(text)?.[1] ?? 0);
}
