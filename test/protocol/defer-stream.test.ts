import { describe, expect, it } from 'vitest';
import { multipartParts } from '../../bench/multipart.ts';
import { extraCardMutation } from '../../bench/operations.ts';
import { useKit } from '../helpers/kit.ts';
import { postGraphql } from '../helpers/http.ts';

/**
 * Incremental delivery (@defer, @stream) over HTTP multipart and SSE: the cards screen paints its
 * list after one round of upstream calls and the details follow, at no extra upstream call.
 */
// These tests count the bank calls of reads that repeat from test to test: the record cache (test/integration/cache.test.ts) stays off.
const kit = useKit({ cache: false, sandbox: { latencyMs: 60 } });
const CARDS_LIST = '/svc/api/v1/card';

const DEFERRED_CARDS = `query DeferredCards {
  cards(first: 10) {
    nodes {
      id
      maskedNumber
      status
      ... @defer(label: "details") { availableBalance { amount } cardholder { email } }
    }
  }
}`;

interface Payload {
  data?: { cards: { nodes: Record<string, unknown>[] } };
  incremental?: { data?: Record<string, unknown>; items?: unknown[]; path: (string | number)[]; label?: string }[];
  errors?: { message: string }[];
  hasNext?: boolean;
}

/** Each payload as it arrives, with the upstream calls answered by then. */
interface Arrival {
  payload: Payload;
  callsAnswered: number;
}

async function send(accept: string, query: string, variables?: Record<string, unknown>): Promise<Response> {
  return kit.gateway.yoga.fetch('http://gateway.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept },
    body: JSON.stringify({ query, variables }),
  });
}

/** One complete JSON result. */
async function run(query: string, variables?: Record<string, unknown>): Promise<Payload> {
  return (await postGraphql<Payload>('http://gateway.test/graphql', { query, variables }, {}, { fetch: kit.gateway.yoga.fetch })).body;
}

async function issueCards(count: number): Promise<void> {
  for (let i = 1; i <= count; i++) {
    const { query, variables } = extraCardMutation(i);
    expect((await run(query, variables)).errors).toBeUndefined();
  }
}

/** Reads a response body chunk by chunk, handing each complete part's text to `onPart` as it arrives. */
async function readParts(
  response: Response,
  split: (buffer: string) => { parts: string[]; rest: string },
  onPart: (text: string) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    const { parts, rest } = split(buffer);
    buffer = rest;
    parts.forEach(onPart);
  }
}

/** text/event-stream: `event: next` messages carry JSON in `data:`; `event: complete` ends it. */
function ssePayloads(buffer: string): { parts: string[]; rest: string } {
  const messages = buffer.split('\n\n');
  const rest = messages.pop() ?? '';
  const parts = messages
    .filter((message) => message.startsWith('event: next'))
    .map((message) =>
      message
        .split('\n')
        .find((line) => line.startsWith('data: '))!
        .slice('data: '.length),
    );
  return { parts, rest };
}

async function collect(
  accept: string,
  query: string,
  split: typeof multipartParts,
): Promise<{ contentType: string | null; arrivals: Arrival[] }> {
  await kit.resetCounts();
  const response = await send(accept, query);
  expect(response.status).toBe(200);
  const arrivals: Arrival[] = [];
  await readParts(response, split, (text) => arrivals.push({ payload: JSON.parse(text) as Payload, callsAnswered: kit.calls().length }));
  return { contentType: response.headers.get('content-type'), arrivals };
}

