/**
 * How a paged list is ordered. The documents give no order for any list and the gateway cannot sort
 * across pages it has not read, so the descriptions say what is true: the bank's order.
 */
export const BANK_ORDER = "In the bank's order (the documents give none; the sandbox lists newest first).";

/**
 * A whole list the gateway holds at once, sorted by `at`: `latest` first or `earliest` first.
 * Records without a time come last, in the bank's order.
 */
export function sortedByTime<T>(items: readonly T[], at: (item: T) => Date | string | null | undefined, first: 'latest' | 'earliest'): T[] {
  const time = (item: T) => {
    const value = at(item);
    return value == null ? Number.NaN : new Date(value).getTime();
  };
  return items.toSorted((a, b) => {
    const [x, y] = [time(a), time(b)];
    if (Number.isNaN(x) || Number.isNaN(y)) return Number(Number.isNaN(x)) - Number(Number.isNaN(y));
    return first === 'latest' ? y - x : x - y;
  });
}
