import { describe, expect, it } from 'vitest';
import { BANK_ID_RULE } from '../../src/upstream/ids.ts';
import {
  AccountCloseDocument,
  AccountCreateDocument,
  AccountDocument,
  AccountNodeDocument,
  AccountsDocument,
  AccountTransactionsDocument,
  BalanceHistoryDocument,
  BalancesDocument,
} from '../generated/graphql.ts';
import { rawUpstream, useKit } from '../helpers/kit.ts';

// These tests count the bank calls of reads that repeat from test to test: the record cache (test/integration/cache.test.ts) stays off.
const kit = useKit({ cache: false });

const ACCOUNT_PATH = '/svc/api/v1/account';
const TX_PATH = '/svc/api/v1/account/transactions';
const HISTORY_PATH = '/svc/api/v1/account/balance/history';

function isoDay(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

describe('accounts', () => {
  it('lists every account with every field of section 2.3, mapped from the upstream payload', async () => {
    const raw = await rawUpstream(kit, 'GET', ACCOUNT_PATH);
    await kit.resetCounts();
    const result = await kit.execute(AccountsDocument, { first: 50 });
    expect(result.errors).toBeUndefined();
    const nodes = result.data!.accounts!.edges.map((e) => e.node);
    expect(nodes.length).toBe(raw.body.data.length);
    expect(nodes.length).toBeGreaterThanOrEqual(4);
    const first = raw.body.data[0];
    const mapped = nodes.find((n) => n.upstreamId === first.id)!;
    expect(mapped).toMatchObject({
      status: first.status,
      accountNumber: first.account_number,
      accountHolderName: first.account_holder_name,
      country: first.country_code,
      swiftCode: first.swift_code,
      iban: first.iban,
      institution: { name: first.institution.name, zipCode: first.institution.zip_code },
    });
    expect(mapped.supportedFeatures.map((f) => f.transferMethod)).toEqual(first.supported_features.map((f: any) => f.transfer_method));
    expect(mapped.supportedFeatures[0]!.routingCodes).toEqual(first.supported_features[0].routing_codes);
    // One list call for the whole connection.
    expect(kit.calls(ACCOUNT_PATH, 'GET')).toHaveLength(1);
  });

  it('filters by status and currency upstream', async () => {
    const closed = await kit.execute(AccountsDocument, { status: 'CLOSED' });
    const statuses = closed.data!.accounts!.edges.map((e) => e.node.status);
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set(['CLOSED']));
    const usd = await kit.execute(AccountsDocument, { currency: 'USD' });
    for (const edge of usd.data!.accounts!.edges) {
      expect(edge.node.supportedFeatures.some((f) => f.currency === 'USD')).toBe(true);
    }
    const listCalls = kit.calls(ACCOUNT_PATH, 'GET');
    expect(listCalls.at(-2)!.status).toBe(200);
  });

  it('reads one account by global ID, by bank id and through node, via one upstream call each', async () => {
    const list = await kit.execute(AccountsDocument, { first: 2 });
    const [a, b] = list.data!.accounts!.edges.map((e) => e.node);
    await kit.resetCounts();

    const byGlobal = await kit.execute(AccountDocument, { id: a!.id });
    expect(byGlobal.data!.account!.upstreamId).toBe(a!.upstreamId);
    const byBankId = await kit.execute(AccountDocument, { id: b!.upstreamId });
    expect(byBankId.data!.account!.id).toBe(b!.id);
    const node = await kit.execute(AccountNodeDocument, { id: a!.id });
    expect(node.data!.node).toMatchObject({ __typename: 'Account', id: a!.id, upstreamId: a!.upstreamId });
    expect(kit.calls(ACCOUNT_PATH, 'GET')).toHaveLength(3);
  });

  it('answers null for an account that does not exist', async () => {
    const result = await kit.execute(AccountDocument, { id: 'acc_does_not_exist' });
    expect(result.errors).toBeUndefined();
    expect(result.data!.account).toBeNull();
  });

  it('batches and de-duplicates reads by id in one operation: one upstream call', async () => {
    const list = await kit.execute(AccountsDocument, { first: 3 });
    const ids = list.data!.accounts!.edges.map((e) => e.node.id);
    await kit.resetCounts();
    const query = /* GraphQL */ `
      query Three($a: ID!, $b: ID!, $c: ID!) {
        a: account(id: $a) {
          upstreamId
        }
        b: account(id: $b) {
          upstreamId
        }
        c: account(id: $c) {
          upstreamId
        }
        again: account(id: $a) {
          upstreamId
        }
      }
    `;
    const response = await kit.gateway.yoga.fetch('http://gateway.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables: { a: ids[0], b: ids[1], c: ids[2] } }),
    });
    const body = (await response.json()) as { data: Record<string, { upstreamId: string }> };
    expect(body.data.a!.upstreamId).toBe(body.data.again!.upstreamId);
    expect(new Set(Object.values(body.data).map((v) => v.upstreamId)).size).toBe(3);
    expect(kit.calls(ACCOUNT_PATH, 'GET')).toHaveLength(1);
  });
});

