import { describe, expect, it } from 'vitest';
import {
  advanceClockTo,
  apiTime,
  BALANCE_PATH,
  cents,
  envelopeError,
  HISTORY_PATH,
  sandboxDay,
  sandboxMidnight,
  TRANSFER_PATH,
  useSandbox,
} from './helpers.ts';

const t = useSandbox();

const RATE_PATH = `${TRANSFER_PATH}/rate`;
const QUOTE_PATH = `${TRANSFER_PATH}/quote`;
const DETAILS_PATH = `${TRANSFER_PATH}/quotedetails`;
const CONVERSION_PATH = `${TRANSFER_PATH}/conversion`;
const LIST_PATH = `${TRANSFER_PATH}/conversionlist`;
const API_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/;
const HOUR = 3_600_000;

const parseApiTime = (text: string) => Date.parse(text.replace('+0000', 'Z'));

const rate = (query: Record<string, string | number>) => t.api.get(RATE_PATH, { query });

interface QuoteRequest {
  quoteType?: string;
  lockPeriod?: string;
  conversionSchedule?: string;
  sourceCurrencyCode?: string;
  destinationCurrencyCode?: string;
  sourceAmount?: number | null;
  destinationAmount?: number | null;
}

const quoteRequest = (overrides: QuoteRequest = {}): QuoteRequest => ({
  quoteType: 'conversion',
  lockPeriod: '15_mins',
  conversionSchedule: 'next_day',
  sourceCurrencyCode: 'USD',
  destinationCurrencyCode: 'EUR',
  sourceAmount: 1000,
  ...overrides,
});

async function newQuote(overrides: QuoteRequest = {}): Promise<Record<string, any>> {
  const response = await t.api.send('POST', QUOTE_PATH, { body: quoteRequest(overrides) });
  if (response.status !== 200) throw new Error(JSON.stringify(response.body));
  return response.body.data[0];
}

const convert = (body: Record<string, unknown>) => t.api.send('POST', CONVERSION_PATH, { body });
const conversionOf = (quote: Record<string, any>, amount: Record<string, number> = { source_amount: Number(quote.sourceAmount) }) =>
  convert({
    quote_id: quote.id,
    source_currency: quote.sourceCurrencyCode,
    destination_currency: quote.destinationCurrencyCode,
    ...amount,
  });

async function balances(): Promise<Record<string, { available: number; reserved: number }>> {
  const list = (await t.api.get(BALANCE_PATH)).body.data as { currency: string; available_balance: number; reserved_amount: number }[];
  return Object.fromEntries(list.map((b) => [b.currency, { available: cents(b.available_balance), reserved: cents(b.reserved_amount) }]));
}

async function latestHistory(size: number): Promise<Record<string, any>[]> {
  return (await t.api.get(HISTORY_PATH, { query: { size } })).body.data;
}

