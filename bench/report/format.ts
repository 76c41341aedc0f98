/** How the report writes figures: milliseconds, megabytes, shares and rates, Markdown tables, verdict cells. */

/** Milliseconds, to two decimals under 10 ms and one above: enough to tell tenths of a millisecond apart. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value < 10 ? value.toFixed(2) : value.toFixed(1);
}

/** A figure to `digits` decimals, or n/a where there is none (NaN, Infinity). */
export const fixed = (value: number, digits = 2): string => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

export const mb = (value: number | null): string => (value === null || !Number.isFinite(value) ? 'n/a' : `${Math.round(value)} MB`);
export const pct = (value: number): string => `${Math.round(value * 100)} %`;
export const rps = (value: number): string => (value >= 100 ? String(Math.round(value)) : value.toFixed(1));
export const signed = (value: number): string => `${value >= 0 ? '+' : '−'}${ms(Math.abs(value))}`;
export const spare = (measured: number, limit: number): string =>
  measured <= limit ? `${ms(limit - measured)} ms to spare` : `${ms(measured - limit)} ms over ${ms(limit)} ms`;

/** A Markdown table. */
export const table = (header: string[], rows: string[][]): string =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');

/** A target's verdict cell: met or not, and why. */
export const verdict = (met: boolean, detail: string): string => (met ? `**met** (${detail})` : `**not met** (${detail})`);

/** A verdict's note that bare Yoga's own figure (`bare`, NaN when not measured) is over the `limit` by itself; '' when it is not. */
export const bareAloneOver = (bare: number, limit: number): string => (bare > limit ? `, bare Yoga alone ${ms(bare - limit)} ms over` : '');

/**
 * The verdict of a time over its floor held against bare Yoga's own over its floor in the same run,
 * plus `allowance` ms: what graphql-yoga costs any server on that path is the floor's part, the
 * allowance the gateway's. `bareOver` NaN: bare Yoga was not measured, so there is no floor.
 */
export function overBareVerdict(over: number, bareOver: number, allowance: number): string {
  if (!Number.isFinite(bareOver)) return verdict(false, 'no floor: bare Yoga not measured');
  const limit = bareOver + allowance;
  return verdict(over <= limit, `${spare(over, limit)} (bare Yoga's +${ms(bareOver)} ms + ${ms(allowance)} ms)`);
}
