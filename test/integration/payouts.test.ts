import { encodeGlobalID } from '@pothos/plugin-relay';
import { describe, expect, it } from 'vitest';
import {
  BalanceHistoryDocument,
  PayoutCancelDocument,
  PayoutCreateDocument,
  PayoutDocument,
  UpcomingPayoutsDocument,
  type PayoutCreateInput,
} from '../generated/graphql.ts';
import { balance, cents, day, GERMAN_SUPPLIER, payoutInput as flowPayoutInput } from '../helpers/flows.ts';
import { useKit } from '../helpers/kit.ts';

const kit = useKit();

const PAYOUT_PATH = '/svc/api/v1/transfer/payout';
const payoutInput = (overrides: Partial<PayoutCreateInput> = {}) => flowPayoutInput(kit, overrides);

async function createPayout(input: PayoutCreateInput, idempotencyKey?: string) {
  const result = await kit.execute(PayoutCreateDocument, { input, idempotencyKey });
  const outcome = result.data!.payoutCreate;
  if (outcome.__typename !== 'PayoutCreateSuccess') throw new Error(`payout failed: ${JSON.stringify(result)}`);
  return outcome.payout;
}

describe('payouts', () => {
  it('schedules a payout, lists it as upcoming, reports its status and cancels it while pending', async () => {
    const input = await payoutInput();
    const payout = await createPayout(input);
    expect(payout).toMatchObject({
      status: 'PENDING',
      sourceAmount: { amount: '1000', currency: 'USD' },
      destinationCountry: 'DE',
      feeType: 'OUR',
      transferMethod: 'SWIFT',
      scheduledDate: input.scheduledDate,
      quote: { id: input.quoteId },
      beneficiary: { id: GERMAN_SUPPLIER, upstreamId: 'ben_demo_de' },
    });
    expect(payout.beneficiary!.companyName).toBeTruthy();
    expect(payout.systemReferenceNumber).toMatch(/^PAY\d{10}$/);

    const upcoming = (await kit.execute(UpcomingPayoutsDocument, { first: 50 })).data!.upcomingPayouts!.nodes;
    const listed = upcoming.find((p) => p.upstreamId === payout.upstreamId)!;
    expect(listed).toMatchObject({
      status: 'PENDING',
      reference: 'Invoice 2026-114',
      scheduledDate: input.scheduledDate,
      quote: { id: input.quoteId },
      beneficiary: { upstreamId: 'ben_demo_de' },
    });

    const status = (await kit.execute(PayoutDocument, { id: payout.id })).data!.payout!;
    expect(status).toMatchObject({ upstreamId: payout.upstreamId, status: 'PENDING' });

    const cancelled = await kit.execute(PayoutCancelDocument, { input: { payoutId: payout.id } });
    expect(cancelled.data!.payoutCancel).toMatchObject({
      __typename: 'PayoutCancelSuccess',
      result: { payout: { id: payout.id, status: 'CANCELLED' } },
    });
    const after = (await kit.execute(UpcomingPayoutsDocument, { first: 50 })).data!.upcomingPayouts!.nodes;
    expect(after.map((p) => p.upstreamId)).not.toContain(payout.upstreamId);
  });

  it('cancels by system reference number too', async () => {
    const payout = await createPayout(await payoutInput());
    const cancelled = await kit.execute(PayoutCancelDocument, { input: { systemReferenceNumber: payout.systemReferenceNumber } });
    expect(cancelled.data!.payoutCancel).toMatchObject({
      __typename: 'PayoutCancelSuccess',
      result: { systemReferenceNumber: payout.systemReferenceNumber },
    });
    expect((await kit.execute(PayoutDocument, { id: payout.id })).data!.payout!.status).toBe('CANCELLED');
  });

  it('processes on its day: debits amount plus fee and writes a PAYOUT history entry; then refuses to cancel', async () => {
    const usdBefore = await balance(kit, 'USD');
    const payout = await createPayout(await payoutInput({ scheduledDate: day(1) }));
    await kit.control('POST', 'clock/advance', { days: 1 });
    expect((await kit.execute(PayoutDocument, { id: payout.id })).data!.payout!.status).toBe('PROCESSING');

    const usdAfter = await balance(kit, 'USD');
    // SWIFT with fee type OUR costs 25 in the source currency (README).
    expect(cents(usdAfter.available.amount)).toBe(cents(usdBefore.available.amount) - 100_000 - 2_500);
    const history = (await kit.execute(BalanceHistoryDocument, { first: 10 })).data!.balanceHistory!.nodes;
    const entry = history.find((h) => h.sourceType === 'PAYOUT')!;
    expect(entry).toMatchObject({ transactionType: 'PAYOUT', fee: { amount: '25', currency: 'USD' } });
    expect(cents(entry.amount.amount)).toBe(-102_500);

    const refused = await kit.execute(PayoutCancelDocument, { input: { payoutId: payout.id } });
    expect(refused.data!.payoutCancel).toMatchObject({
      __typename: 'UpstreamRejection',
      upstreamStatus: 400,
      upstreamMessage: `Only pending payouts can be cancelled: payout ${payout.upstreamId} is PROCESSING`,
    });

    await kit.control('POST', 'clock/advance', { days: 1 });
    expect((await kit.execute(PayoutDocument, { id: payout.id })).data!.payout!.status).toBe('COMPLETED');
  });

  it('creates one payout when a creation is retried with the same idempotency key', async () => {
    const input = await payoutInput();
    const key = `payout-${crypto.randomUUID()}`;
    const first = await createPayout(input, key);
    const second = await createPayout(input, key);
    expect(second.upstreamId).toBe(first.upstreamId);
    const upcoming = (await kit.execute(UpcomingPayoutsDocument, { first: 50 })).data!.upcomingPayouts!.nodes;
    expect(upcoming.filter((p) => p.reference === input.reference)).toHaveLength(1);
    expect(new Set(kit.calls(PAYOUT_PATH, 'POST').map((c) => c.requestId))).toEqual(new Set([key]));
  });

  it('validates the input and the quote before anything is sent', async () => {
    const input = await payoutInput();
    await kit.resetCounts();
    const both = await kit.execute(PayoutCreateDocument, { input: { ...input, destinationAmount: '900' } });
    expect(both.data!.payoutCreate).toMatchObject({
      __typename: 'ValidationError',
      issues: [{ path: ['input', 'sourceAmount'], message: 'give sourceAmount or destinationAmount, not both' }],
    });
    const past = await kit.execute(PayoutCreateDocument, { input: { ...input, scheduledDate: day(-1) } });
    expect(past.data!.payoutCreate).toMatchObject({
      __typename: 'ValidationError',
      issues: [{ path: ['input', 'scheduledDate'], message: 'must be today or a future date' }],
    });
    const offQuote = await kit.execute(PayoutCreateDocument, { input: { ...input, sourceAmount: '1500' } });
    expect(offQuote.data!.payoutCreate).toMatchObject({
      __typename: 'ValidationError',
      issues: [{ path: ['input', 'sourceAmount'], message: "must be the quote's 1000" }],
    });
    const notABeneficiary = await kit.execute(PayoutCreateDocument, {
      input: { ...input, beneficiaryId: encodeGlobalID('Account', 'acc_demo_usd') },
    });
    expect(notABeneficiary.data!.payoutCreate).toMatchObject({
      __typename: 'ValidationError',
      issues: [
        {
          path: ['input', 'beneficiaryId'],
          message: "is the global ID of an Account, not of a Beneficiary: give its global ID or the bank's own id",
        },
      ],
    });
    expect(kit.calls(PAYOUT_PATH, 'POST')).toHaveLength(0);
  });

  it('passes on the bank refusing a beneficiary without the transfer method', async () => {
    // The UK supplier is paid by LOCAL transfer only.
    const input = await payoutInput({ beneficiaryId: encodeGlobalID('Beneficiary', 'ben_demo_gb'), destinationCountry: 'GB' });
    const result = await kit.execute(PayoutCreateDocument, { input });
    expect(result.data!.payoutCreate).toMatchObject({ __typename: 'UpstreamRejection', upstreamStatus: 400 });
  });

  it('answers null for an unknown payout', async () => {
    const result = await kit.execute(PayoutDocument, { id: 'pay_missing' });
    expect(result.errors).toBeUndefined();
    expect(result.data!.payout).toBeNull();
  });
});
