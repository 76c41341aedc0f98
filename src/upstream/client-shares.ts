/**
 * What each client holds of a bank host's limit on calls in flight, and whether it may take one
 * more (fair-queue.ts asks before every grant). Two rules, both about leaving room for the others:
 *
 * - a fixed cap per client (CLIENT_MAX_UPSTREAM_IN_FLIGHT; 0 = none);
 * - while another client is active, a share of the limit (CLIENT_MAX_SHARE_PERCENT of it, rounded
 *   up; 100 = none). A client alone may fill the whole limit; once another has calls in flight or
 *   waiting, or sent one in the last ACTIVE_MS, the first keeps what it holds but takes no more
 *   than its share, and the slots it leaves free are the other's at once. Round-robin turns alone
 *   (the queue) share only the slots that free up: a client that floods keeps the host's limit full
 *   and the gateway's one thread busy with its answers, and everyone else's calls queue behind that.
 *
 * The gateway's own calls (login, webhook upkeep: OWN_CALLS) count for neither rule.
 */

/** The client of calls made outside any caller's operation. */
export const OWN_CALLS = 'gateway';

/** How long a client that sent a call still counts as active: a sequential client's next operation follows within it. */
export const ACTIVE_MS = 1_000;

export interface ClientShareRules {
  /** The most calls one client may hold; 0 or absent: no cap of its own. */
  perClient?: number | undefined;
  /** Percent of the limit one client may hold while another is active; 100 or absent: all of it. */
  sharePercent?: number | undefined;
  now?: () => number;
}

export class ClientShares {
  readonly #cap: number;
  readonly #share: number;
  readonly #now: () => number;
  /** Calls in flight per client (only clients with some). */
  readonly #held = new Map<string, number>();
  /** When each client last sent or ended a call (the gateway's own calls aside). */
  readonly #lastSeen = new Map<string, number>();

  constructor(rules: ClientShareRules = {}) {
    this.#cap = rules.perClient && rules.perClient > 0 ? rules.perClient : Number.POSITIVE_INFINITY;
    this.#share = rules.sharePercent === undefined ? 1 : Math.min(rules.sharePercent, 100) / 100;
    this.#now = rules.now ?? performance.now.bind(performance);
  }

  /** A call of `client` arrived: it is active. */
  seen(client: string): void {
    if (client !== OWN_CALLS) this.#lastSeen.set(client, this.#now());
  }

  take(client: string): void {
    this.#held.set(client, (this.#held.get(client) ?? 0) + 1);
  }

  release(client: string): void {
    const held = (this.#held.get(client) ?? 1) - 1;
    if (held > 0) this.#held.set(client, held);
    else this.#held.delete(client);
    this.seen(client);
  }

  /** Whether `client` may take one more slot of `limit`; `waiting` says whether a client has calls queued. */
  mayTake(client: string, limit: number, waiting: (client: string) => boolean): boolean {
    const held = this.#held.get(client) ?? 0;
    if (held >= this.#cap) return false;
    if (this.#share >= 1 || client === OWN_CALLS || held < Math.ceil(limit * this.#share)) return true;
    return !this.#othersActive(client, waiting);
  }

  #othersActive(client: string, waiting: (client: string) => boolean): boolean {
    const since = this.#now() - ACTIVE_MS;
    for (const [other, at] of this.#lastSeen) {
      if (other === client) continue;
      if (at >= since || this.#held.has(other) || waiting(other)) return true;
      // Gone quiet: forgotten until its next call.
      this.#lastSeen.delete(other);
    }
    return false;
  }
}
