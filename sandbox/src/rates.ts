/**
 * The FX rate table and its rounding. Mid rates are fixed, so every rate and quote is
 * reproducible in tests; cross rates go through USD.
 */
const UNITS_PER_USD: Readonly<Record<string, number>> = {
  USD: 1,
  EUR: 0.92,
  GBP: 0.79,
  SGD: 1.34,
  HKD: 7.8,
  JPY: 150,
  AUD: 1.52,
  CAD: 1.36,
  CHF: 0.88,
  CNY: 7.2,
  INR: 83,
};

export const FX_CURRENCIES = Object.keys(UNITS_PER_USD) as [string, ...string[]];

/** The bank's margin: the client gets 0.4 % less than the mid rate. */
const SPREAD = 0.004;
/** "6 significant decimals" is read as 6 decimal places: 1 USD = 0.916320 EUR. */
const RATE_DECIMALS = 6;

const ZERO_DECIMAL_CURRENCIES = new Set(['JPY']);

/** Decimal places of a currency's minor unit. */
export function minorUnits(currency: string): number {
  return ZERO_DECIMAL_CURRENCIES.has(currency) ? 0 : 2;
}

/** Half away from zero; the 12-digit pass drops binary noise such as 1.005 * 100 = 100.4999... */
export function roundHalfUp(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(Number((value * factor).toPrecision(12))) / factor;
}

export function midRate(source: string, destination: string): number {
  const from = UNITS_PER_USD[source];
  const to = UNITS_PER_USD[destination];
  if (from === undefined || to === undefined) throw new RangeError(`no rate for ${source}/${destination}`);
  return to / from;
}

/** Destination units per source unit, spread included. */
function netRate(source: string, destination: string): number {
  return roundHalfUp(midRate(source, destination) * (1 - SPREAD), RATE_DECIMALS);
}

export function formatRate(rate: number): string {
  return rate.toFixed(RATE_DECIMALS);
}

/** An amount as decimal text with its currency's minor units, e.g. "1000.00", "150000". */
export function formatAmount(amount: number, currency: string): string {
  return amount.toFixed(minorUnits(currency));
}

/** Which side of a trade the client fixed; the other is computed from the rate. */
export interface FixedAmount {
  side: 'source' | 'destination';
  amount: number;
}

export interface Priced {
  rate: number;
  sourceAmount: number;
  destinationAmount: number;
}

/** The computed side is rounded half-up to its own currency's minor units. */
export function price(source: string, destination: string, fixed: FixedAmount): Priced {
  const rate = netRate(source, destination);
  if (fixed.side === 'source') {
    return { rate, sourceAmount: fixed.amount, destinationAmount: roundHalfUp(fixed.amount * rate, minorUnits(destination)) };
  }
  return { rate, sourceAmount: roundHalfUp(fixed.amount / rate, minorUnits(source)), destinationAmount: fixed.amount };
}
