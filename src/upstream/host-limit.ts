import type { ConcurrencyConfig } from '../settings/index.ts';
import { AdaptiveLimit, type LimitSignal } from './adaptive-limit.ts';
import { FairQueue, type SlotOwner } from './fair-queue.ts';
import type { HostLimitReading, UpstreamObserver } from './observer.ts';

export type { SlotOwner };

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
    return {
      limit: this.#limit.value,
      inFlight: this.#queue.inFlight,
      queued: this.#queue.queued,
      heldByClientShare: this.#queue.heldByClientShare,
    };
  }

  /**
   * A slot: at once when one is free and no waiting call goes first (no promise: most calls of a
   * quiet host), else a promise of one in turn, which rejects with the signal's reason if it aborts
   * first (as it does at once for a signal already aborted).
   */
  acquire(owner: SlotOwner, signal?: AbortSignal): Slot | Promise<Slot> {
    const queuedAt = performance.now();
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (this.#queue.tryTake(owner, signal)) return this.#granted(owner, queuedAt, 0);
    return this.#queue.wait(owner, signal, (demand) => this.#granted(owner, queuedAt, demand));
  }

  #granted(owner: SlotOwner, queuedAt: number, demand: number): Slot {
    const sentAt = performance.now();
    this.#observer.queueWait?.(this.#host, sentAt - queuedAt);
    return new GrantedSlot(this.#limit, this.#queue, owner.client, sentAt, demand, this.#queue.inFlight);
  }
}

/**
 * A slot granted: what its release tells the adaptive limit (the call's latency, the demand it met,
 * the calls in flight when it went) and frees in the queue, once. A class, not a closure over the
 * grant: one object per call rather than a closure, its context and an object.
 */
class GrantedSlot implements Slot {
  readonly #limit: AdaptiveLimit;
  readonly #queue: FairQueue;
  readonly #client: string;
  readonly #sentAt: number;
  readonly #demand: number;
  readonly #inFlight: number;
  #released = false;

  constructor(limit: AdaptiveLimit, queue: FairQueue, client: string, sentAt: number, demand: number, inFlight: number) {
    this.#limit = limit;
    this.#queue = queue;
    this.#client = client;
    this.#sentAt = sentAt;
    this.#demand = demand;
    this.#inFlight = inFlight;
  }

  release(answer: LimitSignal, endpoint: string, stopped = false): void {
    if (this.#released) return;
    this.#released = true;
    this.#limit.record({
      signal: answer,
      endpoint,
      sentAt: this.#sentAt,
      endedAt: performance.now(),
      demand: this.#demand,
      inFlight: this.#inFlight,
    });
    // After the record: a raised limit lets more than the one freed slot go.
    this.#queue.release(this.#client, stopped);
  }
}
