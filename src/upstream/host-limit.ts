import type { ConcurrencyConfig } from '../config.ts';
import { AdaptiveLimit, type LimitSignal } from './adaptive-limit.ts';
import { FairQueue, type SlotOwner } from './fair-queue.ts';
import type { HostLimitReading, UpstreamObserver } from './observer.ts';

export type { LimitSignal, SlotOwner };

/** A slot to send one attempt in; `release` says what the bank's answer told of its load, and whether the call's operation stopped it. */
export interface Slot {
  release(signal: LimitSignal, endpoint: string, stopped?: boolean): void;
}

/**
 * One bank host's concurrency limit: the adaptive limit (adaptive-limit.ts) and the fair queue in
 * front of it (fair-queue.ts). Every connection of the runtime to the same host shares it.
 */
export class HostLimit {
  readonly #limit: AdaptiveLimit;
  readonly #queue: FairQueue;
  readonly #host: string;
  readonly #observer: UpstreamObserver;

  constructor(host: string, options: ConcurrencyConfig, observer: UpstreamObserver) {
    this.#host = host;
    this.#observer = observer;
    this.#limit = new AdaptiveLimit(options);
    this.#queue = new FairQueue({
      limit: () => this.#limit.value,
      perClient: options.perClient,
      sharePercent: options.sharePercent,
      onHeld: () => observer.heldByClientShare?.(host),
    });
    observer.hostLimit?.(host, () => this.state);
  }

  /** The limit in force, the calls in flight and those waiting (and of them, those held by their client's cap). */
  get state(): HostLimitReading {
    return { limit: this.#limit.value, inFlight: this.#queue.inFlight, queued: this.#queue.queued, heldByClientShare: this.#queue.heldByClientShare };
  }

  /** Waits for a slot in turn; rejects with the signal's reason if it aborts first. */
  async acquire(owner: SlotOwner, signal?: AbortSignal): Promise<Slot> {
    const queuedAt = performance.now();
    const demand = await this.#queue.acquire(owner, signal);
    const sentAt = performance.now();
    const inFlight = this.#queue.inFlight;
    this.#observer.queueWait?.(this.#host, sentAt - queuedAt);
    let released = false;
    return {
      release: (answer, endpoint, stopped = false) => {
        if (released) return;
        released = true;
        this.#limit.record({ signal: answer, endpoint, sentAt, endedAt: performance.now(), demand, inFlight });
        // After the record: a raised limit lets more than the one freed slot go.
        this.#queue.release(owner.client, stopped);
      },
    };
  }
}
