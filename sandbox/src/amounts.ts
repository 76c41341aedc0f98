import { badRequest } from './http.ts';
import { toCents } from './money.ts';
import { midRate, minorUnits, roundHalfUp } from './rates.ts';

/** Card amounts: minor units of the currency, and conversion between a card's currencies. */

/** The rule an amount breaks when it has more decimals than its currency; null when none. */
export function minorUnitsProblem(amount: number, currency: string): string | null {
  const decimals = minorUnits(currency);
  return roundHalfUp(amount, decimals) === amount ? null : `must have at most ${decimals} decimal place(s) for ${currency}`;
}

export function assertMinorUnits(field: string, amount: number, currency: string): void {
  const problem = minorUnitsProblem(amount, currency);
  if (problem !== null) throw badRequest(`${field} ${problem}`);
}

export function hasRate(from: string, to: string): boolean {
  try {
    midRate(from, to);
    return true;
  } catch {
    return false;
  }
}

/**
 * An amount in another currency at the mid rate, rounded to the target's minor units. Card
 * networks convert at their own rates; the sandbox uses its fixed table (rates.ts).
 */
export function convertedCents(cents: number, from: string, to: string): number {
  if (from === to) return cents;
  return toCents(roundHalfUp((cents / 100) * midRate(from, to), minorUnits(to)));
}