describe('account transactions', () => {
  async function firstAccountId(): Promise<{ id: string; upstreamId: string }> {
    const result = await kit.execute(AccountsDocument, { status: 'ACTIVE', first: 1 });
    return result.data!.accounts!.edges[0]!.node;
  }

  it('pages through transactions newest first, one upstream call per page, matching the upstream', async () => {
    const account = await firstAccountId();
    const raw = await rawUpstream(kit, 'GET', `${TX_PATH}?page=1&size=10`, { headers: { 'x-account-id': account.upstreamId } });
    await kit.resetCounts();

    const page1 = await kit.execute(AccountTransactionsDocument, { id: account.id, first: 5 });
    expect(page1.errors).toBeUndefined();
    const conn1 = page1.data!.account!.transactions!;
    expect(conn1.edges.map((e) => e.node.upstreamId)).toEqual(raw.body.data.slice(0, 5).map((t: any) => t.id));
    expect(conn1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });

    const page2 = await kit.execute(AccountTransactionsDocument, { id: account.id, first: 5, after: conn1.pageInfo.endCursor });
    const conn2 = page2.data!.account!.transactions!;
    expect(conn2.edges.map((e) => e.node.upstreamId)).toEqual(raw.body.data.slice(5, 10).map((t: any) => t.id));
    expect(conn2.pageInfo.hasPreviousPage).toBe(true);

    const tx = conn1.edges[0]!.node;
    const rawTx = raw.body.data[0];
    expect(tx.amount).toEqual({ amount: String(rawTx.amount), currency: rawTx.currency });
    expect(tx.createdAt).toBe(new Date(rawTx.create_time.replace('+0000', 'Z')).toISOString());
    // Each page is one transactions call; the account itself is one more call per operation.
    expect(kit.calls(TX_PATH)).toHaveLength(2);
    for (const call of kit.calls(TX_PATH)) expect(call.status).toBe(200);
  });

  it('filters by a date range of up to 31 days', async () => {
    const account = await firstAccountId();
    const dateRange = { from: isoDay(-30), to: isoDay(0) };
    const result = await kit.execute(AccountTransactionsDocument, { id: account.id, first: 100, dateRange });
    expect(result.errors).toBeUndefined();
    const dates = result.data!.account!.transactions!.edges.map((e) => e.node.createdAt.slice(0, 10));
    expect(dates.length).toBeGreaterThan(0);
    for (const date of dates) {
      expect(date >= dateRange.from && date <= dateRange.to).toBe(true);
    }
  });

  it('refuses a range over 31 days or reversed before calling upstream', async () => {
    const account = await firstAccountId();
    await kit.resetCounts();
    const tooLong = await kit.execute(AccountTransactionsDocument, {
      id: account.id,
      first: 5,
      dateRange: { from: isoDay(-40), to: isoDay(0) },
    });
    expect(tooLong.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      issues: [{ path: ['dateRange', 'to'], message: 'date range must not exceed 31 days' }],
    });
    const reversed = await kit.execute(AccountTransactionsDocument, {
      id: account.id,
      first: 5,
      dateRange: { from: isoDay(0), to: isoDay(-3) },
    });
    expect(reversed.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(reversed.errors?.[0]?.message).toContain('must not be before from');
    expect(kit.calls(TX_PATH)).toHaveLength(0);
  });
});

