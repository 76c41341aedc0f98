import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ONE_CALL_BALANCES, OPERATIONS } from '../../bench/operations.ts';
import { apiClient, CARD_PATH, CARDHOLDER_PATH } from '../../sandbox/test/helpers.ts';
import { OperationAbandonedError } from '../../src/upstream/errors.ts';
import type { Operation } from '../../src/upstream/operation.ts';
import { useKit } from '../helpers/kit.ts';
import { metric } from '../helpers/observe.ts';
import { subscribeLegacyWs, subscribeSse, subscribeWs } from '../helpers/subscribe.ts';
import { postGraphql } from '../helpers/http.ts';
import { until } from '../helpers/wait.ts';

/**
 * Work stops when the client leaves: an HTTP request whose connection closes (an SSE subscription's
 * too), a socket's subscription completed or stopped. The operation's one signal fires; its calls still
 * queued behind the upstream limit are never sent, its reads on the wire are cut and free their
 * slots, its loaders start no batch, and the gateway counts the operation as abandoned. A write
 * already on the wire is not cut: the bank decides it. Read from the bank's request log (a call
 * cut on the wire is logged with no status) and the upstream limit's own count of calls in flight.
 */
const kit = useKit({
  listen: true,
  reconcileWebhooks: true,
  webhooks: { agentCode: 'AG-AB', subagentCode: 'SUB-AB', companyCode: 'CO-AB' },
  // Two calls in flight at most: the cards screen's second round queues behind them.
  concurrency: { initial: 2, min: 1, max: 64, adaptive: false, perClient: 0, sharePercent: 100 },
  // Well above the slow bank's latency: only the client's leaving cuts a call here. At the kit's
  // 2 s, a call answered after LATENCY_MS raced its own timeout, and on a busy machine the list
  // was cut and sent again ([null, 200]).
  timeoutMs: 10_000,
});

const LATENCY_MS = 2_000;
const ABANDONED = 'gateway_operations_abandoned_total';
const CARDS_SCREEN = OPERATIONS.find((operation) => operation.operationName === 'CardsScreen')!;
const CARD_ID = 'crd_demo_ava_v';

const hostLimit = () => Object.values(kit.gateway.upstream.concurrencyLimits())[0]!;

/** What a wait awaits, with the host's limit as the wait ended: where a wait that timed out stood. */
const withLimit = (what: string) => () => `${what} (limit ${JSON.stringify(hostLimit())})`;

/** A call given its slot may still be connecting: by now it has reached the bank, which answers only after LATENCY_MS. */
const onTheWire = () => sleep(200);

/** The bank's calls of the cards screen by round: the list, then cardholders and details, then wallets. */
function cardsScreenCalls() {
  const calls = kit.calls();
  const on = (test: (path: string) => boolean) => calls.filter((call) => test(call.path));
  return {
    list: on((path) => path === CARD_PATH),
    cardholders: on((path) => path === CARDHOLDER_PATH),
    details: on((path) => path === `${CARD_PATH}/detail`),
    wallets: on((path) => path.includes('wallet')),
  };
}

/** Every test slows the bank down; the next starts from a quick one. */
async function slowBank<T>(ms: number, run: () => Promise<T>): Promise<T> {
  await kit.control('PUT', 'latency', { ms });
  try {
    return await run();
  } finally {
    await kit.control('PUT', 'latency', { ms: 0 });
  }
}