describe('GET /svc/api/v1/transfer/rate', () => {
  it('prices an amount at the mid rate less the 0.4 % spread', async () => {
    const before = Math.floor(t.sandbox.clock.now().getTime() / 1000) * 1000;
    const response = await rate({ sourceCurrencyCode: 'USD', destinationCurrencyCode: 'EUR', sourceAmount: 100 });
    expect(response.body).toMatchObject({ code: 200, status: 'success', message: 'Rate retrieved successfully' });
    expect(response.body.data).toEqual([
      {
        netExchangeRate: 0.91632,
        sourceCurrencyCode: 'USD',
        destinationCurrencyCode: 'EUR',
        rateCaptureTime: expect.stringMatching(API_TIME),
        sourceAmount: 100,
        destinationAmount: 91.63,
      },
    ]);
    const captured = parseApiTime(response.body.data[0].rateCaptureTime);
    expect(captured).toBeGreaterThanOrEqual(before);
    expect(captured).toBeLessThan(before + 2_000);
  });

  it('is deterministic, crosses through USD and charges the spread both ways', async () => {
    const query = { sourceCurrencyCode: 'GBP', destinationCurrencyCode: 'EUR', sourceAmount: 250 };
    const first = (await rate(query)).body.data[0];
    const second = (await rate(query)).body.data[0];
    expect({ ...second, rateCaptureTime: null }).toEqual({ ...first, rateCaptureTime: null });
    expect(first.netExchangeRate).toBe(Math.round((0.92 / 0.79) * 0.996 * 1e6) / 1e6);
    expect(first.destinationAmount).toBe(289.97);
    const back = (await rate({ sourceCurrencyCode: 'EUR', destinationCurrencyCode: 'GBP', sourceAmount: 1 })).body.data[0];
    expect(back.netExchangeRate).toBe(0.855261);
    expect(first.netExchangeRate * back.netExchangeRate).toBeCloseTo(0.996 ** 2, 5);
  });

  it('computes the source side from a destination amount, in minor units, half up', async () => {
    const fromYen = (await rate({ sourceCurrencyCode: 'USD', destinationCurrencyCode: 'JPY', destinationAmount: 10_000, sourceAmount: '' }))
      .body.data[0];
    expect(fromYen).toMatchObject({ netExchangeRate: 149.4, sourceAmount: 66.93, destinationAmount: 10_000 });
    // 33.33 × 149.4 = 4979.502: yen have no minor unit.
    expect(
      (await rate({ sourceCurrencyCode: 'USD', destinationCurrencyCode: 'JPY', sourceAmount: 33.33 })).body.data[0].destinationAmount,
    ).toBe(4980);
  });

  it.each([
    [{ destinationCurrencyCode: 'USD' }, 'destinationCurrencyCode must differ from sourceCurrencyCode'],
    [{ sourceAmount: undefined }, 'exactly one of sourceAmount and destinationAmount must be given'],
    [{ destinationAmount: 5 }, 'exactly one of sourceAmount and destinationAmount must be given'],
    [{ sourceAmount: 0 }, 'sourceAmount must be greater than 0'],
    [{ sourceAmount: 'ten' }, 'sourceAmount must be a decimal number'],
    [{ sourceAmount: 10.005 }, 'sourceAmount must have at most 2 decimal place(s) for USD'],
    [{ sourceCurrencyCode: 'KRW' }, 'sourceCurrencyCode must be one of USD, EUR, GBP, SGD, HKD, JPY, AUD, CAD, CHF, CNY, INR'],
    [{ destinationCurrencyCode: undefined }, 'destinationCurrencyCode is required'],
  ])('rejects %j', async (change, message) => {
    const query = Object.fromEntries(
      Object.entries({ sourceCurrencyCode: 'USD', destinationCurrencyCode: 'EUR', sourceAmount: 100, ...change }).filter(
        (entry): entry is [string, string | number] => entry[1] !== undefined,
      ),
    );
    expect((await rate(query)).body).toEqual(envelopeError(400, message));
  });
});

