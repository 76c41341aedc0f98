export const DAY_MS = 86_400_000;

/** The contract's date-time form, `yyyy-MM-ddTHH:mm:ss+0000`, always in UTC. */
export function formatApiTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}+0000`;
}

/** The UTC calendar day of an instant, as YYYY-MM-DD. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/**
 * Midnight UTC of a YYYY-MM-DD day, or null when the text is not a real calendar day
 * (the round trip rejects 2024-02-30, which Date.UTC would silently roll over).
 */
export function parseDay(text: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return utcDay(ms) === text ? ms : null;
}

/** Document 2's card form, `yyyy-MM-ddTHH:mm:ss.SSS+0000`, in UTC. */
export function formatMillisTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}+0000`;
}

/** Document 2's cardholder form, `yyyy-MM-ddTHH:mm:ss` with no offset; the sandbox means UTC. */
export function formatLocalTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/**
 * `yyyy-MM-ddTHH:mm:ss` in UTC, followed by `suffix` (`Z`, or nothing), as epoch ms; null when
 * the text has another form or is no real instant (the round trip rejects 2026-02-30).
 */
export function parseSecondTime(text: string, suffix: 'Z' | ''): number | null {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(Z?)$/.exec(text);
  if (match?.[2] !== suffix) return null;
  const ms = Date.parse(`${match[1]}Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 19) === match[1] ? ms : null;
}
