import type { BreakerConfig } from '../settings/index.ts';
import type { BreakerState } from './observer.ts';
import { RollingCounts } from './rolling-window.ts';

/**
 * A circuit breaker for one upstream family. Closed: calls go through and their outcomes are counted
 * over the last `windowMs`; once at least `minCalls` were counted and at least `errorRate` of them
 * failed, it opens. Open: calls are refused without reaching the bank. After `openMs` it is half-open:
 * one call (the probe) goes through; its success closes the breaker, its failure opens it again.
 *
 * Written here rather than with opossum: opossum compares the rate strictly (`>`), counts refused
 * calls as "fires" (diluting the rate it reopens on), runs interval timers per breaker that need
 * shutting down, and cannot release a probe that never reached the bank. The rule above fits in this
 * class, with time injected so tests step it instead of sleeping.
 */
export type Verdict = 'success' | 'failure' | 'none';

/** Leave to send one call; settle it with what happened (once). */
export interface BreakerPermit {
  /** The single call let through while half-open. */
  readonly probe: boolean;
  /**
   * `failure`: network, timeout or 5xx. `success`: any answer (a 4xx too: the bank is up and said no).
   * `none`: the call never reached the bank (e.g. its deadline passed while queued): not counted.
   */
  settle(verdict: Verdict): void;
}

export class CircuitBreaker {
  readonly #config: BreakerConfig;
  readonly #onChange: (state: BreakerState) => void;
  readonly #now: () => number;
  readonly #counts: RollingCounts<'calls' | 'failures'>;
  #state: BreakerState = 'closed';
  #openedAt = 0;
  #probing = false;

  constructor(config: BreakerConfig, onChange: (state: BreakerState) => void = () => {}, now: () => number = Date.now) {
    if (!(config.errorRate > 0 && config.errorRate <= 1)) throw new RangeError(`errorRate must be in (0, 1], got ${config.errorRate}`);
    if (!(config.minCalls >= 1)) throw new RangeError(`minCalls must be at least 1, got ${config.minCalls}`);
    this.#config = config;
    this.#onChange = onChange;
    this.#now = now;
    this.#counts = new RollingCounts(config.windowMs, now);
  }

  /** The state now: an open breaker whose openMs has passed reads (and becomes) half-open. */
  get state(): BreakerState {
    if (this.#state === 'open' && this.#now() - this.#openedAt >= this.#config.openMs) this.#set('half-open');
    return this.#state;
  }

  /** How long until a call may go through again (0 when one may now). */
  get retryAfterMs(): number {
    const state = this.state;
    if (state === 'open') return this.#openedAt + this.#config.openMs - this.#now();
    // Half-open with the probe out: its answer decides; a second or so is a fair guess.
    return state === 'half-open' && this.#probing ? 1_000 : 0;
  }

  /** Leave for one call, or undefined when refused (open, or half-open with the probe already out). */
  acquire(): BreakerPermit | undefined {
    const state = this.state;
    if (state === 'open') return undefined;
    if (state === 'closed') return this.#permit(false);
    if (this.#probing) return undefined;
    this.#probing = true;
    return this.#permit(true);
  }

  #permit(probe: boolean): BreakerPermit {
    let settled = false;
    return {
      probe,
      settle: (verdict) => {
        if (settled) return;
        settled = true;
        if (probe) this.#settleProbe(verdict);
        else this.#record(verdict);
      },
    };
  }

  #settleProbe(verdict: Verdict): void {
    this.#probing = false;
    if (verdict === 'success') this.#close();
    else if (verdict === 'failure') this.#open();
    // 'none': the probe never reached the bank; the next call probes instead.
  }

  #record(verdict: Verdict): void {
    // Calls let through before the breaker opened say nothing new once it has.
    if (this.#state !== 'closed' || verdict === 'none') return;
    this.#counts.add('calls');
    if (verdict === 'failure') this.#counts.add('failures');
    const calls = this.#counts.total('calls');
    if (calls >= this.#config.minCalls && this.#counts.total('failures') / calls >= this.#config.errorRate) this.#open();
  }

  #open(): void {
    this.#openedAt = this.#now();
    this.#counts.clear();
    this.#set('open');
  }

  #close(): void {
    this.#counts.clear();
    this.#set('closed');
  }

  #set(state: BreakerState): void {
    if (state === this.#state) return;
    this.#state = state;
    this.#onChange(state);
  }
}
