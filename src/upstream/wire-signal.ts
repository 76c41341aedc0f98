/**
 * An operation's signal as its reads on the wire listen to it (exchange.ts). Each exchange listens
 * to its cut while it is on the wire and stops when its answer is in; on an AbortSignal that is
 * Node's addAbortListener and EventTarget's bookkeeping, paid each way on every read
 * (docs/architecture.md, "Measured costs"). Here, a Set of the reads' listeners behind one listener
 * on the operation's signal, added with the first read; `reason` is the signal's once it aborted.
 */
export class WireSignal {
  readonly #signal: AbortSignal;
  #listeners: Set<() => void> | undefined;

  constructor(signal: AbortSignal) {
    this.#signal = signal;
  }

  /** Whether the operation's signal aborted: a read that has not started yet is never sent. */
  get aborted(): boolean {
    return this.#signal.aborted;
  }

  /** The operation signal's reason, once it aborted: the read fails with it. */
  get reason(): unknown {
    return this.#signal.reason;
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.#listeners === undefined) {
      this.#listeners = new Set();
      this.#signal.addEventListener('abort', () => this.#abort(), { once: true });
    }
    this.#listeners.add(listener);
    // The send stage looks at the signal just before, in the same turn: this is for a caller that did not.
    if (this.#signal.aborted) queueMicrotask(() => this.#abort());
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.#listeners?.delete(listener);
  }

  #abort(): void {
    const listeners = [...(this.#listeners ?? [])];
    this.#listeners?.clear();
    for (const listener of listeners) listener();
  }
}
