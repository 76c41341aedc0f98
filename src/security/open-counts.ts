/** Counts of things held open (live queries, subscriptions) by a key (a caller, a connection), forgetting a key at zero. */
export class OpenCounts<K> {
  readonly #counts = new Map<K, number>();
  count = (key: K) => this.#counts.get(key) ?? 0;
  add(key: K, delta: number): void {
    const next = this.count(key) + delta;
    if (next <= 0) this.#counts.delete(key);
    else this.#counts.set(key, next);
  }
}

/**
 * The connection an operation came on: the socket of a WebSocket or of an HTTP request (every
 * operation of one WebSocket shares it), else its request, else its context.
 */
export function connectionOf(context: { request?: Request; req?: { socket?: object } }): object {
  return context.req?.socket ?? context.request ?? context;
}
