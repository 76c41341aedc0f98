import { formatApiTime, utcDay } from '../../time.ts';
import type { ConversionRecord } from './types.ts';
import { recordDefault, type EventDefault } from '../../events/defaults.ts';

/** The conversion events of Document 3, section 6, and their data. */
declare module '../../events/bus.ts' {
  interface EventPayloads {
    'conversion.cancelled': ConversionUpdatedData;
    'conversion.overdue': ConversionUpdatedData;
    'conversion.scheduled': ConversionScheduledData;
    'conversion.settled': ConversionUpdatedData;
  }
}

/** Section 6, the fields conversion.scheduled and conversion.settled share. */
interface ConversionFields {
  conversion_id: string;
  short_reference_id: string;
  status: string;
  /** Sell then buy currency, e.g. USDEUR: the client rate is buy units per sell unit. */
  currency_pair: string;
  client_rate: number;
  buy_currency: string;
  buy_amount: number;
  sell_currency: string;
  sell_amount: number;
  conversion_date: string;
}

export interface ConversionScheduledData extends ConversionFields {
  settlement_cutoff_time: string;
  created_at: string;
}

/** conversion.settled; the sandbox gives conversion.cancelled and .overdue the same shape. */
export interface ConversionUpdatedData extends ConversionFields {
  updated_at: string;
}

function conversionFields(conversion: ConversionRecord, status: string): ConversionFields {
  return {
    conversion_id: conversion.id,
    short_reference_id: conversion.systemReferenceNumber,
    status,
    currency_pair: `${conversion.sourceCurrency}${conversion.destinationCurrency}`,
    client_rate: conversion.rate,
    buy_currency: conversion.destinationCurrency,
    buy_amount: conversion.destinationAmount,
    sell_currency: conversion.sourceCurrency,
    sell_amount: conversion.sourceAmount,
    conversion_date: utcDay(conversion.conversionAt),
  };
}

/** The source amount is reserved at once, so the cut-off is the conversion instant itself. */
export function conversionScheduledData(conversion: ConversionRecord): ConversionScheduledData {
  return {
    ...conversionFields(conversion, 'SCHEDULED'),
    settlement_cutoff_time: formatApiTime(conversion.conversionAt),
    created_at: formatApiTime(conversion.createdAt),
  };
}

export function conversionUpdatedData(conversion: ConversionRecord, status: string, at: number): ConversionUpdatedData {
  return { ...conversionFields(conversion, status), updated_at: formatApiTime(at) };
}

const conversionDefault = (status: string): EventDefault =>
  recordDefault(
    'conversion',
    (store) => store.conversions,
    (record, { at }) => (status === 'SCHEDULED' ? conversionScheduledData(record) : conversionUpdatedData(record, status, at)),
  );

export const conversionEventDefaults = {
  'conversion.cancelled': conversionDefault('CANCELLED'),
  'conversion.overdue': conversionDefault('OVERDUE'),
  'conversion.scheduled': conversionDefault('SCHEDULED'),
  'conversion.settled': conversionDefault('SETTLED'),
} satisfies Record<string, EventDefault>;
