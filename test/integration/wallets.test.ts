import { encodeGlobalID } from '@pothos/plugin-relay';
import { describe, expect, it } from 'vitest';
import { CardholderCreateDocument, CardholderWalletDocument, WalletCreateDocument, WalletHistoryDocument } from '../generated/graphql.ts';
import { rawUpstream, useKit } from '../helpers/kit.ts';

// These tests count the bank calls of reads that repeat from test to test: the record cache (test/integration/cache.test.ts) stays off.
const kit = useKit({ cache: false });

const WALLET_PATH = '/issuing/api/v1/wallet';
const HISTORY_PATH = '/issuing/api/v1/wallet/history';
const AVA = 'chd_demo_ava';
const OPS = 'chd_demo_ops';
const NEW = 'chd_demo_new';
const AVA_WALLET = 'wal_demo_ava';
const AVA_CARD = 'crd_demo_ava_v';
/** The sandbox sends 0 for every limit; the graph shows the number the bank sent (0 is not "no limit"). */
const zeroLimits = (currency: string) => {
  const zero = { amount: '0', currency };
  return { daily: zero, weekly: zero, monthly: zero, yearly: zero, total: zero };
};

const gid = (id: string) => encodeGlobalID('Cardholder', id);
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
/** The upstream's `yyyy-MM-ddTHH:mm:ss+0000` as the graph's DateTime. */
const utc = (text: string) => new Date(text.replace('+0000', 'Z')).toISOString();

/** The issuing header set for a raw call: the cardholder (and wallet) the call is about. */
async function rawIssuing(path: string, headers: Record<string, string>): Promise<any[]> {
  const raw = await rawUpstream(kit, 'GET', path, { headers });
  expect(raw.status).toBe(200);
  return raw.body.data;
}

async function walletOf(cardholderId: string, currency?: string) {
  const result = await kit.execute(CardholderWalletDocument, { id: cardholderId, currency });
  expect(result.errors).toBeUndefined();
  return result.data!.cardholder!.wallet;
}

async function walletsOf(cardholderId: string) {
  const result = await kit.execute(CardholderWalletDocument, { id: cardholderId });
  expect(result.errors).toBeUndefined();
  return result.data!.cardholder!.wallets!.map((wallet) => `${wallet.upstreamId}:${wallet.amount.currency}`);
}

/** A READY cardholder of our own, whose KYC is still PENDING. */
async function readyCardholder(): Promise<{ id: string; upstreamId: string }> {
  const result = await kit.execute(CardholderCreateDocument, {
    input: { type: 'DELEGATE', email: 'fleet@acme.example', mobileNumber: '+14155550111', createdBy: 'Jordan Miles' },
  });
  const outcome = result.data!.cardholderCreate;
  if (outcome.__typename !== 'CardholderCreateSuccess') throw new Error(`create failed: ${JSON.stringify(result)}`);
  await kit.control('POST', 'clock/advance', { minutes: 10 });
  return outcome.cardholder;
}

