/** Amounts are doubles in the contract; arithmetic is done in integer cents to avoid drift. */
export function toCents(amount: number): number {
  return Math.round(amount * 100);
}

export function fromCents(cents: number): number {
  return cents / 100;
}