describe('an operation whose client leaves', () => {
  it('sends none of its later calls, frees the slots of its reads at once, and is counted as abandoned', async () => {
    const before = await metric(kit, ABANDONED);
    await slowBank(LATENCY_MS, async () => {
      const client = new AbortController();
      const response = postGraphql(
        `${kit.baseUrl}/graphql`,
        { query: CARDS_SCREEN.query, variables: CARDS_SCREEN.variables ?? {} },
        {},
        { signal: client.signal },
      ).catch((error: Error) => error);
      // The list has answered; the second round is under way: two reads on the wire, the rest queued.
      await until(withLimit('the second round under way'), () => hostLimit().inFlight === 2 && hostLimit().queued > 0);
      await onTheWire();
      const queued = hostLimit().queued;
      client.abort();
      expect(await response).toMatchObject({ name: 'AbortError' });
      // The queue dropped its calls, the reads on the wire were cut: their slots are free before the
      // bank answers (it never does: their statuses below), however long a busy machine takes to say so.
      await until(withLimit('the slots to be freed'), () => hostLimit().inFlight === 0 && hostLimit().queued === 0);
      expect(await metric(kit, ABANDONED)).toBe(before + 1);
      // Anything sent would be in the bank's log by now.
      await sleep(LATENCY_MS + 200);
      const calls = cardsScreenCalls();
      expect(calls.list.map((call) => call.status)).toEqual([200]);
      // Of the second round, the two reads on the wire alone reached the bank, which saw them cut (no
      // answer given); the calls queued behind them never went, nor did the third round.
      expect([...calls.cardholders, ...calls.details].map((call) => call.status)).toEqual([null, null]);
      expect(queued).toBeGreaterThan(0);
      expect(calls.wallets).toEqual([]);
    });
  });

  it('lets a write already on the wire finish at the bank, once, and sends nothing after it', async () => {
    const before = await metric(kit, ABANDONED);
    const idempotencyKey = `abandoned-write-${Date.now()}`;
    await slowBank(LATENCY_MS / 2, async () => {
      const client = new AbortController();
      const response = postGraphql(
        `${kit.baseUrl}/graphql`,
        {
          query:
            'mutation ($input: CardUpdateInput!, $key: String) { cardUpdate(input: $input, idempotencyKey: $key) { __typename ... on CardUpdateSuccess { card { status } } } }',
          variables: { input: { cardId: CARD_ID, status: 'INACTIVE', updatedBy: 'Jordan Miles' }, key: idempotencyKey },
        },
        {},
        { signal: client.signal },
      ).catch((error: Error) => error);
      await until(withLimit('the write on the wire'), () => hostLimit().inFlight === 1);
      client.abort();
      expect(await response).toMatchObject({ name: 'AbortError' });
      await sleep(100);
      // Not cut: its slot is held until the bank answers.
      expect(hostLimit().inFlight).toBe(1);
      await until(withLimit('the bank to answer the write'), () => hostLimit().inFlight === 0);
      expect(await metric(kit, ABANDONED)).toBe(before + 1);
      await sleep(LATENCY_MS / 2 + 200);
    });
    expect(kit.calls(CARD_PATH, 'PATCH')).toEqual([expect.objectContaining({ status: 200, requestId: idempotencyKey })]);
    // The card the mutation would have read back once written: nobody is there to read it.
    expect(kit.calls(`${CARD_PATH}/detail`)).toEqual([]);
    const bank = await apiClient(kit.sandbox);
    const detail = await bank.send('GET', `${CARD_PATH}/detail`, { query: { id: CARD_ID } });
    expect(detail.body).toMatchObject({ data: [{ card_id: CARD_ID, card_status: 'INACTIVE' }] });
  });

  it.each([
    ['graphql-ws', subscribeWs],
    ['the legacy graphql-ws subprotocol', subscribeLegacyWs],
    ['server-sent events', subscribeSse],
  ])(
    'over %s, ends a subscription its client ends in the middle of an event: its read is cut, nothing more is sent',
    async (_protocol, subscribe) => {
      const before = await metric(kit, ABANDONED);
      const changes = await subscribe(
        kit,
        `subscription { cardStatusChanged(cardId: "${CARD_ID}") { status card { upstreamId cardholder { email } } } }`,
      );
      await slowBank(LATENCY_MS, async () => {
        await kit.control('POST', `cards/${CARD_ID}/status`, { status: 'INACTIVE' });
        // The event arrived and its card is being read.
        await until(withLimit('the event read under way'), () => hostLimit().inFlight === 1);
        await onTheWire();
        await changes.close();
        // Cut, not answered: the bank logs it with no status (below).
        await until(withLimit('the event read to be cut'), () => hostLimit().inFlight === 0);
        await sleep(LATENCY_MS + 200);
      });
      // The event's card, read from the list by its id: the bank saw the read cut.
      expect(kit.calls(CARD_PATH).map((call) => [call.query, call.status])).toEqual([[{ id: CARD_ID }, null]]);
      expect(kit.calls(CARDHOLDER_PATH)).toEqual([]);
      expect(changes.received).toEqual([]);
      // A subscription ends when its client says so: that is no abandonment.
      expect(await metric(kit, ABANDONED)).toBe(before);
    },
  );

  it('gives a subscriber that stays the event the one that left was reading for both (shared execution)', async () => {
    const query = `subscription { cardStatusChanged(cardId: "${CARD_ID}") { status card { upstreamId status } } }`;
    const leaving = await subscribeSse(kit, query);
    const staying = await subscribeSse(kit, query);
    try {
      await slowBank(LATENCY_MS, async () => {
        await kit.control('POST', `cards/${CARD_ID}/status`, { status: 'INACTIVE' });
        // One read for both, made by whichever took the event first; either may be the one that leaves.
        await until(withLimit('the shared event read under way'), () => hostLimit().inFlight === 1);
        await onTheWire();
        await leaving.close();
        await until(withLimit('the staying subscriber to be served'), () => staying.received.length === 1, { timeoutMs: LATENCY_MS * 3 });
      });
      expect(staying.received[0]).toEqual({
        data: { cardStatusChanged: { status: 'INACTIVE', card: { upstreamId: CARD_ID, status: 'INACTIVE' } } },
      });
    } finally {
      await staying.close();
    }
  });

  it('does not hold up another operation behind its calls', async () => {
    await slowBank(LATENCY_MS, async () => {
      const client = new AbortController();
      const abandoned = postGraphql(
        `${kit.baseUrl}/graphql`,
        { query: CARDS_SCREEN.query, variables: CARDS_SCREEN.variables ?? {} },
        {},
        { signal: client.signal },
      ).catch((error: Error) => error);
      await until(withLimit('the second round under way'), () => hostLimit().inFlight === 2 && hostLimit().queued > 0);
      // Behind the two reads on the wire and the abandoned operation's turn.
      const queued = hostLimit().queued;
      const other = postGraphql(`${kit.baseUrl}/graphql`, { query: ONE_CALL_BALANCES, variables: {} });
      await until(withLimit('the other operation to queue'), () => hostLimit().queued === queued + 1);
      client.abort();
      await abandoned;
      expect((await other).body).toMatchObject({ data: { balances: expect.any(Array) } });
    });
    // Its one call went as the abandoned reads were cut, before the bank would have answered them
    // (the sandbox's clock, read in its log): not after a round trip of theirs.
    const log = kit.sandbox.requests();
    const arrived = (call: { time: string }) => Date.parse(call.time);
    const cut = log.filter((call) => call.status === null);
    const balances = log.filter((call) => call.path === '/svc/api/v1/account/balance');
    expect(cut).toHaveLength(2);
    expect(balances).toHaveLength(1);
    expect(arrived(balances[0]!)).toBeLessThan(Math.min(...cut.map(arrived)) + LATENCY_MS);
  });

  it("does not fail another operation's read that shared its call", async () => {
    const { upstream } = kit.gateway;
    const balances = (operation: Operation, correlationId: string) =>
      upstream.forRequest({ gatewayLogin: true, client: 'c', correlationId, operation: () => operation }).accounts.balances();
    await slowBank(LATENCY_MS / 4, async () => {
      const client = new AbortController();
      const leaving = upstream.startOperation('execution', client.signal, 'leaving');
      const staying = upstream.startOperation('execution', undefined, 'staying');
      const left = balances(leaving, 'leaving').catch((error: unknown) => error);
      await until(withLimit('the first read under way'), () => hostLimit().inFlight === 1);
      // The same read of the same bank user: it joins the call on its way (the record cache).
      const joined = upstream.cache!.stats.joined;
      const stayed = balances(staying, 'staying');
      expect(upstream.cache!.stats.joined).toBe(joined + 1);
      await onTheWire();
      client.abort();
      expect(await left).toBeInstanceOf(OperationAbandonedError);
      expect(await stayed).toEqual(expect.any(Array));
      leaving.end();
      staying.end();
    });
    // Its own call, made once the one it shared was cut.
    expect(kit.calls('/svc/api/v1/account/balance').map((call) => [call.correlationId, call.status])).toEqual([
      ['leaving', null],
      ['staying', 200],
    ]);
  });
});