describe('balances and balance history', () => {
  it('returns one balance per currency as exact Money', async () => {
    const raw = await rawUpstream(kit, 'GET', '/svc/api/v1/account/balance');
    const result = await kit.execute(BalancesDocument, {});
    const balances = result.data!.balances;
    expect(balances!.map((b) => b.currency)).toEqual(raw.body.data.map((b: any) => b.currency));
    const first = raw.body.data[0];
    expect(balances![0]).toEqual({
      currency: first.currency,
      available: { amount: String(first.available_balance), currency: first.currency },
      pending: { amount: String(first.pending_amount), currency: first.currency },
      reserved: { amount: String(first.reserved_amount), currency: first.currency },
    });
    const one = await kit.execute(BalancesDocument, { currency: first.currency });
    expect(one.data!.balances!.map((b) => b.currency)).toEqual([first.currency]);
  });

  it('pages balance history and keeps it within a 7-day range', async () => {
    const dateRange = { from: isoDay(-7), to: isoDay(0) };
    const result = await kit.execute(BalanceHistoryDocument, { first: 50, dateRange });
    expect(result.errors).toBeUndefined();
    const entries = result.data!.balanceHistory!.nodes;
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      const day = entry.createdAt.slice(0, 10);
      expect(day >= dateRange.from && day <= dateRange.to).toBe(true);
      expect(entry.balanceAfter.currency).toBe(entry.amount.currency);
    }
    await kit.resetCounts();
    const tooLong = await kit.execute(BalanceHistoryDocument, { first: 5, dateRange: { from: isoDay(-8), to: isoDay(0) } });
    expect(tooLong.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(tooLong.errors?.[0]?.message).toContain('date range must not exceed 7 days');
    expect(kit.calls(HISTORY_PATH)).toHaveLength(0);
  });
});