describe('wallets', () => {
  it("reads a cardholder's wallet as the bank reports it, with the wallet header set", async () => {
    const [raw] = await rawIssuing(WALLET_PATH, { 'x-cardholder-id': AVA });
    await kit.resetCounts();

    const wallet = await walletOf(AVA);
    expect(wallet).toEqual({
      upstreamId: AVA_WALLET,
      status: 'ACTIVE',
      amount: { amount: '500', currency: 'USD' },
      holding: { amount: '500', currency: 'USD' },
      limits: zeroLimits('USD'),
      createdAt: utc(raw.createdAt),
      cardholder: { id: gid(AVA), upstreamId: AVA },
    });
    expect(raw).toMatchObject({ id: AVA_WALLET, amount: 500, currency: 'USD', dailyLimitAmount: 0, status: 'ACTIVE' });
    // The sandbox refuses wallet calls without x-cardholder-id: this one went through.
    expect(kit.calls(WALLET_PATH)).toEqual([expect.objectContaining({ method: 'GET', status: 200 })]);
    const bare = await rawUpstream(kit, 'GET', WALLET_PATH);
    expect(bare.body).toMatchObject({ code: 400, message: 'x-cardholder-id is a required header and is missing' });
  });

  it('answers null and no wallets for a cardholder without one: the documented data: [], no error', async () => {
    expect(await rawIssuing(WALLET_PATH, { 'x-cardholder-id': OPS })).toEqual([]);
    await kit.resetCounts();
    expect(await walletOf(OPS)).toBeNull();
    expect(await walletsOf(OPS)).toEqual([]);
    expect(kit.calls(WALLET_PATH)).toEqual([expect.objectContaining({ status: 200 }), expect.objectContaining({ status: 200 })]);
  });

  it('reads a bank that answers "not found" for a cardholder without wallets the same way', async () => {
    await kit.control('POST', 'faults', {
      kind: 'status',
      status: 400,
      message: `Wallet for cardholder ${OPS} not found`,
      method: 'GET',
      path: WALLET_PATH,
      count: 1,
    });
    const result = await kit.execute(CardholderWalletDocument, { id: OPS });
    expect(result.errors).toBeUndefined();
    expect(result.data!.cardholder).toMatchObject({ wallet: null, wallets: [] });
  });

  it('shows limits of 0 as 0, as the bank sent them', async () => {
    const [raw] = await rawIssuing(WALLET_PATH, { 'x-cardholder-id': AVA });
    await kit.control('POST', 'faults', {
      kind: 'contract',
      method: 'GET',
      path: WALLET_PATH,
      body: {
        code: 200,
        status: 'success',
        message: 'ok',
        data: [{ ...raw, dailyLimitAmount: 0, weeklyLimitAmount: 250.5, totalLimitAmount: null }],
      },
    });
    const wallet = await walletOf(AVA);
    expect(wallet!.limits).toEqual({
      daily: { amount: '0', currency: 'USD' },
      weekly: { amount: '250.5', currency: 'USD' },
      monthly: { amount: '0', currency: 'USD' },
      yearly: { amount: '0', currency: 'USD' },
      total: null,
    });
  });

  it('creates wallets of a READY cardholder with completed KYC, one per currency, and picks one by a fixed rule', async () => {
    const result = await kit.execute(WalletCreateDocument, { input: { cardholderId: gid(OPS), currency: 'EUR' } });
    expect(result.errors).toBeUndefined();
    const outcome = result.data!.walletCreate;
    if (outcome.__typename !== 'WalletCreateSuccess') throw new Error(`create failed: ${JSON.stringify(result)}`);
    expect(outcome.wallet).toMatchObject({
      upstreamId: expect.stringMatching(/^wal_[0-9a-f]+$/),
      status: 'ACTIVE',
      amount: { amount: '0', currency: 'EUR' },
      holding: { amount: '0', currency: 'EUR' },
      limits: zeroLimits('EUR'),
      cardholder: { upstreamId: OPS },
    });
    expect(Date.parse(outcome.wallet.createdAt!)).toBeGreaterThan(Date.now() - 60_000);
    expect(kit.calls(WALLET_PATH, 'POST')).toEqual([expect.objectContaining({ status: 200 })]);

    expect((await walletOf(OPS))!.upstreamId).toBe(outcome.wallet.upstreamId);
    const again = await kit.execute(WalletCreateDocument, { input: { cardholderId: gid(OPS), currency: 'EUR' } });
    expect(again.data!.walletCreate).toMatchObject({
      __typename: 'UpstreamRejection',
      upstreamStatus: 400,
      upstreamMessage: `Cardholder ${OPS} already has a wallet in EUR`,
    });

    await kit.control('POST', 'clock/advance', { seconds: 5 });
    const usd = await kit.execute(WalletCreateDocument, { input: { cardholderId: gid(OPS), currency: 'USD' } });
    if (usd.data!.walletCreate.__typename !== 'WalletCreateSuccess') throw new Error(`create failed: ${JSON.stringify(usd)}`);
    const usdWallet = usd.data!.walletCreate.wallet.upstreamId;
    expect(await walletsOf(OPS)).toEqual([`${outcome.wallet.upstreamId}:EUR`, `${usdWallet}:USD`]);
    // Without a currency: the earliest created; with one: the wallet in it; none in GBP: null.
    expect((await walletOf(OPS))!.upstreamId).toBe(outcome.wallet.upstreamId);
    expect((await walletOf(OPS, 'USD'))!.upstreamId).toBe(usdWallet);
    expect(await walletOf(OPS, 'GBP')).toBeNull();
  });

  it('is refused until the cardholder is READY and KYC is completed', async () => {
    const pending = await kit.execute(WalletCreateDocument, { input: { cardholderId: gid(NEW), currency: 'USD' } });
    expect(pending.data!.walletCreate).toMatchObject({
      __typename: 'UpstreamRejection',
      upstreamMessage: `Cardholder ${NEW} is not READY`,
    });

    const cardholder = await readyCardholder();
    const input = { cardholderId: cardholder.id, currency: 'USD' };
    const noKyc = await kit.execute(WalletCreateDocument, { input });
    expect(noKyc.data!.walletCreate).toMatchObject({
      __typename: 'UpstreamRejection',
      upstreamMessage: 'eKYC must be completed before wallet creation',
    });

    await kit.control('POST', `kyc/${cardholder.upstreamId}/complete`);
    const created = await kit.execute(WalletCreateDocument, { input });
    expect(created.data!.walletCreate).toMatchObject({
      __typename: 'WalletCreateSuccess',
      wallet: { amount: { amount: '0', currency: 'USD' }, cardholder: { upstreamId: cardholder.upstreamId } },
    });
  });

  it('is ProgramNotSupported on the Banking program, and reading a wallet is a PROGRAM_NOT_SUPPORTED error', async () => {
    await kit.control('PUT', 'program', { program: 'BANKING' });
    const result = await kit.execute(WalletCreateDocument, { input: { cardholderId: gid(OPS), currency: 'USD' } });
    expect(result.data!.walletCreate).toEqual({
      __typename: 'ProgramNotSupported',
      message: 'Create Wallet is not supported for the BANKING program',
      program: 'BANKING',
      requestId: expect.any(String),
    });

    const read = await kit.execute(CardholderWalletDocument, { id: AVA });
    expect(read.data!.cardholder).toEqual({ id: gid(AVA), upstreamId: AVA, wallet: null, wallets: null });
    const notSupported = expect.objectContaining({ code: 'PROGRAM_NOT_SUPPORTED', program: 'BANKING' });
    expect(read.errors).toEqual([
      expect.objectContaining({ path: ['cardholder', 'wallet'], extensions: notSupported }),
      expect.objectContaining({ path: ['cardholder', 'wallets'], extensions: notSupported }),
    ]);
  });
});

