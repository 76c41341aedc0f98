import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { useKit, type Kit } from '../helpers/kit.ts';
import { capturingLogger } from '../helpers/observe.ts';
import { until } from '../helpers/wait.ts';
import { subscribeLegacyWs } from '../helpers/subscribe.ts';

/**
 * Live queries over the transports that carry more than one result beside graphql-ws and SSE (the
 * legacy graphql-ws subprotocol, HTTP multipart), named by an APQ hash or a trusted document's id
 * as a query is, and logged once in the operation log, not once per push.
 */

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const persisted = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });
const DASHBOARD = 'query LiveDashboard @live { balances { currency available { amount } } }';

type Result = {
  data?: { balances: { currency: string; available: { amount: string } }[] } | null;
  errors?: { message: string; extensions?: { code?: string } }[];
};
const usd = (result: Result | undefined) => Number(result?.data?.balances.find((balance) => balance.currency === 'USD')?.available.amount);

/** Results as they arrive on one HTTP response, split by `parse`; `close` is the client leaving. */
interface Stream {
  received: Result[];
  close(): void;
}

async function openHttp(kit: Kit, body: unknown, accept: string, split: (raw: string) => string[]): Promise<Stream & { status: number }> {
  const abort = new AbortController();
  const response = await fetch(`${kit.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept },
    body: JSON.stringify(body),
    signal: abort.signal,
  });
  const received: Result[] = [];
  void (async () => {
    let raw = '';
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        raw += decoder.decode(chunk, { stream: true });
        received.splice(0, received.length, ...split(raw).map((json) => JSON.parse(json) as Result));
      }
    } catch {
      // The client left (close).
    }
  })();
  return { status: response.status, received, close: () => abort.abort() };
}

/** The data of each complete `next` event of a GraphQL-over-SSE stream. */
const sseEvents = (raw: string) =>
  raw
    .split('\n\n')
    .slice(0, -1)
    .filter((message) => /^event: next/m.test(message))
    .map((message) =>
      message
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('\n'),
    );

/**
 * The JSON of each complete part of Yoga's multipart answer (`boundary="-"`, the incremental-delivery
 * format that urql and meros read): a live query is a query, so it is answered as one, each push a part.
 */
const multipartParts = (raw: string) =>
  raw
    .split('\r\n---')
    .slice(1, -1)
    .map((piece) => piece.slice(piece.indexOf('\r\n\r\n') + 4));

/**
 * The results in the parts of Apollo's multipart protocol (`boundary="graphql"`, each result as
 * `{"payload": …}`, `{}` heartbeats), what Apollo Client's HttpLink, Apollo Kotlin and Apollo iOS read.
 */
const apolloParts = (raw: string) =>
  raw
    .split('\r\n--graphql')
    .slice(1)
    .map((piece) => piece.slice(piece.indexOf('\r\n\r\n') + 4))
    .filter((json) => json.startsWith('{"payload"'))
    .map((json) => JSON.stringify((JSON.parse(json) as { payload: unknown }).payload));
const APOLLO_ACCEPT = 'multipart/mixed;boundary="graphql";subscriptionSpec=1.0,application/json';

const sse = (kit: Kit, body: unknown) => openHttp(kit, body, 'text/event-stream', sseEvents);

const opened: { close(): unknown }[] = [];

let minutes = 0;

/**
 * A deposit, its event delivered as a webhook. The sandbox's clock moves on first: two deposits at
 * one instant would be one occurrence to the intake (test/integration/event-identity.test.ts), the second dropped.
 */
async function deposit(kit: Kit, amount: number): Promise<void> {
  await kit.control('POST', 'clock/advance', { minutes: ++minutes });
  await kit.control('POST', 'deposits', { currency: 'USD', amount, payer_name: 'Globex' });
}

describe('live queries over more transports, by hash, logged once', () => {
  const log = capturingLogger();
  const kit = useKit({
    listen: true,
    reconcileWebhooks: true,
    webhooks: { agentCode: 'AG-LIVE-T', subagentCode: 'SUB-LIVE-T', companyCode: 'CO-LIVE-T' },
    logger: log.logger,
  });
  afterEach(async () => {
    for (const stream of opened.splice(0)) await stream.close();
    await until('every live query to be let go', () => kit.gateway.live.stats().open === 0, { timeoutMs: 5_000 });
  });

  it('pushes over the legacy graphql-ws subprotocol (subscriptions-transport-ws)', async () => {
    const live = await subscribeLegacyWs<Result>(kit, DASHBOARD, {}, {}, { registered: false });
    opened.push(live);
    const [first] = await live.next(1);
    await deposit(kit, 310);
    const [, second] = await live.next(2);
    expect(usd(second)).toBe(usd(first) + 310);
  });

  it.each([
    {
      transport: 'HTTP multipart (Accept: multipart/mixed), each push a part',
      accept: 'multipart/mixed',
      parts: multipartParts,
      amount: 420,
    },
    {
      transport: "Apollo's multipart protocol (subscriptionSpec=1.0), as a subscription is",
      accept: APOLLO_ACCEPT,
      parts: apolloParts,
      amount: 470,
    },
  ])('pushes over $transport', async ({ accept, parts, amount }) => {
    const live = await openHttp(kit, { query: DASHBOARD }, accept, parts);
    opened.push(live);
    expect(live.status).toBe(200);
    await until('the first result', () => live.received.length === 1);
    await deposit(kit, amount);
    await until('the new balance', () => live.received.length === 2);
    expect(usd(live.received[1])).toBe(usd(live.received[0]) + amount);
  });

  it('answers once over plain JSON', async () => {
    const response = await fetch(`${kit.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: DASHBOARD }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(usd((await response.json()) as Result)).toBeGreaterThan(0);
  });

  it('runs by its APQ hash once the document was registered, and pushes', async () => {
    const extensions = persisted(sha256(DASHBOARD));
    const registering = await sse(kit, { query: DASHBOARD, extensions });
    opened.push(registering);
    await until('the first result', () => registering.received.length === 1);
    const byHash = await sse(kit, { extensions });
    opened.push(byHash);
    await until('the first result by hash', () => byHash.received.length === 1);
    await deposit(kit, 530);
    await until('the new balance by hash', () => byHash.received.length === 2);
    expect(usd(byHash.received[1])).toBe(usd(byHash.received[0]) + 530);
  });

  it('is logged once in the operation log, when it ends, not once per push', async () => {
    const query = 'query LoggedOnce @live { balances { currency available { amount } } }';
    const live = await sse(kit, { query });
    await until('the first result', () => live.received.length === 1);
    await deposit(kit, 640);
    await until('the new balance', () => live.received.length === 2);
    const lines = () => log.messages(/^operation executed$/).filter((line) => line.operation === 'LoggedOnce');
    expect(lines()).toHaveLength(0);
    live.close();
    await until('the line of the ended live query', () => lines().length > 0);
    await until('every live query to be let go', () => kit.gateway.live.stats().open === 0);
    expect(lines()).toHaveLength(1);
  });
});

