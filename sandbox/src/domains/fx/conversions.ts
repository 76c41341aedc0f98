import { conversionScheduledData, conversionUpdatedData } from './events.ts';
import { toCents } from '../../money.ts';
import { scheduleJob, type JobHandler } from '../../scheduler.ts';
import type { SandboxStore } from '../../store.ts';
import { formatApiTime } from '../../time.ts';
import { post, reserve, settleReserved, type Posting } from '../../ledger.ts';
import { claimQuote } from './quote-use.ts';
import type { ConversionRecord, QuoteRecord } from './types.ts';

/**
 * Conversion states: `processing` in the create response only; SCHEDULED while waiting for
 * its instant (the source amount sits in reserved_amount); SETTLED at the instant, when the
 * reserve is released, the destination credited and both legs written to the history.
 * An immediate conversion passes through SCHEDULED at once.
 */
export const SETTLE_CONVERSION = 'conversion.settle';

export interface ConversionIds {
  id: string;
  systemReferenceNumber: string;
}

/**
 * Reserves the source amount (throws the insufficient-funds 400 first), uses up the quote and
 * schedules the settlement. The instant is the one the quote's schedule implied when it was
 * generated, or now when that has passed (an immediate quote, or one used late).
 */
export function openConversion(
  store: SandboxStore,
  quote: QuoteRecord,
  now: number,
  ids: ConversionIds = newConversionIds(store),
  createdTimeShown = true,
): ConversionRecord {
  reserve(store, quote.sourceCurrency, toCents(quote.sourceAmount));
  claimQuote(quote, ids.id);
  const conversion: ConversionRecord = {
    ...ids,
    status: 'SCHEDULED',
    quoteId: quote.id,
    sourceCurrency: quote.sourceCurrency,
    destinationCurrency: quote.destinationCurrency,
    sourceAmount: quote.sourceAmount,
    destinationAmount: quote.destinationAmount,
    rate: quote.rate,
    conversionAt: Math.max(quote.conversionAt, now),
    createdAt: now,
    createdTimeShown,
  };
  store.conversions.set(conversion.id, conversion);
  scheduleJob(store, { kind: SETTLE_CONVERSION, subjectId: conversion.id, at: conversion.conversionAt });
  store.events.emit('conversion.scheduled', conversionScheduledData(conversion), conversion.id, now);
  return conversion;
}

function newConversionIds(store: SandboxStore): ConversionIds {
  const taken = (reference: string): boolean =>
    [...store.conversions.values()].some((conversion) => conversion.systemReferenceNumber === reference);
  return { id: store.newId('cnv'), systemReferenceNumber: store.newReference('CNV', taken) };
}

export const settleConversion: JobHandler = (store, job) => {
  const conversion = store.conversions.get(job.subjectId);
  if (conversion?.status !== 'SCHEDULED') return;
  const leg = {
    feeCents: 0,
    description: `Currency conversion from ${conversion.sourceCurrency} into ${conversion.destinationCurrency}`,
    source_type: 'CONVERSION',
    at: job.at,
  } satisfies Partial<Posting>;
  settleReserved(store, {
    ...leg,
    currency: conversion.sourceCurrency,
    cents: -toCents(conversion.sourceAmount),
    transaction_type: 'CONVERSION_SELL',
  });
  post(store, {
    ...leg,
    currency: conversion.destinationCurrency,
    cents: toCents(conversion.destinationAmount),
    transaction_type: 'CONVERSION_BUY',
  });
  conversion.status = 'SETTLED';
  store.events.emit('conversion.settled', conversionUpdatedData(conversion, 'SETTLED', job.at), conversion.id, job.at);
};

/** The create response: snake keys and status `processing`. */
export function createdConversion(conversion: ConversionRecord) {
  return {
    id: conversion.id,
    status: 'processing',
    conversion_time: formatApiTime(conversion.conversionAt),
    source_currencycode: conversion.sourceCurrency,
    destination_currencycode: conversion.destinationCurrency,
    source_amount: conversion.sourceAmount,
    destination_amount: conversion.destinationAmount,
    quote_id: conversion.quoteId,
    net_exchangerate: conversion.rate,
    system_reference_number: conversion.systemReferenceNumber,
    createdTime: formatApiTime(conversion.createdAt),
  };
}

/** Get and list entries: camel keys and the stored status. */
export function conversionView(conversion: ConversionRecord) {
  return {
    id: conversion.id,
    status: conversion.status,
    conversionTime: formatApiTime(conversion.conversionAt),
    sourceCurrencycode: conversion.sourceCurrency,
    destinationCurrencycode: conversion.destinationCurrency,
    sourceAmount: conversion.sourceAmount,
    destinationAmount: conversion.destinationAmount,
    quoteId: conversion.quoteId,
    netExchangerate: conversion.rate,
    systemReferenceNumber: conversion.systemReferenceNumber,
    createdTime: conversion.createdTimeShown ? formatApiTime(conversion.createdAt) : null,
  };
}