describe('POST /svc/api/v1/transfer/quote', () => {
  it('generates a quote: text amounts and rate, the schedule as a date, the MIN_ spelling', async () => {
    const before = Math.floor(t.sandbox.clock.now().getTime() / 1000) * 1000;
    const response = await t.api.send('POST', QUOTE_PATH, { body: quoteRequest() });
    expect(response.body).toMatchObject({ code: 200, status: 'success', message: 'Quote generated successfully' });
    const [quote] = response.body.data;
    expect(quote).toEqual({
      id: expect.stringMatching(/^quo_[0-9a-f]{16}$/),
      netExchangeRate: '0.916320',
      expiryTime: expect.stringMatching(API_TIME),
      sourceCurrencyCode: 'USD',
      destinationCurrencyCode: 'EUR',
      quoteType: 'conversion',
      conversionSchedule: sandboxDay(t.sandbox, 1),
      lockPeriod: 'MIN_15',
      rateCaptureTime: expect.stringMatching(API_TIME),
      sourceAmount: '1000.00',
      destinationAmount: '916.32',
      // Document 1, 2.11: createdTime (date).
      createdTime: sandboxDay(t.sandbox),
    });
    expect(parseApiTime(quote.rateCaptureTime)).toBeGreaterThanOrEqual(before);
    expect(parseApiTime(quote.expiryTime) - parseApiTime(quote.rateCaptureTime)).toBe(15 * 60_000);
  });

  it.each([
    ['5_mins', 'MIN_5', 5],
    ['15_mins', 'MIN_15', 15],
    ['1_hour', 'HOUR_1', 60],
    ['4_hours', 'HOUR_4', 240],
    ['8_hours', 'HOUR_8', 480],
    ['24_hours', 'HOUR_24', 1440],
  ])('locks %s: generated as %s, fetched as requested, expiring %i minutes later', async (lockPeriod, spelled, minutes) => {
    const quote = await newQuote({ lockPeriod });
    expect(quote.lockPeriod).toBe(spelled);
    expect(parseApiTime(quote.expiryTime) - parseApiTime(quote.rateCaptureTime)).toBe(minutes * 60_000);
    const fetched = (await t.api.get(DETAILS_PATH, { query: { quote_id: quote.id } })).body.data;
    expect(fetched.lockPeriod).toBe(lockPeriod);
  });

  it.each([
    ['immediate', 0],
    ['end_of_day', 0],
    ['next_day', 1],
    ['2_days', 2],
  ])('dates the %s schedule %i day(s) ahead', async (conversionSchedule, days) => {
    expect((await newQuote({ conversionSchedule })).conversionSchedule).toBe(sandboxDay(t.sandbox, days));
  });

  it('fixes the destination side when it is given', async () => {
    const quote = await newQuote({ sourceAmount: null, destinationAmount: 500, destinationCurrencyCode: 'GBP' });
    expect(quote).toMatchObject({ netExchangeRate: '0.786840', sourceAmount: '635.45', destinationAmount: '500.00' });
  });

  it.each([
    [{ quoteType: 'spot' }, 'quoteType must be one of payout, conversion'],
    [{ lockPeriod: '30_mins' }, 'lockPeriod must be one of 5_mins, 15_mins, 1_hour, 4_hours, 8_hours, 24_hours'],
    [{ conversionSchedule: undefined }, 'conversionSchedule is required'],
    [{ destinationCurrencyCode: 'USD' }, 'destinationCurrencyCode must differ from sourceCurrencyCode'],
    [{ destinationAmount: 10 }, 'exactly one of sourceAmount and destinationAmount must be given'],
    [{ sourceAmount: -5 }, 'sourceAmount must be greater than 0'],
    [{ sourceAmount: '100' }, 'sourceAmount must be a number'],
  ])('rejects %j', async (change, message) => {
    expect((await t.api.send('POST', QUOTE_PATH, { body: { ...quoteRequest(), ...change } })).body).toEqual(envelopeError(400, message));
  });
});

describe('GET /svc/api/v1/transfer/quotedetails', () => {
  it('returns the quote as an object, with numbers and the requested spellings', async () => {
    const quote = await newQuote({ conversionSchedule: '2_days', lockPeriod: '1_hour' });
    const response = await t.api.get(DETAILS_PATH, { query: { quote_id: quote.id } });
    expect(response.body).toEqual({
      code: 200,
      status: 'success',
      message: 'Quote retrieved successfully',
      data: {
        id: quote.id,
        netExchangeRate: 0.91632,
        expiryTime: quote.expiryTime,
        sourceCurrencyCode: 'USD',
        destinationCurrencyCode: 'EUR',
        conversionSchedule: '2_days',
        lockPeriod: '1_hour',
        rateCaptureTime: quote.rateCaptureTime,
        sourceAmount: 1000,
        destinationAmount: 916.32,
      },
    });
  });

  it('still returns an expired quote', async () => {
    const quote = await newQuote({ lockPeriod: '5_mins' });
    t.api = await advanceClockTo(t.sandbox, parseApiTime(quote.expiryTime) + 1_000);
    expect((await t.api.get(DETAILS_PATH, { query: { quote_id: quote.id } })).body.data.id).toBe(quote.id);
  });

  it('answers an unknown or missing id', async () => {
    expect((await t.api.get(DETAILS_PATH, { query: { quote_id: 'quo_nope' } })).body).toEqual(
      envelopeError(400, 'Quote quo_nope not found'),
    );
    expect((await t.api.get(DETAILS_PATH)).body).toEqual(envelopeError(400, 'quote_id is required'));
  });
});

