/**
 * What the calls to the bank report as they go, for metrics and readiness. The stages call these
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

/** One bank host's concurrency limit as it stands (host-limit.ts). */
export interface HostLimitReading {
  limit: number;
  inFlight: number;
  queued: number;
  /** Of the calls queued, those waiting only because their client has its cap of calls in flight. */
  heldByClientShare: number;
}

export interface UpstreamObserver {
  call(record: UpstreamCallRecord): void;
  breaker(family: string, state: BreakerState): void;
  /** A host's concurrency limit came to be: `read` gives its state whenever metrics are scraped. */
  hostLimit?(host: string, read: () => HostLimitReading): void;
  /** How long an attempt waited for a slot under its host's limit (0 when one was free). */
  queueWait?(host: string, ms: number): void;
  /** A call had to wait for its own client's calls to end (CLIENT_MAX_UPSTREAM_IN_FLIGHT), not for the host's limit. */
  heldByClientShare?(host: string): void;
  /** A query's or mutation's client left before it was done (operation.ts): its calls were stopped. */
  operationAbandoned?(): void;
  /** An answer of `endpoint` was checked whole against its model (contract-checks.ts). */
  contractCheck?(endpoint: string): void;
  /** A whole check found a field of an answer of `endpoint` breaking its rule; `path` with its array indexes collapsed (`data[].status`). */
  contractViolation?(endpoint: string, path: string): void;
}

export const NO_OBSERVER: UpstreamObserver = { call: () => {}, breaker: () => {} };
