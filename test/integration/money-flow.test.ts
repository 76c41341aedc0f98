import { describe, expect, it } from 'vitest';
import {
  BalanceHistoryDocument,
  BeneficiaryCreateDocument,
  ConversionCreateDocument,
  ConversionDocument,
  FxRateDocument,
  PayoutCancelDocument,
  PayoutCreateDocument,
  PayoutDocument,
  UpcomingPayoutsDocument,
} from '../generated/graphql.ts';
import { balance, cents, createQuote, SUPPLIER } from '../helpers/flows.ts';
import { useKit } from '../helpers/kit.ts';

/**
 * The two journeys a frontend runs, through GraphQL only (the sandbox clock is the one thing moved
 * from outside): convert between own balances, and pay a new beneficiary.
 */
const kit = useKit();

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe('money flows through GraphQL', () => {
  it('rate → quote → conversion → settlement moves both balances by the quoted amounts, with both legs in the history', async () => {
    // A quiet business: no scheduled payout may move the balances while the clock runs ahead.
    for (const upcoming of (await kit.execute(UpcomingPayoutsDocument, { first: 100 })).data!.upcomingPayouts!.nodes) {
      await kit.execute(PayoutCancelDocument, { input: { payoutId: upcoming.id } });
    }
    const rate = (await kit.execute(FxRateDocument, { sourceCurrency: 'USD', destinationCurrency: 'GBP', sourceAmount: '2500' })).data!
      .fxRate!;
    const usdBefore = await balance(kit, 'USD');
    const gbpBefore = await balance(kit, 'GBP');

    const quote = await createQuote(kit, { destinationCurrency: 'GBP', sourceAmount: '2500', conversionSchedule: 'TWO_DAYS' });
    expect(quote.rate).toBe(rate.rate);
    const created = await kit.execute(ConversionCreateDocument, {
      input: { quoteId: quote.id, sourceCurrency: 'USD', destinationCurrency: 'GBP', sourceAmount: '2500' },
    });
    if (created.data!.conversionCreate.__typename !== 'ConversionCreateSuccess') throw new Error(JSON.stringify(created));
    const conversion = created.data!.conversionCreate.conversion;

    await kit.control('POST', 'clock/advance', { days: 1 });
    expect((await kit.execute(ConversionDocument, { id: conversion.id })).data!.conversion!.status).toBe('SCHEDULED');
    await kit.control('POST', 'clock/advance', { days: 2 });
    expect((await kit.execute(ConversionDocument, { id: conversion.id })).data!.conversion!.status).toBe('SETTLED');

    const history = (await kit.execute(BalanceHistoryDocument, { first: 50 })).data!.balanceHistory!.nodes;
    // Creditors keep collecting direct debits while the clock runs: what else moved each balance is
    // in the history, and the conversion must account for exactly the rest.
    const otherMoves = (currency: string) =>
      history
        .filter((h) => h.amount.currency === currency && h.sourceType !== 'CONVERSION' && h.createdAt > conversion.createdAt!)
        .reduce((sum, h) => sum + cents(h.amount.amount), 0);
    expect(cents((await balance(kit, 'USD')).available.amount)).toBe(cents(usdBefore.available.amount) - cents('2500') + otherMoves('USD'));
    expect(cents((await balance(kit, 'GBP')).available.amount)).toBe(
      cents(gbpBefore.available.amount) + cents(quote.destinationAmount.amount) + otherMoves('GBP'),
    );
    const legs = history.filter((h) => h.sourceType === 'CONVERSION').slice(0, 2);
    expect(legs.map((h) => `${h.transactionType} ${h.amount.amount} ${h.amount.currency}`).sort()).toEqual(
      [`CONVERSION_BUY ${quote.destinationAmount.amount} GBP`, 'CONVERSION_SELL -2500 USD'].sort(),
    );
  });

  it('new beneficiary (refused, then valid) → quote → scheduled payout → upcoming → status → cancel', async () => {
    const refused = await kit.execute(BeneficiaryCreateDocument, {
      input: { ...SUPPLIER, beneficiary: { ...SUPPLIER.beneficiary, address: { ...SUPPLIER.beneficiary.address!, postcode: 'TX-78744' } } },
    });
    expect(refused.data!.beneficiaryCreate).toMatchObject({
      __typename: 'ValidationError',
      issues: [{ path: ['input', 'beneficiary', 'address', 'postcode'], upstreamPath: 'beneficiary.address.postcode' }],
    });

    const created = await kit.execute(BeneficiaryCreateDocument, { input: SUPPLIER });
    if (created.data!.beneficiaryCreate.__typename !== 'BeneficiaryCreateSuccess') throw new Error(JSON.stringify(created));
    const beneficiary = created.data!.beneficiaryCreate.beneficiary;

    const quote = await createQuote(kit, {
      quoteType: 'PAYOUT',
      lockPeriod: 'HOUR_1',
      sourceCurrency: 'EUR',
      destinationCurrency: 'USD',
      sourceAmount: '800',
    });
    const scheduled = await kit.execute(PayoutCreateDocument, {
      idempotencyKey: 'initech-invoice-77',
      input: {
        beneficiaryId: beneficiary.id,
        quoteId: quote.id,
        sourceCurrency: 'EUR',
        destinationCurrency: 'USD',
        sourceAmount: '800',
        destinationCountry: 'US',
        feeType: 'SHA',
        transferMethod: 'SWIFT',
        reference: 'Invoice 77',
        sourceOfFunds: 'Business revenue',
        scheduledDate: day(5),
      },
    });
    if (scheduled.data!.payoutCreate.__typename !== 'PayoutCreateSuccess') throw new Error(JSON.stringify(scheduled));
    const payout = scheduled.data!.payoutCreate.payout;
    expect(payout).toMatchObject({ status: 'PENDING', beneficiary: { id: beneficiary.id, companyName: 'Initech LLC' } });

    const upcoming = (await kit.execute(UpcomingPayoutsDocument, { first: 50 })).data!.upcomingPayouts!.nodes;
    expect(upcoming.find((p) => p.id === payout.id)).toMatchObject({
      scheduledDate: day(5),
      sourceAmount: { amount: '800', currency: 'EUR' },
      destinationAmount: quote.destinationAmount,
    });
    expect((await kit.execute(PayoutDocument, { id: payout.id })).data!.payout!.status).toBe('PENDING');

    const cancelled = await kit.execute(PayoutCancelDocument, { input: { payoutId: payout.id } });
    expect(cancelled.data!.payoutCancel).toMatchObject({ __typename: 'PayoutCancelSuccess', result: { payout: { status: 'CANCELLED' } } });
    expect((await kit.execute(PayoutDocument, { id: payout.id })).data!.payout!.status).toBe('CANCELLED');
  });
});
