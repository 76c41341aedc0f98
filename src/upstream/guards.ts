import { DEFAULT_RESILIENCE, type ResilienceConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import { CircuitBreaker } from './breaker.ts';
import type { Endpoint, HeaderSet } from './endpoint.ts';
import { UpstreamUnavailableError, type UpstreamErrorDetails } from './errors.ts';
import { NO_OBSERVER, type BreakerState, type UpstreamObserver } from './observer.ts';
import { DEFAULT_RETRY_BUDGET, RetryBudget, type RetryBudgetConfig } from './retry.ts';

/**
 * Upstream families: the parts of the bank that fail (and rate-limit) independently, told apart by
 * the header set their endpoints take, which follows the documents' own split.
 * - banking: Documents 1 and 2 under the standard headers (accounts, balances, beneficiaries, FX,
 *   payouts, cards, cardholders): without it the gateway is of no use (/readyz says 503).
 * - auth: the login endpoint; its failure stops every call that needs a new token.
 * - issuing: wallets and KYC (Document 2's x-client-id family).
 * - webhooks: Document 3's webhook management.
 * - direct-debit: Document 3's direct debit family, on its own base address.
 */
const FAMILIES = ['banking', 'auth', 'issuing', 'webhooks', 'direct-debit'] as const;
export type UpstreamFamily = (typeof FAMILIES)[number];

const FAMILY_OF: Record<HeaderSet, UpstreamFamily> = {
  standard: 'banking',
  login: 'auth',
  issuing: 'issuing',
  webhook: 'webhooks',
  'direct-debit': 'direct-debit',
};

export function familyOf(ep: Endpoint<unknown>): UpstreamFamily {
  return FAMILY_OF[ep.headers];
}

export interface UpstreamGuardsOptions {
  resilience?: ResilienceConfig;
  retryBudget?: RetryBudgetConfig;
  observer?: UpstreamObserver;
  logger?: Logger;
  now?: () => number;
}

/**
 * What every upstream call of one runtime shares, whichever connection pool it uses: a circuit
 * breaker and a Retry-After hold per family, the retry budget, and the observer (metrics).
 */
export class UpstreamGuards {
  readonly observer: UpstreamObserver;
  readonly retryBudget: RetryBudget;
  /** The operation deadline's length, for messages. */
  readonly operationDeadlineMs: number;
  readonly #breakers = new Map<UpstreamFamily, CircuitBreaker>();
  readonly #heldUntil = new Map<UpstreamFamily, number>();
  readonly #answeredAt = new Map<string, number>();
  readonly #now: () => number;

  constructor(options: UpstreamGuardsOptions = {}) {
    const resilience = options.resilience ?? DEFAULT_RESILIENCE;
    const now = options.now ?? Date.now;
    const observer = options.observer ?? NO_OBSERVER;
    // Every call passes here: readiness learns from real traffic that the bank answers.
    this.observer = {
      call: (record) => {
        if (typeof record.status === 'number' && record.status < 500) this.#answeredAt.set(record.family, now());
        observer.call(record);
      },
      breaker: (family, state) => observer.breaker(family, state),
      hostLimit: (host, read) => observer.hostLimit?.(host, read),
      queueWait: (host, ms) => observer.queueWait?.(host, ms),
      heldByClientShare: (host) => observer.heldByClientShare?.(host),
      operationAbandoned: () => observer.operationAbandoned?.(),
    };
    this.#now = now;
    this.operationDeadlineMs = resilience.operationDeadlineMs;
    this.retryBudget = new RetryBudget(options.retryBudget ?? DEFAULT_RETRY_BUDGET, now);
    for (const family of FAMILIES) {
      const onChange = (state: BreakerState) => {
        const log = options.logger;
        if (state === 'open') log?.warn({ family }, 'upstream circuit breaker opened: calls fail fast');
        else log?.info({ family, state }, `upstream circuit breaker ${state}`);
        this.observer.breaker(family, state);
      };
      this.#breakers.set(family, new CircuitBreaker(resilience.breaker, onChange, now));
      // Metrics start from a known state rather than from the first change.
      this.observer.breaker(family, 'closed');
    }
  }

  breaker(family: UpstreamFamily): CircuitBreaker {
    return this.#breakers.get(family)!;
  }

  breakerStates(): Record<UpstreamFamily, BreakerState> {
    return Object.fromEntries(FAMILIES.map((family) => [family, this.breaker(family).state])) as Record<UpstreamFamily, BreakerState>;
  }

  /** When the family last gave a usable answer (any status under 500), epoch ms; undefined if never. */
  lastAnsweredAt(family: UpstreamFamily): number | undefined {
    return this.#answeredAt.get(family);
  }

  /** A 429 asked the family to wait until `until` (epoch ms): every call of it waits too. */
  holdOff(family: UpstreamFamily, until: number): void {
    if (until > (this.#heldUntil.get(family) ?? 0)) this.#heldUntil.set(family, until);
  }

  /** Until when calls of the family must wait, if they must. */
  heldUntil(family: UpstreamFamily): number | undefined {
    const until = this.#heldUntil.get(family);
    if (until === undefined || until <= this.#now()) return undefined;
    return until;
  }

  circuitOpen(family: UpstreamFamily, details: UpstreamErrorDetails): UpstreamUnavailableError {
    const retryAfterSeconds = Math.max(1, Math.ceil(this.breaker(family).retryAfterMs / 1000));
    return new UpstreamUnavailableError(
      'CIRCUIT_OPEN',
      `The bank's ${family} service is failing, so the gateway is not calling it for now (circuit breaker open): try again in ${retryAfterSeconds} s`,
      details,
      { retryAfterSeconds },
    );
  }

  rateLimited(until: number, details: UpstreamErrorDetails, cause?: unknown): UpstreamUnavailableError {
    const retryAfterSeconds = Math.max(1, Math.ceil((until - this.#now()) / 1000));
    return new UpstreamUnavailableError(
      'RATE_LIMITED',
      `The bank is rate-limiting the gateway and asked it to wait ${retryAfterSeconds} s, longer than this operation may: try again then`,
      details,
      { retryAfterSeconds, cause },
    );
  }

  deadlineExceeded(details: UpstreamErrorDetails, inFlight: boolean): UpstreamUnavailableError {
    return new UpstreamUnavailableError(
      'DEADLINE_EXCEEDED',
      `The bank did not answer within ${this.operationDeadlineMs} ms, this operation's deadline`,
      details,
      { inFlight },
    );
  }
}
