import type { BreakerConfig } from '../settings/index.ts';
import type { Logger } from '../platform/logger.ts';
import { CircuitBreaker } from './circuit-breaker.ts';
import { UpstreamUnavailableError, type UpstreamErrorDetails } from './errors.ts';
import { FAMILIES, type UpstreamFamily } from './families.ts';
import type { BreakerState, UpstreamObserver } from './observer.ts';

/** A circuit breaker per upstream family, shared by every call of a runtime; each change is logged and reported. */
export class FamilyBreakers {
  readonly #breakers = new Map<UpstreamFamily, CircuitBreaker>();

  constructor(config: BreakerConfig, observer: UpstreamObserver, logger?: Logger, now: () => number = Date.now) {
    for (const family of FAMILIES) {
      const onChange = (state: BreakerState) => {
        if (state === 'open') logger?.warn({ family }, 'upstream circuit breaker opened: calls fail fast');
        else logger?.info({ family, state }, `upstream circuit breaker ${state}`);
        observer.breaker(family, state);
      };
      this.#breakers.set(family, new CircuitBreaker(config, onChange, now));
      // Metrics start from a known state rather than from the first change.
      observer.breaker(family, 'closed');
    }
  }

  get(family: UpstreamFamily): CircuitBreaker {
    return this.#breakers.get(family)!;
  }

  states(): Record<UpstreamFamily, BreakerState> {
    return Object.fromEntries(FAMILIES.map((family) => [family, this.get(family).state])) as Record<UpstreamFamily, BreakerState>;
  }

  /** The CIRCUIT_OPEN failure of a call the family's breaker refused, saying when to try again. */
  openError(family: UpstreamFamily, details: UpstreamErrorDetails): UpstreamUnavailableError {
    const retryAfterSeconds = Math.max(1, Math.ceil(this.get(family).retryAfterMs / 1000));
    return new UpstreamUnavailableError(
      'CIRCUIT_OPEN',
      `The bank's ${family} service is failing, so the gateway is not calling it for now (circuit breaker open): try again in ${retryAfterSeconds} s`,
      details,
      { retryAfterSeconds },
    );
  }
}