describe('@defer', () => {
  it('over multipart: the list comes after the one list call, the details follow, and the calls are those of the whole query', async () => {
    await issueCards(3);
    const withoutDefer = DEFERRED_CARDS.replace('... @defer(label: "details") {', '').replace(
      'cardholder { email } }',
      'cardholder { email }',
    );
    await kit.resetCounts();
    expect((await run(withoutDefer)).errors).toBeUndefined();
    const callsOfWholeQuery = kit
      .calls()
      .map((c) => c.path)
      .sort();

    const { contentType, arrivals } = await collect('multipart/mixed', DEFERRED_CARDS, multipartParts);
    expect(contentType).toContain('multipart/mixed');
    const [first, ...rest] = arrivals;
    // Painted after one round: the cards list, nothing else answered yet.
    expect(first!.payload.hasNext).toBe(true);
    expect(first!.callsAnswered).toBe(1);
    expect(kit.calls()[0]!.path).toBe(CARDS_LIST);
    const nodes = first!.payload.data!.cards.nodes;
    // The demo's cards and the three issued above.
    expect(nodes.length).toBeGreaterThanOrEqual(4);
    for (const node of nodes) {
      expect(node).toEqual({ id: expect.any(String), maskedNumber: expect.stringMatching(/^\d{6}\*+\d{4}$/), status: expect.any(String) });
    }
    // Then every card's details, under its path and label, and the end.
    const incremental = rest.flatMap((arrival) => arrival.payload.incremental ?? []);
    expect(incremental.map((part) => part.path).sort()).toEqual(nodes.map((_, index) => ['cards', 'nodes', index]).sort());
    for (const part of incremental) {
      expect(part.label).toBe('details');
      expect(Object.keys(part.data!).sort()).toEqual(['availableBalance', 'cardholder']);
      expect(part.data!.cardholder).toEqual({ email: expect.any(String) });
    }
    // A card that is not active has no balance to show; the demo's active card has one.
    expect(incremental.some((part) => (part.data!.availableBalance as { amount?: string } | null)?.amount !== undefined)).toBe(true);
    expect(arrivals.at(-1)!.payload.hasNext).toBe(false);
    expect(arrivals.some((arrival) => arrival.payload.errors)).toBe(false);
    // No upstream call more, or fewer, than the same query without @defer.
    expect(
      kit
        .calls()
        .map((c) => c.path)
        .sort(),
    ).toEqual(callsOfWholeQuery);
  });

  it('over SSE: the same payloads as `next` events, then `complete`', async () => {
    const { contentType, arrivals } = await collect('text/event-stream', DEFERRED_CARDS, ssePayloads);
    expect(contentType).toContain('text/event-stream');
    expect(arrivals[0]!.callsAnswered).toBe(1);
    expect(arrivals[0]!.payload.data!.cards.nodes.length).toBeGreaterThan(0);
    expect(arrivals.flatMap((a) => a.payload.incremental ?? [])).toHaveLength(arrivals[0]!.payload.data!.cards.nodes.length);
    expect(arrivals.at(-1)!.payload.hasNext).toBe(false);
  });

  it('tells a client that accepts only JSON what to accept, with a typed error rather than a bare 406, before any bank call', async () => {
    await kit.resetCounts();
    const response = await send('application/graphql-response+json', DEFERRED_CARDS);
    expect(kit.calls()).toEqual([]);
    expect(response.status).toBe(406);
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = (await response.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors).toEqual([
      {
        message:
          'An operation with @defer or @stream is answered in parts, which Accept: application/graphql-response+json does not allow: send Accept: multipart/mixed or text/event-stream.',
        extensions: {
          code: 'INCREMENTAL_DELIVERY_NOT_ACCEPTED',
          received: 'application/graphql-response+json',
          accept: ['multipart/mixed', 'text/event-stream'],
        },
      },
    ]);
  });
});

describe('a mutation with @defer on its payload', () => {
  const CARD = 'crd_demo_ava_v';
  const FREEZE = `mutation Freeze {
    cardUpdate(input: { cardId: "${CARD}", status: INACTIVE, updatedBy: "Jordan Miles" }) {
      __typename
      ... on CardUpdateSuccess { ... @defer { card { upstreamId status } } }
    }
  }`;

  it('is refused to a client that takes only JSON before the bank is asked: the card is not frozen', async () => {
    await kit.resetCounts();
    const response = await send('application/json', FREEZE);
    expect(response.status).toBe(406);
    expect(((await response.json()) as Payload).errors).toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'INCREMENTAL_DELIVERY_NOT_ACCEPTED' }) }),
    ]);
    expect(kit.calls()).toEqual([]);
    const card = await run('query ($id: ID!) { card(id: $id) { status } }', { id: CARD });
    expect(card.data).toEqual({ card: { status: 'ACTIVE' } });
  });

  it('is made once over multipart, its payload deferred', async () => {
    const { arrivals } = await collect('multipart/mixed', FREEZE, multipartParts);
    expect(arrivals[0]!.payload).toEqual({ data: { cardUpdate: { __typename: 'CardUpdateSuccess' } }, hasNext: true });
    expect(arrivals.flatMap((arrival) => arrival.payload.incremental ?? [])).toEqual([
      { data: { card: { upstreamId: CARD, status: 'INACTIVE' } }, path: ['cardUpdate'] },
    ]);
    expect(kit.calls(CARDS_LIST, 'PATCH')).toHaveLength(1);
    await run(`mutation { cardUpdate(input: { cardId: "${CARD}", status: ACTIVE, updatedBy: "Jordan Miles" }) { __typename } }`);
  });
});

describe('@stream', () => {
  it('sends the first items of a list at once and the rest as they come', async () => {
    const query = `query StreamedCards { cards(first: 10) { nodes @stream(initialCount: 1) { id status } } }`;
    const { arrivals } = await collect('multipart/mixed', query, multipartParts);
    const first = arrivals[0]!.payload;
    expect(first.data!.cards.nodes).toHaveLength(1);
    const items = arrivals.flatMap((a) => a.payload.incremental ?? []).flatMap((part) => part.items ?? []);
    expect(items.length).toBeGreaterThan(0);
    expect(items).toEqual(items.map(() => ({ id: expect.any(String), status: expect.any(String) })));
    expect(arrivals.at(-1)!.payload.hasNext).toBe(false);
  });

  it('is refused on a field that is not a list, naming the rule', async () => {
    const result = await run('query { balances { currency @stream } }');
    expect(result.errors?.[0]?.message).toMatch(/^Stream directive cannot be used on non-list field "currency"/);
  });
});

describe('an operation answered in parts', () => {
  it('counts once in the operation metrics, when its last part has gone', async () => {
    const series = 'gateway_operation_duration_seconds_count{operation="DeferredCards",type="query",outcome="ok"}';
    const count = async () => {
      const line = (await kit.gateway.metrics.registry.metrics()).split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? 0 : Number(line.slice(series.length + 1));
    };
    const before = await count();
    const { arrivals } = await collect('multipart/mixed', DEFERRED_CARDS, multipartParts);
    expect(arrivals.length).toBeGreaterThan(1);
    await expect.poll(count).toBe(before + 1);
  });
});