describe('account mutations', () => {
  const input = {
    country: 'SG',
    currency: 'SGD',
    label: 'Payroll',
    requiredFeatures: [
      { currency: 'SGD', transferMethod: 'LOCAL' as const },
      { currency: 'USD', transferMethod: 'SWIFT' as const },
    ],
  };

  it('opens an account and returns it as the bank created it', async () => {
    const result = await kit.execute(AccountCreateDocument, { input });
    expect(result.errors).toBeUndefined();
    const outcome = result.data!.accountCreate;
    if (outcome.__typename !== 'AccountCreateSuccess') throw new Error(`unexpected ${outcome.__typename}`);
    expect(outcome.account).toMatchObject({ status: 'ACTIVE', label: 'Payroll', country: 'SG' });
    expect(outcome.account.requiredFeatures).toEqual(input.requiredFeatures);
    expect(outcome.account.supportedFeatures.map((f) => f.transferMethod).sort()).toEqual(['LOCAL', 'SWIFT']);
    const listed = await kit.execute(AccountDocument, { id: outcome.account.id });
    expect(listed.data!.account!.upstreamId).toBe(outcome.account.upstreamId);
  });

  it('applies a write once when the same idempotency key is replayed', async () => {
    const before = (await rawUpstream(kit, 'GET', ACCOUNT_PATH)).body.data.length;
    const key = `test-${crypto.randomUUID()}`;
    const first = await kit.execute(AccountCreateDocument, { input, idempotencyKey: key });
    const second = await kit.execute(AccountCreateDocument, { input, idempotencyKey: key });
    const id = (r: typeof first) =>
      r.data!.accountCreate.__typename === 'AccountCreateSuccess' ? r.data!.accountCreate.account.upstreamId : null;
    expect(id(first)).not.toBeNull();
    expect(id(second)).toBe(id(first));
    expect((await rawUpstream(kit, 'GET', ACCOUNT_PATH)).body.data.length).toBe(before + 1);
    // The key travelled upstream as x-request-id (also on the retry after the reset's 401).
    const posts = kit.calls(ACCOUNT_PATH, 'POST');
    expect(new Set(posts.map((c) => c.requestId))).toEqual(new Set([key]));
    expect(posts.filter((c) => c.status === 200)).toHaveLength(2);
  });

  it('returns a ValidationError naming the field, without calling upstream', async () => {
    await kit.resetCounts();
    const noFeatures = await kit.execute(AccountCreateDocument, { input: { ...input, requiredFeatures: [] } });
    expect(noFeatures.data!.accountCreate).toMatchObject({
      __typename: 'ValidationError',
      issues: [{ path: ['input', 'requiredFeatures'], message: 'must list at least one feature' }],
    });
    const blankLabel = await kit.execute(AccountCreateDocument, { input: { ...input, label: '  ' } });
    expect(blankLabel.data!.accountCreate).toMatchObject({
      __typename: 'ValidationError',
      issues: [{ path: ['input', 'label'], message: 'must not be blank' }],
    });
    expect(kit.calls(ACCOUNT_PATH, 'POST')).toHaveLength(0);
  });

  it('returns the bank refusal as an UpstreamRejection with its message and request id', async () => {
    await kit.control('POST', 'faults', {
      kind: 'status',
      status: 400,
      message: 'Currency not supported for country',
      method: 'POST',
      path: ACCOUNT_PATH,
    });
    const result = await kit.execute(AccountCreateDocument, { input, idempotencyKey: 'refused-1' });
    expect(result.data!.accountCreate).toMatchObject({
      __typename: 'UpstreamRejection',
      upstreamStatus: 400,
      upstreamMessage: 'Currency not supported for country',
      requestId: 'refused-1',
    });
  });

  it('closes an account for good, and refuses to close it twice', async () => {
    const created = await kit.execute(AccountCreateDocument, { input });
    const account = created.data!.accountCreate.__typename === 'AccountCreateSuccess' ? created.data!.accountCreate.account : undefined;
    const closed = await kit.execute(AccountCloseDocument, { input: { accountId: account!.id } });
    expect(closed.data!.accountClose).toMatchObject({
      __typename: 'AccountCloseSuccess',
      result: { closedAccountId: account!.upstreamId, account: { id: account!.id, status: 'CLOSED' } },
    });
    const [closeCall] = kit.calls(ACCOUNT_PATH, 'DELETE').slice(-1);
    expect(closeCall!.status).toBe(200);

    const again = await kit.execute(AccountCloseDocument, { input: { accountId: account!.id } });
    expect(again.data!.accountClose).toMatchObject({ __typename: 'UpstreamRejection', upstreamStatus: 400 });
    expect((again.data!.accountClose as { message: string }).message).toContain('already closed');
  });

  it('refuses a global ID of another type or a malformed id inside the result, naming the field, before any call', async () => {
    const notAnAccount = Buffer.from('Payout:123').toString('base64');
    const wrongType = await kit.execute(AccountCloseDocument, { input: { accountId: notAnAccount } });
    expect(wrongType.errors).toBeUndefined();
    expect(wrongType.data!.accountClose).toMatchObject({
      __typename: 'ValidationError',
      issues: [
        {
          path: ['input', 'accountId'],
          message: "is the global ID of a Payout, not of an Account: give its global ID or the bank's own id",
        },
      ],
    });
    const malformed = await kit.execute(AccountCloseDocument, { input: { accountId: '../acc' } });
    expect(malformed.errors).toBeUndefined();
    expect(malformed.data!.accountClose).toMatchObject({
      __typename: 'ValidationError',
      issues: [{ path: ['input', 'accountId'], message: BANK_ID_RULE }],
    });
    expect(kit.calls(ACCOUNT_PATH, 'DELETE')).toHaveLength(0);
  });
});
