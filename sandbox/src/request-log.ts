export interface RequestLogEntry {
  method: string;
  /** Without the query string. */
  path: string;
  query: Record<string, string>;
  /** Null when no response was sent (dropped by a fault, or the client went away). */
  status: number | null;
  /** Arrival time on the sandbox clock, ISO 8601. */
  time: string;
  requestId: string | null;
  /** The caller's x-correlation-id (the gateway's own request id), if it sent one. */
  correlationId: string | null;
  /** The caller's W3C `traceparent`, if it sent one: which span of the caller's trace made the call. */
  traceparent: string | null;
  /**
   * The resource headers of the call (x-account-id, x-cardholder-id, x-cardholderHash-id,
   * x-wallet-id, x-on-behalf-of) that were sent: two calls to one path and query are the same read
   * only if these agree too.
   */
  subject: Record<string, string>;
  /** From arrival until the answer was handed to the socket (or the call dropped or abandoned), in ms to two decimals, rounded down. */
  durationMs: number;
}

/** Headers that name the resource a call is about, where the path and query do not. */
export const SUBJECT_HEADERS = ['x-account-id', 'x-cardholder-id', 'x-cardholderhash-id', 'x-wallet-id', 'x-on-behalf-of'] as const;

/**
 * Every API call (control calls excluded), appended when it completes, so every entry is
 * final when read; concurrent calls therefore appear in completion order.
 */
export interface RequestLog {
  record(entry: RequestLogEntry): void;
  list(): RequestLogEntry[];
  clear(): void;
}

// Bounded for long benchmark runs; tests never get near it.
const MAX_ENTRIES = 10_000;

export function createRequestLog(): RequestLog {
  let entries: RequestLogEntry[] = [];
  return {
    record(entry) {
      entries.push(entry);
      if (entries.length > MAX_ENTRIES) entries = entries.slice(-MAX_ENTRIES);
    },
    list: () => entries.map((entry) => ({ ...entry, query: { ...entry.query }, subject: { ...entry.subject } })),
    clear() {
      entries = [];
    },
  };
}
