import { describe, expect, it } from 'vitest';
import {
  advanceClockTo,
  apiTime,
  BALANCE_PATH,
  cents,
  envelopeError,
  HISTORY_PATH,
  nextRequestId,
  sandboxDay,
  sandboxMidnight,
  TRANSFER_PATH,
  useSandbox,
} from './helpers.ts';

const t = useSandbox();

const PAYOUT_PATH = `${TRANSFER_PATH}/payout`;
const CANCEL_PATH = `${TRANSFER_PATH}/cancelpayout`;
const UPCOMING_PATH = `${TRANSFER_PATH}/upcomingpayouts`;
const DAY = 86_400_000;

async function quote(overrides: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const body = {
    quoteType: 'payout',
    lockPeriod: '15_mins',
    conversionSchedule: 'immediate',
    sourceCurrencyCode: 'USD',
    destinationCurrencyCode: 'EUR',
    sourceAmount: 1000,
    ...overrides,
  };
  const response = await t.api.send('POST', `${TRANSFER_PATH}/quote`, { body });
  if (response.status !== 200) throw new Error(JSON.stringify(response.body));
  return response.body.data[0];
}

/** A SWIFT payout of the quote's source amount to the German demo beneficiary, due tomorrow. */
function payoutBody(forQuote: Record<string, any>, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    beneficiaryId: 'ben_demo_de',
    sourceAmount: Number(forQuote.sourceAmount),
    sourceCurrencycode: forQuote.sourceCurrencyCode,
    destinationCurrencycode: forQuote.destinationCurrencyCode,
    destinationCountry: 'DE',
    feeType: 'OUR',
    quoteId: forQuote.id,
    reference: 'Invoice FC-1042',
    sourceOfFunds: 'Business revenue',
    transferMethod: 'SWIFT',
    scheduledPayoutDate: sandboxDay(t.sandbox, 1),
    ...overrides,
  };
}

const createPayout = (body: unknown, requestId = nextRequestId()) =>
  t.api.send('POST', PAYOUT_PATH, { body, headers: { 'x-request-id': requestId } });

async function newPayout(body: Record<string, unknown>): Promise<{ id: string; systemReferenceNumber: string }> {
  const response = await createPayout(body);
  if (response.status !== 200) throw new Error(JSON.stringify(response.body));
  return response.body.data[0];
}

const statusOf = async (id: string) => (await t.api.get(`${PAYOUT_PATH}/${id}`)).body.data[0].status as string;
const cancel = (body: unknown) => t.api.send('PATCH', CANCEL_PATH, { body });

async function available(currency: string): Promise<number> {
  const [balance] = (await t.api.get(BALANCE_PATH, { query: { currency } })).body.data;
  return cents(balance.available_balance);
}

const latestHistory = async () => (await t.api.get(HISTORY_PATH, { query: { size: 1 } })).body.data[0];