describe('wallet history', () => {
  const headers = { 'x-cardholder-id': AVA, 'x-wallet-id': AVA_WALLET };

  it('pages through the history newest first with page and size, matching the upstream, mapped field by field', async () => {
    const raw = await rawIssuing(`${HISTORY_PATH}?page=1&size=100`, headers);
    expect(raw.map((e) => e.txn_type)).toEqual(['REFUND', 'PURCHASE', 'PURCHASE', 'LOAD']);
    await kit.resetCounts();

    const page1 = await kit.execute(WalletHistoryDocument, { id: AVA, first: 2 });
    expect(page1.errors).toBeUndefined();
    const conn1 = page1.data!.cardholder!.wallet!.history!;
    expect(conn1.edges.map((e) => e.node.upstreamId)).toEqual(raw.slice(0, 2).map((e) => e.slNo));
    expect(conn1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const page2 = await kit.execute(WalletHistoryDocument, { id: AVA, first: 2, after: conn1.pageInfo.endCursor });
    const conn2 = page2.data!.cardholder!.wallet!.history!;
    expect(conn2.edges.map((e) => e.node.upstreamId)).toEqual(raw.slice(2, 4).map((e) => e.slNo));
    expect(conn2.pageInfo.hasNextPage).toBe(false);

    const refund = conn1.edges[0]!.node;
    const rawRefund = raw[0];
    expect(refund).toEqual({
      upstreamId: rawRefund.slNo,
      genericSerialNumber: rawRefund.genericSlNo,
      referenceId: rawRefund.txn_ref_id,
      amount: { amount: '10', currency: 'USD' },
      available: { amount: '500', currency: 'USD' },
      acquirerAmount: { amount: '10', currency: 'USD' },
      settleAmount: { amount: '10', currency: 'USD' },
      billingAmount: { amount: '10', currency: 'USD' },
      type: 'REFUND',
      direction: 'CREDIT',
      status: rawRefund.txn_status,
      description: rawRefund.txn_description,
      email: rawRefund.txn_email,
      cardAcceptorName: 'Blue Bottle Coffee',
      cardUpstreamId: AVA_CARD,
      walletUpstreamId: AVA_WALLET,
      programCode: rawRefund.programCode,
      initiatedBy: rawRefund.initiated_by,
      initiatedAt: utc(rawRefund.initiatedAt),
      updatedAt: null,
    });
    const load = conn2.edges[1]!.node;
    expect(load).toMatchObject({
      type: 'LOAD',
      direction: 'CREDIT',
      amount: { amount: '600', currency: 'USD' },
      available: { amount: '600' },
    });
    const coffee = conn2.edges[0]!.node;
    // The settled purchase carries the time it was posted.
    expect(coffee).toMatchObject({
      type: 'PURCHASE',
      direction: 'DEBIT',
      amount: { amount: '45.5' },
      cardAcceptorName: 'Blue Bottle Coffee',
    });
    expect(coffee.updatedAt).toBe(utc(raw[2].updatedAt));

    // One wallet read and one history call a page, each with the cardholder and wallet headers.
    const history = kit.sandbox.requests().filter((r) => r.path === HISTORY_PATH);
    expect(history.map((r) => r.status)).toEqual([200, 200]);
    for (const call of history) expect(Object.keys(call.query).sort()).toEqual(['page', 'size']);
    expect(kit.calls(WALLET_PATH)).toHaveLength(2);
    const bare = await rawUpstream(kit, 'GET', HISTORY_PATH, { headers: { 'x-cardholder-id': AVA } });
    expect(bare.body).toMatchObject({ code: 400, message: 'x-wallet-id is a required header and is missing' });
  });

  it('filters by a date range upstream', async () => {
    // Today's purchase next to yesterday's activity.
    await kit.control('POST', `cards/${AVA_CARD}/simulate`, { kind: 'authorization', amount: 20 });
    const rawToday = await rawIssuing(`${HISTORY_PATH}?from_date=${day(0)}&to_date=${day(0)}`, headers);
    const rawYesterday = await rawIssuing(`${HISTORY_PATH}?from_date=${day(-1)}&to_date=${day(-1)}`, headers);
    expect(rawToday.map((e) => e.txn_amount)).toEqual([20]);
    expect(rawYesterday).toHaveLength(4);
    await kit.resetCounts();

    const today = await kit.execute(WalletHistoryDocument, { id: AVA, first: 10, window: { from: day(0), to: day(0) } });
    expect(today.data!.cardholder!.wallet!.history!.edges.map((e) => e.node)).toEqual([
      expect.objectContaining({
        upstreamId: rawToday[0].slNo,
        type: 'PURCHASE',
        amount: { amount: '20', currency: 'USD' },
        available: { amount: '480', currency: 'USD' },
      }),
    ]);
    const yesterday = await kit.execute(WalletHistoryDocument, { id: AVA, first: 10, window: { from: day(-1), to: day(-1) } });
    expect(yesterday.data!.cardholder!.wallet!.history!.edges.map((e) => e.node.upstreamId)).toEqual(rawYesterday.map((e) => e.slNo));
    const both = await kit.execute(WalletHistoryDocument, { id: AVA, first: 10, window: { from: day(-40), to: day(0) } });
    expect(both.data!.cardholder!.wallet!.history!.edges).toHaveLength(5);

    const seen = kit.sandbox
      .requests()
      .filter((r) => r.path === HISTORY_PATH)
      .map((r) => r.query);
    expect(seen.map((q) => [q.from_date, q.to_date])).toEqual([
      [day(0), day(0)],
      [day(-1), day(-1)],
      [day(-40), day(0)],
    ]);
  });

  it("takes either end alone, and instants as well as days (Document 2, 4.3), sent at UTC in the bank's form", async () => {
    await kit.control('POST', `cards/${AVA_CARD}/simulate`, { kind: 'authorization', amount: 20 });
    const rawAll = await rawIssuing(`${HISTORY_PATH}?page=1&size=100`, headers);
    await kit.resetCounts();
    const ids = (result: Awaited<ReturnType<typeof history>>) =>
      result.data!.cardholder!.wallet!.history!.edges.map((e) => e.node.upstreamId);
    const history = (window: { from?: string; to?: string }) => kit.execute(WalletHistoryDocument, { id: AVA, first: 100, window });

    const sinceToday = await history({ from: day(0) });
    expect(ids(sinceToday)).toHaveLength(1);
    const untilYesterday = await history({ to: day(-1) });
    expect(ids(untilYesterday)).toEqual(rawAll.slice(1).map((e) => e.slNo));
    // An instant with an offset goes out as the bank's yyyy-MM-ddTHH:mm:ss at UTC.
    const instant = await history({ from: `${day(0)}T02:00:00+02:00` });
    expect(instant.errors).toBeUndefined();
    const seen = kit.sandbox
      .requests()
      .filter((r) => r.path === HISTORY_PATH)
      .map((r) => [r.query.from_date, r.query.to_date]);
    expect(seen).toEqual([
      [day(0), undefined],
      [undefined, day(-1)],
      [`${day(0)}T00:00:00`, undefined],
    ]);
  });

  it('refuses a bound that is neither a day nor an instant with a zone, before any call', async () => {
    const result = await kit.execute(WalletHistoryDocument, { id: AVA, first: 10, window: { from: `${day(0)} 10:00` } });
    expect(result.errors![0]!.message).toMatch(/DateOrDateTime must be a day "YYYY-MM-DD" or a date-time with a zone/);
    expect(kit.calls(HISTORY_PATH)).toHaveLength(0);
  });

  it('refuses a range that ends before it starts, without calling the history', async () => {
    const result = await kit.execute(WalletHistoryDocument, { id: AVA, first: 10, window: { from: day(0), to: day(-1) } });
    expect(result.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      issues: [{ path: ['window', 'to'], message: 'must not be before from' }],
    });
    expect(kit.calls(HISTORY_PATH)).toHaveLength(0);
  });
});
