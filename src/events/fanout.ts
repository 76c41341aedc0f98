import { asError } from '../platform/as-error.ts';
import type { LogEntry, PublishedEvent } from './log.ts';

/**
 * Hands each delivered event to this process's open subscriptions. Every subscription is a small
 * queue of its own (not a chain of generic async iterators: with a thousand subscribers each layer
 * costs a thousand promise turns per event), and each gets the same event object, so an operation
 * can be resolved once per event and selection, not once per subscriber.
 *
 * A subscriber that falls MAX_PENDING events behind (a stalled client) is ended rather than let to
 * grow without bound: its last item is a `FellBehind` marker, which the schema turns into an error
 * naming the cursor to resume after.
 */

export const MAX_PENDING = 5_000;

/** Ends a subscription that could not keep up; `resumeAfter` is the cursor of the last event it was given. */
export interface FellBehind {
  fellBehind: true;
  resumeAfter: string | null;
}

export type Delivery = PublishedEvent | FellBehind;

export function isFellBehind(delivery: Delivery): delivery is FellBehind {
  return (delivery as FellBehind).fellBehind === true;
}

export interface SubscriptionOptions {
  /** Only events this accepts are queued. */
  filter?: ((event: PublishedEvent) => boolean) | undefined;
}

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/** One open subscription. While held, live events wait aside until the replay before them is known. */
class Subscriber implements AsyncIterableIterator<Delivery> {
  readonly #filter: ((event: PublishedEvent) => boolean) | undefined;
  readonly #onEnd: (subscriber: Subscriber) => void;
  #queue: Delivery[] = [];
  #waiting: ((result: IteratorResult<Delivery>) => void) | undefined;
  #ended = false;
  #held: LogEntry[] | undefined;
  /** Live entries this accepts are queued; the rest were replayed already. */
  #isNew: (entry: LogEntry) => boolean = () => true;
  #lastCursor: string | null = null;

  constructor(options: SubscriptionOptions, onEnd: (subscriber: Subscriber) => void) {
    this.#filter = options.filter;
    this.#onEnd = onEnd;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** A live entry: queued now, set aside while held, or skipped when replayed already. */
  offer(entry: LogEntry): void {
    if (this.#ended) return;
    if (this.#held) this.#held.push(entry);
    else if (this.#isNew(entry)) this.#push(entry.event);
  }

  hold(): void {
    this.#held = [];
  }

  /** Queues the replayed events, then the live ones set aside that `isNew` accepts, and goes live. */
  release(replay: readonly PublishedEvent[], isNew: (entry: LogEntry) => boolean): void {
    this.#isNew = isNew;
    const held = this.#held ?? [];
    this.#held = undefined;
    for (const event of replay) this.#push(event);
    for (const entry of held) if (isNew(entry)) this.#push(entry.event);
  }

  #push(event: PublishedEvent): void {
    if (this.#ended || (this.#filter && !this.#filter(event))) return;
    if (this.#waiting) {
      const wake = this.#waiting;
      this.#waiting = undefined;
      this.#lastCursor = event.cursor;
      wake({ done: false, value: event });
      return;
    }
    if (this.#queue.length >= MAX_PENDING) return this.#fellBehind();
    this.#queue.push(event);
  }

  #fellBehind(): void {
    // Events queued but not given out are dropped: the marker says where the client really is.
    this.#queue = [{ fellBehind: true, resumeAfter: this.#lastCursor }];
    this.#finish();
  }

  next(): Promise<IteratorResult<Delivery>> {
    const item = this.#queue.shift();
    if (item !== undefined) {
      if (!isFellBehind(item)) this.#lastCursor = item.cursor;
      return Promise.resolve({ done: false, value: item });
    }
    if (this.#ended) return Promise.resolve(DONE);
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }

  /** Ends at once: a pending `next` resolves done, so the client gets a proper completion. */
  return(): Promise<IteratorResult<Delivery>> {
    this.#queue = [];
    this.#finish();
    return Promise.resolve(DONE);
  }

  throw(error?: unknown): Promise<IteratorResult<Delivery>> {
    this.#queue = [];
    this.#finish();
    return Promise.reject(asError(error));
  }

  #finish(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#onEnd(this);
    const wake = this.#waiting;
    this.#waiting = undefined;
    wake?.(DONE);
  }
}

export type { Subscriber };

export class Fanout {
  readonly #subscribers = new Set<Subscriber>();

  get size(): number {
    return this.#subscribers.size;
  }

  open(options: SubscriptionOptions = {}): Subscriber {
    const subscriber = new Subscriber(options, (s) => this.#subscribers.delete(s));
    this.#subscribers.add(subscriber);
    return subscriber;
  }

  deliver(entry: LogEntry): void {
    for (const subscriber of this.#subscribers) subscriber.offer(entry);
  }

  /** Completes every open subscription (graceful stop). */
  async endAll(): Promise<void> {
    await Promise.allSettled([...this.#subscribers].map((subscriber) => subscriber.return()));
  }
}
