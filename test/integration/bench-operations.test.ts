import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '@banking-gateway/sandbox';
import { directToken } from '../../bench/bank-client.ts';
import { measureFloor, timedBesideFloor } from '../../bench/floor.ts';
import { medianOfRuns } from '../../bench/overhead.ts';
import { summarize } from '../../bench/stats.ts';
import { roundsIn, roundsOf } from '../../bench/rounds.ts';
import { multipartParts } from '../../bench/multipart.ts';
import { CARDS_ON_SCREEN, DEFERRED_CARDS_SCREEN, extraCardMutation, OPERATIONS } from '../../bench/operations.ts';
import { useKit, type Kit } from '../helpers/kit.ts';
import { postGraphql } from '../helpers/http.ts';

/**
 * Every benchmark operation costs exactly its minimum of upstream calls, none repeated. Counts come
 * from the sandbox's request log and are deterministic; timings are the benchmark's business.
 */
const kit = useKit();

async function run(target: Kit, query: string, variables?: Record<string, unknown>) {
  const { body } = await postGraphql('http://gateway.test/graphql', { query, variables }, {}, { fetch: target.gateway.yoga.fetch });
  expect(body.errors).toBeUndefined();
  return body as { data?: unknown; errors?: unknown[] };
}

async function prepareCards(target: Kit) {
  for (let i = 1; i < CARDS_ON_SCREEN; i++) {
    const { query, variables } = extraCardMutation(i);
    await run(target, query, variables);
  }
  await target.resetCounts();
}

describe('benchmark operations cost the fewest upstream calls', () => {
  it.each(OPERATIONS)('$name: $minimumCalls calls, none repeated', async (operation) => {
    if (operation.name.startsWith('cards')) await prepareCards(kit);
    await run(kit, operation.query, operation.variables);
    const calls = kit.sandbox.requests().map((r) => `${r.method} ${r.path} ${JSON.stringify(r.query)} ${JSON.stringify(r.subject)}`);
    expect(calls.length).toBe(operation.minimumCalls);
    expect(new Set(calls).size).toBe(calls.length);
  });
});

describe('the cards screen with its details deferred', () => {
  it(`costs the cards screen's ${DEFERRED_CARDS_SCREEN.minimumCalls} calls, none repeated, its first payload the list alone`, async () => {
    await prepareCards(kit);
    const response = await kit.gateway.yoga.fetch('http://gateway.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'multipart/mixed' },
      body: JSON.stringify({ query: DEFERRED_CARDS_SCREEN.query, variables: DEFERRED_CARDS_SCREEN.variables }),
    });
    const payloads = multipartParts(await response.text()).parts.map(
      (part) => JSON.parse(part) as { data?: { cards: { nodes: object[] } }; hasNext: boolean; errors?: unknown },
    );
    expect(payloads.every((p) => p.errors === undefined)).toBe(true);
    expect(payloads[0]!.hasNext).toBe(true);
    expect(payloads[0]!.data!.cards.nodes).toHaveLength(CARDS_ON_SCREEN);
    expect(Object.keys(payloads[0]!.data!.cards.nodes[0]!).sort()).toEqual(['maskedNumber', 'status', 'type']);
    expect(payloads.at(-1)!.hasNext).toBe(false);
    const calls = kit.sandbox.requests().map((r) => `${r.method} ${r.path} ${JSON.stringify(r.query)} ${JSON.stringify(r.subject)}`);
    expect(calls.length).toBe(DEFERRED_CARDS_SCREEN.minimumCalls);
    expect(new Set(calls).size).toBe(calls.length);
  });
});

describe('multipartParts (the benchmark reading @defer payloads as they come)', () => {
  it('takes each complete part and leaves an unfinished one for the next chunk', () => {
    const head = '\r\n---\r\nContent-Type: application/json; charset=utf-8\r\n\r\n{"data":{"a":1},"hasNext":true}\r\n---';
    expect(multipartParts(`${head}\r\nContent-Type: application/json\r\n\r\n{"incremental":[{"da`)).toEqual({
      parts: ['{"data":{"a":1},"hasNext":true}'],
      rest: '---\r\nContent-Type: application/json\r\n\r\n{"incremental":[{"da',
    });
    expect(multipartParts('---\r\nContent-Type: application/json\r\n\r\n{"hasNext":false}\r\n-----\r\n').parts).toEqual([
      '{"hasNext":false}',
    ]);
  });
});

describe('roundsOf (the benchmark reading rounds from the request log)', () => {
  /** A log entry that truly arrived at `arrivedMs` (the log keeps whole milliseconds) and took `tookMs`. */
  const entry = (arrivedMs: number, tookMs: number): RequestLogEntry => ({
    method: 'GET',
    path: '/svc/api/v1/account',
    query: {},
    status: 200,
    time: new Date(Math.floor(1_000_000 + arrivedMs)).toISOString(),
    requestId: null,
    correlationId: null,
    traceparent: null,
    subject: {},
    durationMs: tookMs,
  });

  it('counts a chain of three dependent calls as three rounds when each follows the last answer within a millisecond', () => {
    // True arrivals 0.05, 20.9 and 41.8 ms, logged as 0, 20 and 41; answers at 20.55, 41.4 and 62.1.
    // Read naively, the second call "arrived" at 20, before the first answer at 20.5.
    expect(roundsOf([entry(0.05, 20.5), entry(20.9, 20.5), entry(41.8, 20.3)])).toBe(3);
  });

  it('counts calls sent together as one round', () => {
    expect(roundsOf([entry(0.2, 20.5), entry(0.7, 20.1), entry(1.4, 20.3), entry(22.0, 20)])).toBe(2);
  });
});

