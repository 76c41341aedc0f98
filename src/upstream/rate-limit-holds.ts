import { UpstreamUnavailableError, type UpstreamErrorDetails } from './errors.ts';
import type { UpstreamFamily } from './families.ts';

/**
 * The Retry-After of a 429, held per family for every call of a runtime: the bank asked the gateway,
 * not one call, to wait.
 */
export class RateLimitHolds {
  readonly #heldUntil = new Map<UpstreamFamily, number>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
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

  /** The RATE_LIMITED failure of a call that may not wait until `until` (a hold, or its own 429's Retry-After). */
  rateLimitedError(until: number, details: UpstreamErrorDetails, cause?: unknown): UpstreamUnavailableError {
    const retryAfterSeconds = Math.max(1, Math.ceil((until - this.#now()) / 1000));
    return new UpstreamUnavailableError(
      'RATE_LIMITED',
      `The bank is rate-limiting the gateway and asked it to wait ${retryAfterSeconds} s, longer than this operation may: try again then`,
      details,
      { retryAfterSeconds, cause },
    );
  }
}