describe('POST /svc/api/v1/transfer/payout', () => {
  it('creates a PENDING payout for a future date and debits nothing yet', async () => {
    const before = await available('USD');
    const response = await createPayout(payoutBody(await quote()));
    expect(response.body).toEqual({
      code: 200,
      status: 'success',
      message: 'Payout created successfully',
      data: [{ id: expect.stringMatching(/^pay_[0-9a-f]{16}$/), systemReferenceNumber: expect.stringMatching(/^PAY\d{10}$/) }],
    });
    const { id } = response.body.data[0];
    expect((await t.api.get(`${PAYOUT_PATH}/${id}`)).body).toEqual({
      code: 200,
      status: 'success',
      message: 'Payout retrieved successfully',
      data: [{ id, status: 'PENDING' }],
    });
    expect(await available('USD')).toBe(before);
  });

  it('accepts the destination amount of the quote instead', async () => {
    const q = await quote();
    const response = await createPayout(payoutBody(q, { sourceAmount: null, destinationAmount: Number(q.destinationAmount) }));
    expect(response.status).toBe(200);
  });

  it.each<[string, (q: Record<string, any>) => Record<string, unknown>, (q: Record<string, any>) => string]>([
    ['both amounts', () => ({ destinationAmount: 916.32 }), () => 'exactly one of sourceAmount and destinationAmount must be given'],
    ['neither amount', () => ({ sourceAmount: null }), () => 'exactly one of sourceAmount and destinationAmount must be given'],
    ['a past date', () => ({ scheduledPayoutDate: sandboxDay(t.sandbox, -1) }), () => 'scheduledPayoutDate must be today or a future date'],
    ['a malformed date', () => ({ scheduledPayoutDate: '2030/01/01' }), () => 'scheduledPayoutDate must be a date in the form YYYY-MM-DD'],
    ['an unknown beneficiary', () => ({ beneficiaryId: 'ben_nope' }), () => 'Beneficiary ben_nope not found'],
    [
      'a method the beneficiary lacks',
      () => ({ transferMethod: 'LOCAL' }),
      () => "transferMethod LOCAL is not one of the beneficiary's transfer methods (SWIFT)",
    ],
    ['another amount than the quote', () => ({ sourceAmount: 999 }), () => "sourceAmount 999 does not match the quote's 1000"],
    [
      'another currency than the quote',
      () => ({ destinationCurrencycode: 'GBP' }),
      () => "destinationCurrencycode GBP does not match the quote's EUR",
    ],
    ['an unknown quote', () => ({ quoteId: 'quo_nope' }), () => 'Quote quo_nope not found'],
    ['an unknown fee type', () => ({ feeType: 'BEN' }), () => 'feeType must be one of OUR, SHA'],
    ['a 3-letter country', () => ({ destinationCountry: 'DEU' }), () => 'destinationCountry must be a 2-letter country code in capitals'],
    ['no reference', () => ({ reference: undefined }), () => 'reference is required'],
    ['an unknown transfer method', () => ({ transferMethod: 'WIRE' }), () => 'transferMethod must be one of LOCAL, SWIFT'],
  ])('rejects %s', async (_name, change, message) => {
    const q = await quote();
    const response = await createPayout(payoutBody(q, change(q)));
    expect(response.body).toEqual(envelopeError(400, message(q)));
    // A refused payout leaves its quote usable.
    expect((await createPayout(payoutBody(q))).status).toBe(200);
  });

  it('uses a payout quote once, before it expires', async () => {
    const conversionQuote = await quote({ quoteType: 'conversion' });
    expect((await createPayout(payoutBody(conversionQuote))).body).toEqual(
      envelopeError(400, `Quote ${conversionQuote.id} is a conversion quote, not a payout quote`),
    );
    const q = await quote({ lockPeriod: '5_mins' });
    await newPayout(payoutBody(q));
    expect((await createPayout(payoutBody(q))).body).toEqual(envelopeError(400, `Quote ${q.id} has already been used`));
    const expiring = await quote({ lockPeriod: '5_mins' });
    t.api = await advanceClockTo(t.sandbox, Date.parse(expiring.expiryTime.replace('+0000', 'Z')));
    expect((await createPayout(payoutBody(expiring))).body).toEqual(envelopeError(400, `Quote ${expiring.id} has expired`));
  });

  it('creates one payout when the same request is replayed with the same x-request-id', async () => {
    const body = payoutBody(await quote());
    const requestId = nextRequestId();
    const first = await createPayout(body, requestId);
    const replay = await createPayout(body, requestId);
    expect(first.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect([...t.sandbox.store.payouts.keys()]).toEqual(['pay_demo_1', first.body.data[0].id]);
  });

  it('answers an unknown id with not found', async () => {
    expect((await t.api.get(`${PAYOUT_PATH}/pay_nope`)).body).toEqual(envelopeError(400, 'Payout pay_nope not found'));
  });
});

describe('payout lifecycle', () => {
  it('processes at 00:00 UTC of its date, debiting amount plus fee, and completes 24 hours later', async () => {
    const processAt = sandboxMidnight(t.sandbox, 1);
    const before = await available('USD');
    const { id } = await newPayout(payoutBody(await quote()));

    t.api = await advanceClockTo(t.sandbox, processAt - 1_000);
    expect(await statusOf(id)).toBe('PENDING');
    t.api = await advanceClockTo(t.sandbox, processAt);
    expect(await statusOf(id)).toBe('PROCESSING');
    const after = await available('USD');
    expect(after).toBe(before - 102_500);
    expect(await latestHistory()).toMatchObject({
      amount: -1025,
      fee: 25,
      currency: 'USD',
      balance: after / 100,
      description: 'Payout to Fabrikam Components GmbH',
      create_time: apiTime(processAt),
      source_type: 'PAYOUT',
      transaction_type: 'PAYOUT',
    });

    t.api = await advanceClockTo(t.sandbox, processAt + DAY - 1_000);
    expect(await statusOf(id)).toBe('PROCESSING');
    t.api = await advanceClockTo(t.sandbox, processAt + DAY);
    expect(await statusOf(id)).toBe('COMPLETED');
    expect(await available('USD')).toBe(after);
  });

  it('processes a payout for today before answering, with the LOCAL fee', async () => {
    const before = await available('USD');
    const q = await quote({ destinationCurrencyCode: 'GBP' });
    const body = payoutBody(q, {
      beneficiaryId: 'ben_demo_gb',
      destinationCountry: 'GB',
      transferMethod: 'LOCAL',
      feeType: 'SHA',
      scheduledPayoutDate: sandboxDay(t.sandbox),
    });
    const { id } = await newPayout(body);
    expect(await statusOf(id)).toBe('PROCESSING');
    expect(await available('USD')).toBe(before - 100_100);
    expect(await latestHistory()).toMatchObject({ amount: -1001, fee: 1, description: 'Payout to Contoso Logistics Ltd' });
  });

  it('fails without debiting when the balance cannot cover it at processing time', async () => {
    const processAt = sandboxMidnight(t.sandbox, 1);
    const q = await quote({ sourceCurrencyCode: 'HKD', destinationCurrencyCode: 'USD', sourceAmount: 5_000_000 });
    const body = payoutBody(q, { beneficiaryId: 'ben_demo_us', destinationCountry: 'US' });
    const { id } = await newPayout(body);
    const before = await available('HKD');
    // In HKD: the demo direct debits settle GBP meanwhile.
    const hkdEntries = () => [...t.sandbox.store.balanceHistory.values()].filter((record) => record.entry.currency === 'HKD').length;
    const historyBefore = hkdEntries();
    t.api = await advanceClockTo(t.sandbox, processAt);
    expect(await statusOf(id)).toBe('FAILED');
    expect(await available('HKD')).toBe(before);
    expect(hkdEntries()).toBe(historyBefore);

    const today = payoutBody(await quote({ sourceCurrencyCode: 'HKD', destinationCurrencyCode: 'USD', sourceAmount: 5_000_000 }), {
      beneficiaryId: 'ben_demo_us',
      destinationCountry: 'US',
      scheduledPayoutDate: sandboxDay(t.sandbox),
    });
    expect(await statusOf((await newPayout(today)).id)).toBe('FAILED');
  });

  it('processes the demo payout on its date', async () => {
    const processAt = sandboxMidnight(t.sandbox, 3);
    const before = await available('USD');
    t.api = await advanceClockTo(t.sandbox, processAt);
    expect(await statusOf('pay_demo_1')).toBe('PROCESSING');
    expect(await available('USD')).toBe(before - 250_100);
  });

  it('runs due work of every kind in time order when the clock jumps past it', async () => {
    const conversionAt = sandboxMidnight(t.sandbox, 1) + 9 * 3_600_000;
    const payoutAt = sandboxMidnight(t.sandbox, 2);
    const conversionQuote = await quote({ quoteType: 'conversion', conversionSchedule: 'next_day' });
    const conversion = { quote_id: conversionQuote.id, source_amount: 1000, source_currency: 'USD', destination_currency: 'EUR' };
    expect((await t.api.send('POST', `${TRANSFER_PATH}/conversion`, { body: conversion })).status).toBe(200);
    await newPayout(payoutBody(await quote(), { scheduledPayoutDate: sandboxDay(t.sandbox, 2) }));

    // One jump past the conversion, this payout and the demo payout (due the day after).
    t.api = await advanceClockTo(t.sandbox, payoutAt + DAY + 1_000);
    // The demo direct debits' GBP settlements fall in between: left out.
    const history = (await t.api.get(HISTORY_PATH, { query: { size: 20 } })).body.data as Record<string, any>[];
    const entries = history.filter((entry) => entry.source_type !== 'DIRECT_DEBIT').slice(0, 4);
    expect(entries.map((entry) => [entry.transaction_type, entry.amount, entry.create_time])).toEqual([
      ['PAYOUT', -2501, apiTime(payoutAt + DAY)],
      ['PAYOUT', -1025, apiTime(payoutAt)],
      ['CONVERSION_BUY', 916.32, apiTime(conversionAt)],
      ['CONVERSION_SELL', -1000, apiTime(conversionAt)],
    ]);
    const [demo, payout, , sell] = entries as [Record<string, any>, Record<string, any>, Record<string, any>, Record<string, any>];
    expect(cents(payout.balance)).toBe(cents(sell.balance) - 102_500);
    expect(cents(demo.balance)).toBe(cents(payout.balance) - 250_100);
    expect(cents(demo.balance)).toBe(await available('USD'));
  });
});

describe('PATCH /svc/api/v1/transfer/cancelpayout', () => {
  it('cancels a pending payout by id; it never processes', async () => {
    const processAt = sandboxMidnight(t.sandbox, 1);
    const { id } = await newPayout(payoutBody(await quote()));
    expect((await cancel({ id })).body).toEqual({ code: 200, status: 'success', message: 'Payout cancelled successfully', data: {} });
    expect(await statusOf(id)).toBe('CANCELLED');
    const before = await available('USD');
    t.api = await advanceClockTo(t.sandbox, processAt);
    expect(await statusOf(id)).toBe('CANCELLED');
    expect(await available('USD')).toBe(before);
    expect((await cancel({ id })).body).toEqual(envelopeError(400, `Only pending payouts can be cancelled: payout ${id} is CANCELLED`));
  });

  it('cancels by systemReferenceNumber', async () => {
    expect((await cancel({ systemReferenceNumber: 'PAY1000000001' })).status).toBe(200);
    expect(await statusOf('pay_demo_1')).toBe('CANCELLED');
  });

  it('refuses a payout that is already processing', async () => {
    const body = payoutBody(await quote(), { scheduledPayoutDate: sandboxDay(t.sandbox) });
    const { id, systemReferenceNumber } = await newPayout(body);
    expect((await cancel({ systemReferenceNumber })).body).toEqual(
      envelopeError(400, `Only pending payouts can be cancelled: payout ${id} is PROCESSING`),
    );
  });

  it.each([
    [{}, 'exactly one of id and systemReferenceNumber must be given'],
    [{ id: 'pay_demo_1', systemReferenceNumber: 'PAY1000000001' }, 'exactly one of id and systemReferenceNumber must be given'],
    [{ id: 'pay_nope' }, 'Payout pay_nope not found'],
    [{ systemReferenceNumber: 'PAY0000000000' }, 'Payout PAY0000000000 not found'],
    [{ id: 7 }, 'id must be a string'],
  ])('rejects %j', async (body, message) => {
    expect((await cancel(body)).body).toEqual(envelopeError(400, message));
  });
});

describe('GET /svc/api/v1/transfer/upcomingpayouts', () => {
  it('lists the demo payout with every field', async () => {
    const response = await t.api.get(UPCOMING_PATH);
    expect(response.body).toMatchObject({ code: 200, status: 'success', message: 'Upcoming payouts retrieved successfully' });
    expect(response.body.data).toEqual([
      {
        id: 'pay_demo_1',
        systemReferenceNumber: 'PAY1000000001',
        status: 'PENDING',
        beneficiaryId: 'ben_demo_gb',
        quoteId: 'quo_demo_pay_1',
        sourceAmount: 2500,
        sourceCurrencycode: 'USD',
        destinationAmount: 1967.1,
        destinationCurrencycode: 'GBP',
        destinationCountry: 'GB',
        feeType: 'SHA',
        transferMethod: 'LOCAL',
        reference: 'Invoice CL-2291',
        sourceOfFunds: 'Business revenue',
        scheduledPayoutDate: sandboxDay(t.sandbox, 3),
        createdTime: apiTime(sandboxMidnight(t.sandbox, -1) + 21 * 3_600_000),
      },
    ]);
  });

  it('lists only pending payouts, soonest first', async () => {
    const later = await newPayout(payoutBody(await quote(), { scheduledPayoutDate: sandboxDay(t.sandbox, 5) }));
    const sooner = await newPayout(payoutBody(await quote(), { scheduledPayoutDate: sandboxDay(t.sandbox, 1) }));
    await newPayout(payoutBody(await quote(), { scheduledPayoutDate: sandboxDay(t.sandbox) }));
    const ids = (await t.api.get(UPCOMING_PATH)).body.data.map((item: { id: string }) => item.id);
    expect(ids).toEqual([sooner.id, 'pay_demo_1', later.id]);
  });

  it('answers an empty list with its message when nothing is pending', async () => {
    await cancel({ id: 'pay_demo_1' });
    expect((await t.api.get(UPCOMING_PATH)).body).toEqual({ code: 200, status: 'success', message: 'No upcoming payouts found', data: [] });
  });
});