describe("the bare floor (the benchmark replaying a screen's calls straight to the sandbox)", () => {
  const floorKit = useKit({ cache: false });
  const key = (r: RequestLogEntry) => `${r.method} ${r.path} ${JSON.stringify(r.query)} ${JSON.stringify(r.subject)}`;
  const dashboard = OPERATIONS.find((o) => o.name === 'dashboard')!;

  it("replays the dashboard's own calls in its rounds: the same reads, answered as the gateway's were", async () => {
    // Long enough that a busy machine's stall between two answers of a round (the second round's
    // calls go as each answer they wait for is read) does not split the next round: 25 ms did, once,
    // beside 47 other test files.
    const latencyMs = 100;
    await floorKit.control('PUT', 'latency', { ms: latencyMs });
    await run(floorKit, dashboard.query);
    const screen = floorKit.sandbox.requests();
    expect(roundsIn(screen).map((round) => round.length)).toEqual([3, 6]);
    const token = await directToken(floorKit.sandbox.url);
    await floorKit.resetCounts();
    const floor = await measureFloor(floorKit.sandbox.url, token, screen, 1, 0);
    expect(floor.rounds).toBe(2);
    // 2 rounds of the latency at the least; a replay's wall counts every call's answer.
    expect(floor.wall.p50).toBeGreaterThanOrEqual(2 * latencyMs);
    // The first round alone: its 3 calls' latency, before the second round's.
    expect(floor.firstRound.p50).toBeGreaterThanOrEqual(latencyMs);
    expect(floor.firstRound.p50).toBeLessThan(floor.wall.p50);
    const replayed = floorKit.sandbox.requests();
    // Three warm-up replays and the measured one, each the screen's calls and nothing else.
    expect(replayed.map(key).sort()).toEqual([...screen, ...screen, ...screen, ...screen].map(key).sort());
    expect(replayed.every((r) => r.status === 200)).toBe(true);
  });

  it('fails, naming the call, when the sandbox answers a replayed call otherwise than it answered the screen', async () => {
    await run(floorKit, dashboard.query);
    const screen = floorKit.sandbox.requests().map((r) => (r.path.endsWith('/account/balance') ? { ...r, status: 404 } : r));
    const token = await directToken(floorKit.sandbox.url);
    await expect(measureFloor(floorKit.sandbox.url, token, screen, 1, 0)).rejects.toThrow(
      /GET \/svc\/api\/v1\/account\/balance answered HTTP 200 where the gateway's call got 404/,
    );
  });
});

describe("timing beside the floor and in rounds (what keeps the host's drift off the targets)", () => {
  it("alternates a run and its floor's replay, run for run, after warming each", async () => {
    const order: string[] = [];
    let n = 0;
    const timed = async () => {
      order.push('run');
      return ++n;
    };
    const floor = {
      rounds: 2,
      once: async () => {
        order.push('floor');
        return { wall: 40 + n, firstRound: 20 };
      },
    };
    const { samples, floor: measured } = await timedBesideFloor(timed, floor, 4, 0);
    // Three warm-ups of each (warmUp's least), then run, floor, run, floor...
    expect(order).toEqual(['run', 'run', 'run', 'floor', 'floor', 'floor', 'run', 'floor', 'run', 'floor', 'run', 'floor', 'run', 'floor']);
    expect(samples).toEqual([4, 5, 6, 7]);
    // Each replay came right after the run before it (its n).
    expect(measured.wall).toEqual(summarize([44, 45, 46, 47]));
    expect(measured.rounds).toBe(2);
  });

  it('takes the median of each figure over the rounds and sums their errors', () => {
    const run = (p50: number, rps: number, errors: number, loopBusy: number) => ({
      connections: 50,
      seconds: 5,
      rps,
      latency: { count: 100, p50, p99: p50 * 2, max: p50 * 3, mean: p50 },
      errors,
      gateway: { loopBusy, limitMean: 50, inFlightMean: 40, queuedMean: 0, limitAtEnd: 50 },
    });
    const merged = medianOfRuns([run(30, 1500, 1, 0.9), run(22, 1700, 0, 0.7), run(26, 1600, 2, 0.8)]);
    expect(merged.latency.p50).toBe(26);
    expect(merged.latency.p99).toBe(52);
    expect(merged.latency.max).toBe(90);
    expect(merged.latency.count).toBe(300);
    expect(merged.rps).toBe(1600);
    expect(merged.errors).toBe(3);
    expect(merged.gateway.loopBusy).toBe(0.8);
  });
});
