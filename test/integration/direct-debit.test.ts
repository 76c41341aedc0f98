import { describe, expect, it } from 'vitest';
import {
  DirectDebitCancelDocument,
  DirectDebitDocument,
  DirectDebitsDocument,
  GlobalAccountDirectDebitDocument,
  MandateCancelDocument,
} from '../generated/graphql.ts';
import { useKit } from '../helpers/kit.ts';

const kit = useKit();

async function ukAccount() {
  const result = await kit.execute(GlobalAccountDirectDebitDocument, { id: 'ga_demo_gb' });
  expect(result.errors).toBeUndefined();
  return result.data!.globalAccount!;
}

describe('direct debit', () => {
  it('shows a UK global account with its mandates and their direct debits in one query', async () => {
    const account = await ukAccount();
    expect(account).toMatchObject({
      upstreamId: 'ga_demo_gb',
      country: 'GB',
      currency: 'GBP',
      capability: { supportsDirectDebit: true },
      actingFor: null,
    });
    const mandates = account.mandates!.nodes;
    expect(mandates.map((m) => m.status)).toEqual(expect.arrayContaining(['ACTIVE', 'CANCELLED']));
    const debits = mandates.flatMap((m) => m.directDebits!.nodes);
    expect(debits.some((d) => d.status === 'PENDING')).toBe(true);
    for (const debit of debits) {
      expect(debit.amount.currency).toBe('GBP');
      expect(debit.disputeWindow).toMatchObject({ indefinite: true, withoutReviewUntil: null });
    }
    // The direct debit endpoint of the sandbox answered without an envelope; one global account read.
    expect(kit.calls('/api/v1/global_accounts/ga_demo_gb')).toHaveLength(1);
    // Each mandate lists its own payouts, in the bank's order, as the list of them all says.
    const all = (await kit.execute(DirectDebitsDocument, { first: 100 })).data!.directDebits!.nodes;
    for (const mandate of mandates) {
      const own = all
        .filter((d) => d.mandate?.upstreamId === mandate.upstreamId && d.account?.upstreamId === 'ga_demo_gb')
        .map((d) => d.upstreamId);
      expect(mandate.directDebits!.nodes.map((d) => d.upstreamId)).toEqual(own);
    }
    expect(mandates.some((m) => m.directDebits!.nodes.length > 1)).toBe(true);
  });

  it('cancels a pending UK payout, cancels a mandate, and a later collection under it is rejected', async () => {
    const account = await ukAccount();
    const active = account.mandates!.nodes.find((m) => m.status === 'ACTIVE' && m.directDebits!.nodes.some((d) => d.status === 'PENDING'))!;
    const pending = active.directDebits!.nodes.find((d) => d.status === 'PENDING')!;

    const cancelled = await kit.execute(DirectDebitCancelDocument, { input: { directDebitId: pending.id } });
    expect(cancelled.data!.directDebitCancel).toEqual({
      __typename: 'DirectDebitCancelSuccess',
      directDebit: { id: pending.id, status: 'CANCELLED' },
    });

    const mandate = await kit.execute(MandateCancelDocument, { input: { mandateId: active.id } });
    expect(mandate.data!.mandateCancel).toEqual({ __typename: 'MandateCancelSuccess', mandate: { id: active.id, status: 'CANCELLED' } });

    const later = (await kit.control('POST', 'direct-debits', {
      global_account_id: 'ga_demo_gb',
      mandate_id: active.upstreamId,
      amount: 42,
    })) as { transaction_id: string };
    const read = await kit.execute(DirectDebitDocument, { id: later.transaction_id });
    expect(read.data!.directDebit).toMatchObject({
      upstreamId: later.transaction_id,
      status: 'REJECTED',
      mandate: { id: active.id, status: 'CANCELLED' },
    });
  });

  it('returns the bank refusing a non-GBP cancel as a typed InvalidOperation', async () => {
    const debits = (await kit.execute(DirectDebitsDocument, { first: 100 })).data!.directDebits!.nodes;
    const usd =
      debits.find((d) => d.amount.currency === 'USD' && d.status === 'PENDING') ?? debits.find((d) => d.amount.currency !== 'GBP')!;
    const result = await kit.execute(DirectDebitCancelDocument, { input: { directDebitId: usd.id } });
    expect(result.data!.directDebitCancel).toMatchObject({
      __typename: 'InvalidOperation',
      code: 'invalid_operation',
      message: 'Only PENDING GBP direct debits in the United Kingdom can be cancelled',
    });
  });

  it('acts for a connected account only when asked to', async () => {
    const own = await kit.execute(GlobalAccountDirectDebitDocument, { id: 'ga_demo_nl' });
    expect(own.data!.globalAccount).toBeNull();
    const connected = await kit.execute(GlobalAccountDirectDebitDocument, { id: 'ga_demo_nl', onBehalfOf: 'conn_demo_1' });
    expect(connected.data!.globalAccount).toMatchObject({ upstreamId: 'ga_demo_nl', country: 'NL', actingFor: 'conn_demo_1' });
  });

  it('lists the last 30 days by default and a given range otherwise', async () => {
    const recent = (await kit.execute(DirectDebitsDocument, { first: 100 })).data!.directDebits!.nodes;
    const cutoff = Date.now() - 31 * 86_400_000;
    expect(recent.length).toBeGreaterThan(0);
    for (const debit of recent) expect(Date.parse(debit.createdAt)).toBeGreaterThan(cutoff);
    const old = (
      await kit.execute(DirectDebitsDocument, { first: 100, dateRange: { from: '2000-01-01', to: new Date().toISOString().slice(0, 10) } })
    ).data!.directDebits!.nodes;
    expect(old.length).toBeGreaterThan(recent.length);
  });

  it('takes an end date alone (the 30 days before it, Document 3, section 8) and a start date alone, and refuses a reversed range before any call', async () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const endOnly = await kit.execute(DirectDebitsDocument, { first: 100, dateRange: { to: day(-2) } });
    expect(endOnly.errors).toBeUndefined();
    const createdDays = endOnly.data!.directDebits!.nodes.map((d) => d.createdAt.slice(0, 10));
    expect(createdDays.length).toBeGreaterThan(0);
    for (const created of createdDays) {
      expect(created <= day(-2)).toBe(true);
      expect(created >= day(-32)).toBe(true);
    }
    const startOnly = await kit.execute(DirectDebitsDocument, { first: 100, dateRange: { from: day(-1) } });
    expect(startOnly.errors).toBeUndefined();
    for (const debit of startOnly.data!.directDebits!.nodes) expect(debit.createdAt.slice(0, 10) >= day(-1)).toBe(true);
    const sent = kit.sandbox
      .requests()
      .filter((r) => r.path === '/api/v1/direct_debits')
      .map((r) => [r.query.from_created_date, r.query.to_created_date]);
    expect(sent).toEqual([
      [undefined, day(-2)],
      [day(-1), undefined],
    ]);

    await kit.resetCounts();
    const reversed = await kit.execute(DirectDebitsDocument, { first: 10, dateRange: { from: day(0), to: day(-1) } });
    expect(reversed.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      issues: [{ path: ['dateRange', 'to'], message: 'must not be before from' }],
    });
    expect(kit.calls('/api/v1/direct_debits')).toHaveLength(0);
  });
});
