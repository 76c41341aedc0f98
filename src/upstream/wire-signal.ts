/**
 * An operation's signal as its reads on the wire listen to it. undici adds an abort listener to the
 * signal of every request and removes it when the answer is in; on an AbortSignal that is Node's
 * addAbortListener and EventTarget's bookkeeping, a few microseconds each way (about 2 % of a
 * dashboard's CPU, with its nine reads). An object that has addEventListener and no `aborted` is an
 * EventTarget to undici (util.addAbortListener in undici/lib/core/util.js): here, a Set of the
 * reads' listeners behind one listener on the operation's signal, added with the first read.
 */
export class WireSignal {
  /** The operation signal's reason, once it aborted: undici fails the read with it. */
  reason: unknown = undefined;
  readonly #signal: AbortSignal;
  #listeners: Set<() => void> | undefined;

  constructor(signal: AbortSignal) {
    this.#signal = signal;
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
    this.reason = this.#signal.reason;
    const listeners = [...(this.#listeners ?? [])];
    this.#listeners?.clear();
    for (const listener of listeners) listener();
  }
}
