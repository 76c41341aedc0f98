import { encodeGlobalID } from '@pothos/plugin-relay';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS } from '@banking-gateway/sandbox';
import { bankEvent, deliverEvent } from '../helpers/deliver.ts';
import { AccessTokenCreateDocument, CardUpdateDocument, DashboardDocument, WebhookCatalogueDocument } from '../generated/graphql.ts';
import { useKit } from '../helpers/kit.ts';

/**
 * The record cache as shipped (UPSTREAM_CACHE on): a screen repeated makes no upstream call, and
 * what an event or a write changed is read from the bank again at once.
 */
// A bank that changes balances without a word until its event: control-API writes do not drop the cache here.
const kit = useKit({ cache: { ratesTtlMs: 150 }, controlDropsCache: false, listen: true });

const AVA_CARD = 'crd_demo_ava_v';
const BALANCES = parse('{ balances { currency available { amount } } }');
const usd = (data: unknown) =>
  (data as { balances: { currency: string; available: { amount: string } }[] }).balances.find((b) => b.currency === 'USD')?.available
    .amount;

describe('record cache', () => {
  it('answers the dashboard repeated from the cache: the second run makes no upstream call and answers the same', async () => {
    const first = await kit.execute(DashboardDocument);
    expect(first.errors).toBeUndefined();
    expect(kit.calls().length).toBe(9);
    await kit.resetCounts();
    const second = await kit.execute(DashboardDocument);
    expect(second).toEqual(first);
    expect(kit.calls()).toHaveLength(0);
  });

  it('keeps a deposit out of sight until its event arrives, then reads the balance again', async () => {
    const before = usd((await kit.execute(BALANCES)).data);
    const deposit = (await kit.control('POST', 'deposits', { currency: 'USD', amount: 1250, payer_name: 'Globex' })) as {
      depositId: string;
    };
    expect(deposit.depositId).toBeTruthy();
    await kit.resetCounts();
    // The bank moved the balance and has not said so yet (the kit's sandbox sends no webhooks here).
    expect(usd((await kit.execute(BALANCES)).data)).toBe(before);
    expect(kit.calls()).toHaveLength(0);

    const delivered = await deliverEvent(kit.baseUrl, bankEvent(`dep_${Date.now()}`, 'deposit.settled', { amount: 1250, currency: 'USD' }));
    expect(delivered.status).toBe(202);
    const after = usd((await kit.execute(BALANCES)).data);
    expect(Number(after)).toBe(Number(before) + 1250);
    expect(kit.calls('/svc/api/v1/account/balance')).toHaveLength(1);
  });

  it("shows a card's new status at once after cardUpdate, and keeps reads of other kinds", async () => {
    const read = parse(`{ card(id: "${AVA_CARD}") { status } balances { currency } }`);
    expect((await kit.execute(read)).data).toMatchObject({ card: { status: 'ACTIVE' } });
    await kit.resetCounts();
    const updated = await kit.execute(CardUpdateDocument, {
      input: { cardId: encodeGlobalID('Card', AVA_CARD), status: 'INACTIVE', updatedBy: 'Jane Doe' },
    });
    expect(updated.data?.cardUpdate.__typename).toBe('CardUpdateSuccess');
    expect((await kit.execute(read)).data).toMatchObject({ card: { status: 'INACTIVE' } });
    // The card was read from the bank again after the update (by the mutation's payload or the query);
    // the balances, which a card update does not touch, were not.
    const sequence = kit.calls().map((call) => `${call.method} ${call.path}`);
    expect(sequence).toEqual(['PATCH /svc/api/v1/card', 'GET /svc/api/v1/card', 'GET /svc/api/v1/card/detail']);
  });

  it('resolves nodes from kept reads: node(id:) answers the same from the cache as from the bank', async () => {
    const ids = ['Account:acc_demo_usd', 'Card:crd_demo_ava_v', 'Cardholder:chd_demo_ava', 'Beneficiary:ben_demo_gb'].map((key) =>
      Buffer.from(key).toString('base64'),
    );
    const nodes = parse(`{ ${ids.map((id, i) => `n${i}: node(id: "${id}") { __typename id }`).join(' ')} }`);
    const first = await kit.execute(nodes);
    expect(first.errors).toBeUndefined();
    expect(Object.values(first.data as Record<string, { __typename: string } | null>).map((n) => n?.__typename)).toEqual([
      'Account',
      'Card',
      'Cardholder',
      'Beneficiary',
    ]);
    await kit.resetCounts();
    // Again, every record now kept: the same answer, and no call.
    expect(await kit.execute(nodes)).toEqual(first);
    expect(kit.calls()).toHaveLength(0);
  });

  it('keeps what it holds across a read it does not keep (the webhook catalogue the gateway reads every minute)', async () => {
    await kit.execute(BALANCES);
    const catalogue = await kit.execute(WebhookCatalogueDocument);
    expect(catalogue.data?.webhookCatalogue?.length).toBeGreaterThan(0);
    expect(kit.calls('/getallwebhooks')).toHaveLength(1);
    await kit.execute(BALANCES);
    expect(kit.calls('/svc/api/v1/account/balance')).toHaveLength(1);
  });

  it('drops every kind of record on an event it does not know', async () => {
    await kit.execute(BALANCES);
    await kit.resetCounts();
    expect((await deliverEvent(kit.baseUrl, bankEvent(`unknown_${Date.now()}`, 'brand.new.event'))).status).toBe(202);
    await kit.execute(BALANCES);
    expect(kit.calls('/svc/api/v1/account/balance')).toHaveLength(1);
  });

  it('keeps FX rates only for their short TTL', async () => {
    const rate = parse('{ fxRate(sourceCurrency: "USD", destinationCurrency: "EUR", sourceAmount: "100") { rate } }');
    await kit.execute(rate);
    await kit.execute(rate);
    expect(kit.calls('/svc/api/v1/transfer/rate')).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await kit.execute(rate);
    expect(kit.calls('/svc/api/v1/transfer/rate')).toHaveLength(2);
  });

  it('shares one upstream call between identical reads that arrive together', async () => {
    const results = await Promise.all([kit.execute(BALANCES), kit.execute(BALANCES), kit.execute(BALANCES)]);
    expect(results[1]).toEqual(results[0]);
    expect(kit.calls('/svc/api/v1/account/balance')).toHaveLength(1);
  });

  it('counts hits, misses and invalidations on /metrics', async () => {
    const metric = async (series: string) => {
      const text = await (await fetch(`${kit.baseUrl}/metrics`)).text();
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return Number(line?.split(' ')[1] ?? 0);
    };
    const before = {
      hit: await metric('gateway_record_cache_reads_total{result="hit"}'),
      miss: await metric('gateway_record_cache_reads_total{result="miss"}'),
    };
    const invalidations = await metric('gateway_record_cache_invalidations_total');
    await kit.execute(BALANCES);
    await kit.execute(BALANCES);
    await deliverEvent(kit.baseUrl, bankEvent(`acc_${Date.now()}`, 'account.active'));
    expect(await metric('gateway_record_cache_reads_total{result="hit"}')).toBe(before.hit + 1);
    expect(await metric('gateway_record_cache_reads_total{result="miss"}')).toBe(before.miss + 1);
    // One invalidation for the event: its intake's, before the 202.
    expect(await metric('gateway_record_cache_invalidations_total')).toBe(invalidations + 1);
    expect(await metric('gateway_record_cache_trusted')).toBe(1);
  });

  it('drops what an event changed once, before its 202, however many subscribers it reaches', async () => {
    const cache = kit.gateway.upstream.cache!;
    const subscription = await kit.gateway.events.subscribe();
    const before = cache.stats.invalidations;
    expect((await deliverEvent(kit.baseUrl, bankEvent(`once_${Date.now()}`, 'payout.completed'))).status).toBe(202);
    expect(cache.stats.invalidations).toBe(before + 1);
    // The bus hands the event on after the 202: that adds no invalidation.
    expect((await subscription.next()).done).toBe(false);
    expect(cache.stats.invalidations).toBe(before + 1);
    await subscription.return?.();
  });

  it('sends a fresh read (the readiness probe) to the bank even when the cache holds its answer', async () => {
    await kit.execute(BALANCES);
    await kit.resetCounts();
    const probe = await kit.gateway.upstream.forRequest({ gatewayLogin: true, bypassCache: true }).accounts.balances();
    expect(probe.length).toBeGreaterThan(0);
    expect(kit.calls('/svc/api/v1/account/balance')).toHaveLength(1);
  });
});