describe('POST /svc/api/v1/transfer/conversion', () => {
  it('reserves the source at once and settles at the scheduled instant, with both legs in the history', async () => {
    const before = await balances();
    const quote = await newQuote();
    const response = await conversionOf(quote);
    expect(response.body).toMatchObject({ code: 200, status: 'success', message: 'Conversion created successfully' });
    const created = response.body.data;
    const instant = sandboxMidnight(t.sandbox, 1) + 9 * HOUR;
    expect(created).toEqual({
      id: expect.stringMatching(/^cnv_[0-9a-f]{16}$/),
      status: 'processing',
      conversion_time: apiTime(instant),
      source_currencycode: 'USD',
      destination_currencycode: 'EUR',
      source_amount: 1000,
      destination_amount: 916.32,
      quote_id: quote.id,
      net_exchangerate: 0.91632,
      system_reference_number: expect.stringMatching(/^CNV\d{10}$/),
      createdTime: expect.stringMatching(API_TIME),
    });

    const reserved = await balances();
    expect(reserved.USD).toEqual({ available: (before.USD?.available ?? 0) - 100_000, reserved: 100_000 });
    expect(reserved.EUR).toEqual(before.EUR);
    const scheduled = await t.api.get(`${CONVERSION_PATH}/${created.id}`);
    expect(scheduled.body).toEqual({
      code: 200,
      status: 'success',
      message: 'Conversion retrieved successfully',
      data: {
        id: created.id,
        status: 'SCHEDULED',
        conversionTime: apiTime(instant),
        sourceCurrencycode: 'USD',
        destinationCurrencycode: 'EUR',
        sourceAmount: 1000,
        destinationAmount: 916.32,
        quoteId: quote.id,
        netExchangerate: 0.91632,
        systemReferenceNumber: created.system_reference_number,
        createdTime: created.createdTime,
      },
    });

    t.api = await advanceClockTo(t.sandbox, instant - 1_000);
    expect((await t.api.get(`${CONVERSION_PATH}/${created.id}`)).body.data.status).toBe('SCHEDULED');
    t.api = await advanceClockTo(t.sandbox, instant);
    expect((await t.api.get(`${CONVERSION_PATH}/${created.id}`)).body.data.status).toBe('SETTLED');
    const after = await balances();
    expect(after.USD).toEqual({ available: (before.USD?.available ?? 0) - 100_000, reserved: 0 });
    expect(after.EUR).toEqual({ available: (before.EUR?.available ?? 0) + 91_632, reserved: 0 });

    const [buy, sell] = (await latestHistory(2)) as [Record<string, any>, Record<string, any>];
    const leg = { description: 'Currency conversion from USD into EUR', fee: 0, create_time: apiTime(instant), source_type: 'CONVERSION' };
    expect(sell).toMatchObject({ ...leg, currency: 'USD', amount: -1000, transaction_type: 'CONVERSION_SELL' });
    expect(buy).toMatchObject({ ...leg, currency: 'EUR', amount: 916.32, transaction_type: 'CONVERSION_BUY' });
    expect(cents(sell.balance)).toBe(after.USD?.available);
    expect(cents(buy.balance)).toBe(after.EUR?.available);
  });

  it('settles an immediate conversion before answering', async () => {
    const before = await balances();
    const quote = await newQuote({
      conversionSchedule: 'immediate',
      destinationCurrencyCode: 'SGD',
      sourceAmount: null,
      destinationAmount: 2000,
    });
    const created = (await conversionOf(quote, { destination_amount: 2000 })).body.data;
    expect(created.status).toBe('processing');
    expect(parseApiTime(created.conversion_time)).toBe(parseApiTime(created.createdTime));
    expect((await t.api.get(`${CONVERSION_PATH}/${created.id}`)).body.data.status).toBe('SETTLED');
    const after = await balances();
    expect(after.SGD?.available).toBe((before.SGD?.available ?? 0) + 200_000);
    expect(after.USD).toEqual({ available: (before.USD?.available ?? 0) - cents(Number(quote.sourceAmount)), reserved: 0 });
  });

  it('settles an end_of_day conversion at 23:59:59 UTC', async () => {
    const created = (await conversionOf(await newQuote({ conversionSchedule: 'end_of_day' }))).body.data;
    expect(created.conversion_time).toBe(`${sandboxDay(t.sandbox)}T23:59:59+0000`);
  });

  it('accepts the other side of the quote when it is exactly equal', async () => {
    const quote = await newQuote();
    expect((await conversionOf(quote, { destination_amount: 916.32 })).status).toBe(200);
  });

  it('requires the quote currencies and amount', async () => {
    const quote = await newQuote();
    expect((await conversionOf(quote, { source_amount: 999 })).body).toEqual(
      envelopeError(400, "source_amount 999 does not match the quote's 1000"),
    );
    expect((await conversionOf(quote, { destination_amount: 916.33 })).body).toEqual(
      envelopeError(400, "destination_amount 916.33 does not match the quote's 916.32"),
    );
    const wrongCurrency = await convert({ quote_id: quote.id, source_amount: 1000, source_currency: 'GBP', destination_currency: 'EUR' });
    expect(wrongCurrency.body).toEqual(envelopeError(400, "source_currency GBP does not match the quote's USD"));
    const wrongDestination = await convert({
      quote_id: quote.id,
      source_amount: 1000,
      source_currency: 'USD',
      destination_currency: 'SGD',
    });
    expect(wrongDestination.body).toEqual(envelopeError(400, "destination_currency SGD does not match the quote's EUR"));
    // None of these used the quote up.
    expect((await conversionOf(quote)).status).toBe(200);
  });

  it('refuses what the source balance cannot cover, without touching the quote or the balance', async () => {
    const before = await balances();
    const quote = await newQuote({ sourceAmount: 50_000_000 });
    expect((await conversionOf(quote)).body).toEqual(envelopeError(400, 'Insufficient funds in USD balance'));
    expect(await balances()).toEqual(before);
    const chf = await newQuote({ sourceCurrencyCode: 'CHF', destinationCurrencyCode: 'USD', sourceAmount: 10 });
    expect((await conversionOf(chf)).body).toEqual(envelopeError(400, 'Insufficient funds in CHF balance'));
  });

  it('uses a quote once, before it expires, and only a conversion quote', async () => {
    const quote = await newQuote();
    expect((await conversionOf(quote)).status).toBe(200);
    expect((await conversionOf(quote)).body).toEqual(envelopeError(400, `Quote ${quote.id} has already been used`));

    const payoutQuote = await newQuote({ quoteType: 'payout' });
    expect((await conversionOf(payoutQuote)).body).toEqual(
      envelopeError(400, `Quote ${payoutQuote.id} is a payout quote, not a conversion quote`),
    );

    const shortLived = await newQuote({ lockPeriod: '5_mins' });
    t.api = await advanceClockTo(t.sandbox, parseApiTime(shortLived.expiryTime) - 1_000);
    const late = await newQuote({ lockPeriod: '5_mins' });
    t.api = await advanceClockTo(t.sandbox, parseApiTime(shortLived.expiryTime));
    expect((await conversionOf(shortLived)).body).toEqual(envelopeError(400, `Quote ${shortLived.id} has expired`));
    expect((await conversionOf(late)).status).toBe(200);
  });

  it.each([
    [{ quote_id: 'quo_nope' }, 'Quote quo_nope not found'],
    [{ destination_amount: 916.32 }, 'exactly one of source_amount and destination_amount must be given'],
    [{ source_amount: undefined }, 'exactly one of source_amount and destination_amount must be given'],
    [{ source_currency: 'usd' }, 'source_currency must be a 3-letter ISO-4217 code in capitals'],
    [{ quote_id: undefined }, 'quote_id is required'],
  ])('rejects %j', async (change, message) => {
    const body = { quote_id: 'quo_nope', source_amount: 1000, source_currency: 'USD', destination_currency: 'EUR', ...change };
    expect((await convert(body)).body).toEqual(envelopeError(400, message));
  });
});

