import { LRUCache } from 'lru-cache';

/** Who is asking for a slot: the caller (API key, JWT subject, bank user) and its GraphQL operation. */
export interface SlotOwner {
  client: string;
  operation: string;
}

interface Waiter {
  grant(): void;
  cancelled: boolean;
}

/** One operation's calls waiting for a slot, oldest first. */
interface OperationQueue {
  key: string;
  waiters: Waiter[];
}

/** One client's waiting operations: those under way take turns; new ones wait their turn. */
interface ClientQueue {
  key: string;
  /** Operations with a call already sent, each served once per cycle. */
  underWay: OperationQueue[];
  next: number;
  /** Operations whose first call still waits, in order of arrival. */
  fresh: OperationQueue[];
  byOperation: Map<string, OperationQueue>;
}

/** How long an operation with nothing in flight still counts as under way (its next round of calls). */
const UNDER_WAY_MS = 60_000;
const UNDER_WAY_MAX = 10_000;

/**
 * The queue in front of a bank host's concurrency limit. When the limit is reached, the next free
 * slot goes:
 * 1. to the next client in turn: clients with waiting calls take turns, one slot each, so one
 *    client's flood cannot starve another's one-call query;
 * 2. within that client, to its operations already under way (a call of theirs was sent), which take
 *    turns one slot each, so an operation that started finishes before new ones pile up on top; after
 *    every full turn of them one new operation sends its first call, so a new operation waits at
 *    most one slot per operation under way and no operation's tail grows without bound.
 * When no call waits, a call takes a free slot at once. A call whose signal aborts while it waits
 * leaves the queue without a slot.
 */
export class FairQueue {
  readonly #limit: () => number;
  #inFlight = 0;
  #queued = 0;
  readonly #clients: ClientQueue[] = [];
  #nextClient = 0;
  readonly #byClient = new Map<string, ClientQueue>();
  /** Operations that have sent a call lately: their next calls count as under way. */
  readonly #started = new LRUCache<string, true>({ max: UNDER_WAY_MAX, ttl: UNDER_WAY_MS });

  constructor(limit: () => number) {
    this.#limit = limit;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  get queued(): number {
    return this.#queued;
  }

  /**
   * Resolves once the call may be sent: with 0 when a slot was free, else with the demand the call
   * met when it had to wait (calls in flight and waiting then, itself included). The caller must
   * `release()` once the call is over. Rejects with the signal's reason if that aborts first.
   */
  acquire(owner: SlotOwner, signal?: AbortSignal): Promise<number> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const operationKey = `${owner.client}\u0000${owner.operation}`;
    if (this.#queued === 0 && this.#inFlight < this.#limit()) {
      this.#inFlight += 1;
      this.#started.set(operationKey, true);
      return Promise.resolve(0);
    }
    const demand = this.#inFlight + this.#queued + 1;
    return new Promise<number>((resolve, reject) => {
      const onAbort = () => {
        waiter.cancelled = true;
        this.#queued -= 1;
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        cancelled: false,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          this.#started.set(operationKey, true);
          resolve(demand);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#enqueue(owner.client, operationKey, waiter);
    });
  }

  /** A call is over: its slot goes to the next waiting call in turn. */
  release(): void {
    this.#inFlight -= 1;
    this.drain();
  }

  /** Hands out free slots (after a release, or when the limit rose). */
  drain(): void {
    while (this.#queued > 0 && this.#inFlight < this.#limit()) {
      const waiter = this.#take();
      if (!waiter) return;
      this.#queued -= 1;
      this.#inFlight += 1;
      waiter.grant();
    }
  }

  #enqueue(clientKey: string, operationKey: string, waiter: Waiter): void {
    let client = this.#byClient.get(clientKey);
    if (!client) {
      client = { key: clientKey, underWay: [], next: 0, fresh: [], byOperation: new Map() };
      this.#byClient.set(clientKey, client);
      this.#clients.push(client);
    }
    let operation = client.byOperation.get(operationKey);
    if (!operation) {
      operation = { key: operationKey, waiters: [] };
      client.byOperation.set(operationKey, operation);
      (this.#started.has(operationKey) ? client.underWay : client.fresh).push(operation);
    }
    operation.waiters.push(waiter);
    this.#queued += 1;
  }

  /** The next waiting call in turn, or undefined when only cancelled ones were left. */
  #take(): Waiter | undefined {
    while (this.#clients.length > 0) {
      if (this.#nextClient >= this.#clients.length) this.#nextClient = 0;
      const client = this.#clients[this.#nextClient]!;
      const waiter = this.#takeFrom(client);
      if (client.byOperation.size === 0) {
        this.#clients.splice(this.#nextClient, 1);
        this.#byClient.delete(client.key);
      } else if (waiter) {
        this.#nextClient += 1;
      }
      if (waiter) return waiter;
    }
    return undefined;
  }

  #takeFrom(client: ClientQueue): Waiter | undefined {
    while (client.byOperation.size > 0) {
      // A full turn of the operations under way is over (or there are none): one new operation's go.
      const freshTurn = client.fresh.length > 0 && client.next >= client.underWay.length;
      if (client.next >= client.underWay.length) client.next = 0;
      const list = freshTurn ? client.fresh : client.underWay;
      const index = freshTurn ? 0 : client.next;
      const operation = list[index]!;
      const waiter = operation.waiters.shift();
      if (operation.waiters.length === 0) {
        list.splice(index, 1);
        client.byOperation.delete(operation.key);
      } else if (freshTurn) {
        // Its first call is sent: the rest wait with the operations under way, at the end of the turn.
        list.splice(index, 1);
        client.underWay.push(operation);
      } else {
        client.next += 1;
      }
      if (waiter && !waiter.cancelled) return waiter;
    }
    return undefined;
  }
}
