/** Which limit a new place would go past: its caller's, or its connection's. */
export type PlaceRefusal = 'per_caller' | 'per_connection';

/** Counts of places held by a key (a caller, a connection), forgetting a key at zero. */
class OpenCounts<K> {
  readonly #counts = new Map<K, number>();
  count = (key: K) => this.#counts.get(key) ?? 0;
  add(key: K, delta: number): void {
    const next = this.count(key) + delta;
    if (next <= 0) this.#counts.delete(key);
    else this.#counts.set(key, next);
  }
}

/**
 * Places held open (live queries, subscriptions), at most so many per caller on this instance and
 * per connection. The one piece the live queries' limits and the subscriptions' share.
 */
export class OpenPlaces {
  readonly #perCaller = new OpenCounts<string>();
  readonly #perConnection = new OpenCounts<object>();
  readonly #limits: { perCaller: number; perConnection: number };

  constructor(limits: { perCaller: number; perConnection: number }) {
    this.#limits = limits;
  }

  /** The limit a new place of `client` on `connection` would go past, if any (the caller's first). */
  refusal(client: string, connection: object): PlaceRefusal | undefined {
    if (this.#perCaller.count(client) >= this.#limits.perCaller) return 'per_caller';
    return this.#perConnection.count(connection) >= this.#limits.perConnection ? 'per_connection' : undefined;
  }

  /** What a client reads of a refusal: the limit it met, and a sentence naming the setting (`settings`) and what is held. */
  described(reason: PlaceRefusal, settings: Record<PlaceRefusal, string>, held: string): { limit: number; message: string } {
    const [limit, who] =
      reason === 'per_caller' ? [this.#limits.perCaller, 'This caller'] : [this.#limits.perConnection, 'This connection'];
    return { limit, message: `${who} already holds ${limit} open ${held} (${settings[reason]}): end one before starting another` };
  }

  /** Takes a place, counted at once (places taken together count each other); what it returns frees it, once. */
  take(client: string, connection: object): () => void {
    this.#perCaller.add(client, 1);
    this.#perConnection.add(connection, 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.#perCaller.add(client, -1);
      this.#perConnection.add(connection, -1);
    };
  }
}

/**
 * The connection an operation came on: the socket of a WebSocket or of an HTTP request (every
 * operation of one WebSocket shares it), else its request, else its context.
 */
export function connectionOf(context: { request?: Request; req?: { socket?: object } }): object {
  return context.req?.socket ?? context.request ?? context;
}
