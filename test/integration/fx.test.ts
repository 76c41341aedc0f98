import { describe, expect, it } from 'vitest';
import {
  BalanceHistoryDocument,
  ConversionCreateDocument,
  ConversionDocument,
  ConversionsDocument,
  FxRateDocument,
  QuoteDocument,
} from '../generated/graphql.ts';
import { balance, cents, createQuote } from '../helpers/flows.ts';
import { useKit } from '../helpers/kit.ts';

const kit = useKit();

const CONVERSION_PATH = '/svc/api/v1/transfer/conversion';
describe('rates', () => {
  it('quotes the current rate for a source or a destination amount, deterministically', async () => {
    const bySource = await kit.execute(FxRateDocument, { sourceCurrency: 'USD', destinationCurrency: 'EUR', sourceAmount: '1000' });
    expect(bySource.errors).toBeUndefined();
    const rate = bySource.data!.fxRate!;
    expect(rate.sourceAmount).toEqual({ amount: '1000', currency: 'USD' });
    expect(rate.destinationAmount.currency).toBe('EUR');
    expect(Math.abs(Number(rate.destinationAmount.amount) - 1000 * Number(rate.rate))).toBeLessThan(0.01);
    const again = await kit.execute(FxRateDocument, { sourceCurrency: 'USD', destinationCurrency: 'EUR', sourceAmount: '1000' });
    expect(again.data!.fxRate!.rate).toBe(rate.rate);

    const byDestination = await kit.execute(FxRateDocument, {
      sourceCurrency: 'USD',
      destinationCurrency: 'EUR',
      destinationAmount: '500',
    });
    expect(byDestination.data!.fxRate!.destinationAmount).toEqual({ amount: '500', currency: 'EUR' });
  });

  it('wants exactly one amount and two different currencies, before calling upstream', async () => {
    await kit.resetCounts();
    const both = await kit.execute(FxRateDocument, {
      sourceCurrency: 'USD',
      destinationCurrency: 'EUR',
      sourceAmount: '1',
      destinationAmount: '1',
    });
    expect(both.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(both.errors?.[0]?.message).toContain('give sourceAmount or destinationAmount, not both');
    const same = await kit.execute(FxRateDocument, { sourceCurrency: 'USD', destinationCurrency: 'USD', sourceAmount: '1' });
    expect(same.errors?.[0]?.message).toContain('must differ from sourceCurrency');
    const negative = await kit.execute(FxRateDocument, { sourceCurrency: 'USD', destinationCurrency: 'EUR', sourceAmount: '-5' });
    expect(negative.errors?.[0]?.message).toContain('must be greater than 0');
    expect(kit.calls('/svc/api/v1/transfer/rate')).toHaveLength(0);
  });
});

describe('quotes', () => {
  it('looks the same whether generated or fetched', async () => {
    const generated = await createQuote(kit);
    expect(generated).toMatchObject({ lockPeriod: 'MINUTES_15', conversionSchedule: 'NEXT_DAY', quoteType: 'CONVERSION', expired: false });
    expect(generated.conversionDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Date.parse(generated.expiresAt) - Date.parse(generated.rateCapturedAt)).toBe(15 * 60_000);
    // createdTime is a date (Document 1, 2.11): the day, and no time the bank did not send.
    expect(generated.createdOn).toBe(new Date().toISOString().slice(0, 10));
    expect(generated.createdAt).toBeNull();

    const fetched = (await kit.execute(QuoteDocument, { id: generated.id })).data!.quote!;
    const common = (q: typeof generated) => ({
      id: q.id,
      upstreamId: q.upstreamId,
      rate: Number(q.rate),
      sourceAmount: q.sourceAmount,
      destinationAmount: { currency: q.destinationAmount.currency, amount: Number(q.destinationAmount.amount) },
      expiresAt: q.expiresAt,
      lockPeriod: q.lockPeriod,
      conversionSchedule: q.conversionSchedule,
      rateCapturedAt: q.rateCapturedAt,
    });
    expect(common(fetched)).toEqual(common(generated));
  });

  it('answers null for an unknown quote', async () => {
    const result = await kit.execute(QuoteDocument, { id: 'quo_missing' });
    expect(result.errors).toBeUndefined();
    expect(result.data!.quote).toBeNull();
  });
});

describe('conversions', () => {
  it('converts against a quote and moves the balances by exactly the quoted amounts once the schedule passes', async () => {
    const usdBefore = await balance(kit, 'USD');
    const eurBefore = await balance(kit, 'EUR');
    const q = await createQuote(kit, { conversionSchedule: 'NEXT_DAY' });

    const created = await kit.execute(ConversionCreateDocument, {
      input: { quoteId: q.id, sourceCurrency: 'USD', destinationCurrency: 'EUR', sourceAmount: '1000' },
    });
    const outcome = created.data!.conversionCreate;
    if (outcome.__typename !== 'ConversionCreateSuccess') throw new Error(JSON.stringify(created));
    const conversion = outcome.conversion;
    expect(conversion).toMatchObject({
      status: 'PROCESSING',
      sourceAmount: { amount: '1000', currency: 'USD' },
      destinationAmount: q.destinationAmount,
      quote: { id: q.id },
    });
    // Reserved at once, credited later.
    const usdReserved = await balance(kit, 'USD');
    expect(cents(usdReserved.available.amount)).toBe(cents(usdBefore.available.amount) - 100_000);
    expect(cents(usdReserved.reserved.amount)).toBe(cents(usdBefore.reserved.amount) + 100_000);
    const scheduled = (await kit.execute(ConversionDocument, { id: conversion.id })).data!.conversion!;
    expect(scheduled).toMatchObject({
      status: 'SCHEDULED',
      upstreamId: conversion.upstreamId,
      systemReferenceNumber: conversion.systemReferenceNumber,
    });

    await kit.control('POST', 'clock/advance', { days: 2 });
    const settled = (await kit.execute(ConversionDocument, { id: conversion.id })).data!.conversion!;
    expect(settled.status).toBe('SETTLED');
    const usdAfter = await balance(kit, 'USD');
    const eurAfter = await balance(kit, 'EUR');
    expect(cents(usdAfter.available.amount)).toBe(cents(usdBefore.available.amount) - 100_000);
    expect(cents(usdAfter.reserved.amount)).toBe(cents(usdBefore.reserved.amount));
    expect(cents(eurAfter.available.amount)).toBe(cents(eurBefore.available.amount) + cents(q.destinationAmount.amount));

    const history = (await kit.execute(BalanceHistoryDocument, { first: 20 })).data!.balanceHistory!.nodes;
    const legs = history.filter((entry) => entry.sourceType === 'CONVERSION').slice(0, 2);
    expect(legs.map((l) => [l.transactionType, l.amount.currency]).sort()).toEqual([
      ['CONVERSION_BUY', 'EUR'],
      ['CONVERSION_SELL', 'USD'],
    ]);
    const buy = legs.find((l) => l.transactionType === 'CONVERSION_BUY')!;
    const sell = legs.find((l) => l.transactionType === 'CONVERSION_SELL')!;
    expect(cents(buy.amount.amount)).toBe(cents(q.destinationAmount.amount));
    expect(cents(sell.amount.amount)).toBe(-100_000);
    expect(buy.balanceAfter).toEqual(eurAfter.available);

    const listed = (await kit.execute(ConversionsDocument, { first: 50 })).data!.conversions!.nodes;
    expect(listed.map((c) => c.upstreamId)).toContain(conversion.upstreamId);
  });

  it('checks amounts and currencies against the quote before sending anything', async () => {
    const q = await createQuote(kit);
    await kit.resetCounts();
    const mismatch = await kit.execute(ConversionCreateDocument, {
      input: { quoteId: q.id, sourceCurrency: 'GBP', destinationCurrency: 'EUR', sourceAmount: '999' },
    });
    expect(mismatch.data!.conversionCreate).toMatchObject({
      __typename: 'ValidationError',
      issues: [
        { path: ['input', 'sourceCurrency'], message: "must be the quote's USD" },
        { path: ['input', 'sourceAmount'], message: "must be the quote's 1000" },
      ],
    });
    expect(kit.calls(CONVERSION_PATH, 'POST')).toHaveLength(0);
  });

  it('passes on the bank refusing a payout quote for a conversion (a fetched quote does not say its type)', async () => {
    const payoutQuote = await createQuote(kit, { quoteType: 'PAYOUT' });
    const wrongType = await kit.execute(ConversionCreateDocument, {
      input: { quoteId: payoutQuote.id, sourceCurrency: 'USD', destinationCurrency: 'EUR', sourceAmount: '1000' },
    });
    expect(wrongType.data!.conversionCreate).toMatchObject({ __typename: 'UpstreamRejection', upstreamStatus: 400 });
    expect((wrongType.data!.conversionCreate as { message: string }).message).toContain('is a payout quote, not a conversion quote');
  });

  it('passes on the bank refusing an expired quote (its clock ran past the lock period)', async () => {
    const q = await createQuote(kit, { lockPeriod: 'MINUTES_5' });
    await kit.control('POST', 'clock/advance', { minutes: 6 });
    const result = await kit.execute(ConversionCreateDocument, {
      input: { quoteId: q.id, sourceCurrency: 'USD', destinationCurrency: 'EUR', sourceAmount: '1000' },
    });
    expect(result.data!.conversionCreate).toMatchObject({ __typename: 'UpstreamRejection', upstreamStatus: 400 });
    expect((result.data!.conversionCreate as { message: string }).message).toContain('has expired');
  });

  it('refuses a conversion the balance cannot cover', async () => {
    const q = await createQuote(kit, { sourceAmount: '900000000' });
    const result = await kit.execute(ConversionCreateDocument, {
      input: { quoteId: q.id, sourceCurrency: 'USD', destinationCurrency: 'EUR', sourceAmount: '900000000' },
    });
    expect(result.data!.conversionCreate).toMatchObject({
      __typename: 'UpstreamRejection',
      upstreamMessage: 'Insufficient funds in USD balance',
    });
  });
});