describe('record cache: per bank user', () => {
  const passthrough = useKit({ cache: true, auth: { mode: 'passthrough', apiKeys: [], jwt: undefined, allowedOrigins: [] } });
  const LOGIN = { clientKey: DEMO_CREDENTIALS.clientKey, clientSecret: DEMO_CREDENTIALS.clientSecret, email: DEMO_CREDENTIALS.email };

  async function login(): Promise<string> {
    const result = await passthrough.execute(AccessTokenCreateDocument, { input: LOGIN });
    const outcome = result.data?.accessTokenCreate;
    if (outcome?.__typename !== 'AccessTokenCreateSuccess') throw new Error(`login failed: ${JSON.stringify(result)}`);
    return outcome.token.accessToken;
  }

  it("never answers one token's read from another's", async () => {
    const [alice, bob] = [await login(), await login()];
    expect(alice).not.toBe(bob);
    await passthrough.resetCounts();
    await passthrough.execute(BALANCES, {}, { authorization: `Bearer ${alice}` });
    await passthrough.execute(BALANCES, {}, { authorization: `Bearer ${alice}` });
    expect(passthrough.calls('/svc/api/v1/account/balance')).toHaveLength(1);
    const forBob = await passthrough.execute(BALANCES, {}, { authorization: `Bearer ${bob}` });
    expect(forBob.errors).toBeUndefined();
    const calls = passthrough.calls('/svc/api/v1/account/balance');
    expect(calls).toHaveLength(2);
    // Without a token nothing is answered, from the cache or otherwise.
    const anonymous = await passthrough.execute(BALANCES);
    expect(anonymous.data).toBeFalsy();
    expect(passthrough.calls('/svc/api/v1/account/balance')).toHaveLength(2);
  });
});
