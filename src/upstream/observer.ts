/**
 * What the upstream client reports as it works, for metrics and readiness. The client calls these
 * synchronously; an observer must be cheap and never throw.
 */
export type BreakerState = 'closed' | 'open' | 'half-open';

export interface UpstreamCallRecord {
  /** Logical endpoint, e.g. `GET /svc/api/v1/account`. */
  endpoint: string;
  /** The breaker family the endpoint belongs to. */
  family: string;
  /** HTTP status, or why there was none (`rate-limited`: not sent, a 429's Retry-After outlasts the call). */
  status: number | 'network' | 'timeout' | 'circuit-open' | 'deadline' | 'rate-limited';
  /** Wall time of this attempt (0 for calls refused without being sent). */
  durationMs: number;
}

export interface UpstreamObserver {
  call(record: UpstreamCallRecord): void;
  breaker(family: string, state: BreakerState): void;
}

export const NO_OBSERVER: UpstreamObserver = { call: () => {}, breaker: () => {} };