describe('conversion reads', () => {
  it('answers an unknown id with not found', async () => {
    expect((await t.api.get(`${CONVERSION_PATH}/cnv_nope`)).body).toEqual(envelopeError(400, 'Conversion cnv_nope not found'));
  });

  it('lists every conversion newest first in one element, demo ones settled with createdTime null', async () => {
    const created = (await conversionOf(await newQuote())).body.data;
    const response = await t.api.get(LIST_PATH);
    expect(response.body).toMatchObject({ code: 200, status: 'success', message: 'Conversions retrieved successfully' });
    expect(response.body.data).toHaveLength(1);
    expect(Object.keys(response.body.data[0])).toEqual(['conversions']);
    const list = response.body.data[0].conversions as Record<string, any>[];
    expect(list.map((entry) => entry.id)).toEqual([created.id, 'cnv_demo_2', 'cnv_demo_1']);
    expect(list[0]?.createdTime).toBe(created.createdTime);
    const yesterday = sandboxMidnight(t.sandbox, -1);
    expect(list[2]).toEqual({
      id: 'cnv_demo_1',
      status: 'SETTLED',
      conversionTime: apiTime(yesterday + 19 * HOUR),
      sourceCurrencycode: 'USD',
      destinationCurrencycode: 'EUR',
      sourceAmount: 10_000,
      destinationAmount: 9163.2,
      quoteId: 'quo_demo_cnv_1',
      netExchangerate: 0.91632,
      systemReferenceNumber: 'CNV1000000001',
      createdTime: null,
    });
    expect(list[1]).toMatchObject({
      id: 'cnv_demo_2',
      status: 'SETTLED',
      sourceAmount: 6354.53,
      destinationAmount: 5000,
      createdTime: null,
    });
  });

  it('has the demo conversions in the balance history, both legs, and their quotes used', async () => {
    const yesterday = sandboxMidnight(t.sandbox, -1);
    const legs = (
      await t.api.get(HISTORY_PATH, { query: { from_date: sandboxDay(t.sandbox, -1), to_date: sandboxDay(t.sandbox, -1), size: 100 } })
    ).body.data.filter(
      (entry: { source_type: string; create_time: string }) =>
        entry.source_type === 'CONVERSION' && parseApiTime(entry.create_time) >= yesterday + 19 * HOUR,
    );
    expect(legs.map((entry: Record<string, unknown>) => [entry.currency, entry.amount, entry.transaction_type, entry.create_time])).toEqual(
      [
        ['GBP', 5000, 'CONVERSION_BUY', apiTime(yesterday + 20 * HOUR)],
        ['USD', -6354.53, 'CONVERSION_SELL', apiTime(yesterday + 20 * HOUR)],
        ['EUR', 9163.2, 'CONVERSION_BUY', apiTime(yesterday + 19 * HOUR)],
        ['USD', -10_000, 'CONVERSION_SELL', apiTime(yesterday + 19 * HOUR)],
      ],
    );
    const demoQuote = { quote_id: 'quo_demo_cnv_1', source_amount: 10_000, source_currency: 'USD', destination_currency: 'EUR' };
    expect((await convert(demoQuote)).body).toEqual(envelopeError(400, 'Quote quo_demo_cnv_1 has already been used'));
  });
});