describe('live queries as trusted documents', () => {
  const directory = mkdtempSync(join(tmpdir(), 'live-manifest-'));
  const manifest = join(directory, 'persisted-query-manifest.json');
  writeFileSync(
    manifest,
    JSON.stringify({
      format: 'apollo-persisted-query-manifest',
      version: 1,
      operations: [{ id: sha256(DASHBOARD), body: DASHBOARD, name: 'LiveDashboard', type: 'query' }],
    }),
  );
  const kit = useKit({
    listen: true,
    reconcileWebhooks: true,
    webhooks: { agentCode: 'AG-LIVE-TD', subagentCode: 'SUB-LIVE-TD', companyCode: 'CO-LIVE-TD' },
    limits: { trustedDocuments: manifest },
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  afterEach(async () => {
    for (const stream of opened.splice(0)) await stream.close();
    await until('every live query to be let go', () => kit.gateway.live.stats().open === 0, { timeoutMs: 5_000 });
  });

  it('runs a listed live document by its hash alone and pushes', async () => {
    const live = await sse(kit, { extensions: persisted(sha256(DASHBOARD)) });
    opened.push(live);
    await until('the first result', () => live.received.length === 1);
    await deposit(kit, 750);
    await until('the new balance', () => live.received.length === 2);
    expect(usd(live.received[1])).toBe(usd(live.received[0]) + 750);
  });
});
