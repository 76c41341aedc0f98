import { LRUCache } from 'lru-cache';
import { entryBound } from '../platform/lru-bounds.ts';
import { ClientShares, type ClientShareRules } from './client-shares.ts';

/** Who is asking for a slot: the caller (API key, JWT subject, bank user) and its GraphQL operation. */
export interface SlotOwner {
  client: string;
  operation: string;
}

interface Waiter {
  grant(): void;
  refuse(reason: unknown): void;
}

/**
 * One operation's calls waiting for a slot, oldest first, and the signal they all leave on: one
 * listener for the lot while any waits, rather than one added and removed per call.
 */
interface OperationQueue {
  /** The operation's signal when its calls carry one (two operations under one request id are two queues), else its key. */
  key: string | AbortSignal;
  waiters: Waiter[];
  /** Stops listening to the signal, once no call of it waits. */
  unwatch: () => void;
}

/** One client's waiting operations: those under way take turns; new ones wait their turn. */
interface ClientQueue {
  key: string;
  /** Operations with a call already sent, each served once per cycle. */
  underWay: OperationQueue[];
  next: number;
  /** Operations whose first call still waits, in order of arrival. */
  fresh: OperationQueue[];
  byOperation: Map<string | AbortSignal, OperationQueue>;
  /** Its calls waiting. */
  live: number;
}

/** A call outside an operation (no signal): its client and key. */
const operationKeyOf = (owner: SlotOwner) => `${owner.client}\u0000${owner.operation}`;

/** How long an operation with nothing in flight still counts as under way (its next round of calls), where no signal marks it. */
const UNDER_WAY_MS = 60_000;
const UNDER_WAY_MAX = 10_000;

/** The queue's bounds: the host's limit (read at each grant: it adapts) and one client's part of it (client-shares.ts). */
export interface FairQueueLimits extends Omit<ClientShareRules, 'now'> {
  limit: () => number;
  /** A call had to wait because its client holds its part, not for the limit. */
  onHeld?: (() => void) | undefined;
}

/**
 * The queue in front of a bank host's concurrency limit. When the limit is reached, the next free
 * slot goes:
 * 1. to the next client in turn: clients with waiting calls take turns, one slot each, so one
 *    client's flood cannot starve another's one-call query;
 * 2. within that client, to its operations already under way (a call of theirs was sent), which take
 *    turns one slot each, so an operation that started finishes before new ones pile up on top; after
 *    every full turn of them one new operation sends its first call, so a new operation waits at
 *    most one slot per operation under way and no operation's tail grows without bound.
 * A client that holds its part of the limit (client-shares.ts: its share while others are active,
 * or its own cap) sits its turns out: its next call waits for one of its own to end, even with
 * slots free, and the free slots stay for the other clients. A call waits rather than fails:
 * refusing one call of an operation would fail half an operation whose other calls went through.
 * When no call may be served before it, a call takes a free slot at once. When a signal aborts
 * (the operation's deadline passed, its client left), every call of it still waiting leaves the
 * queue without a slot, at once.
 *
 * A slot freed by an operation that stopped (a read cut, a queue left when its client left or its
 * deadline passed) goes to the next call two turns of the event loop later, once the I/O already
 * waiting has been taken in, not in the middle of it: when a burst of clients leaves,
 * the reads cut for the first ones free slots while the others' leaving is still unread on their
 * sockets, and handing those slots out at once sent the calls of clients already gone (issue 39:
 * 200 clients leaving together made 25-70 such calls; test/processes/aborted-burst.test.ts).
 */
export class FairQueue {
  readonly #limit: () => number;
  readonly #shares: ClientShares;
  readonly #onHeld: () => void;
  #inFlight = 0;
  #queued = 0;
  readonly #clients: ClientQueue[] = [];
  #nextClient = 0;
  readonly #byClient = new Map<string, ClientQueue>();
  /**
   * Operations that have sent a call: their next calls count as under way. An operation's calls
   * carry its signal (upstream/operation.ts), which marks it for its life at the cost of a WeakSet
   * entry; calls without one (the gateway's own) are marked by client and key for UNDER_WAY_MS.
   */
  readonly #startedOperations = new WeakSet<AbortSignal>();
  readonly #started = new LRUCache<string, true>({ ...entryBound(UNDER_WAY_MAX), ttl: UNDER_WAY_MS });
  /** A drain is due (drainSoon). */
  #drainDue = false;

  constructor(limits: FairQueueLimits | (() => number)) {
    const { limit, onHeld, ...rules } = typeof limits === 'function' ? { limit: limits, onHeld: undefined } : limits;
    this.#limit = limit;
    this.#onHeld = onHeld ?? (() => {});
    this.#shares = new ClientShares(rules);
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  get queued(): number {
    return this.#queued;
  }

  /** Waiting calls whose client holds its part of the limit (they wait for its own, not for the limit). */
  get heldByClientShare(): number {
    let held = 0;
    for (const client of this.#clients) {
      if (!this.#mayTake(client.key)) held += client.live;
    }
    return held;
  }

  /**
   * Resolves once the call may be sent: with 0 when a slot was free, else with the demand the call
   * met when the host's limit held it back (calls in flight and waiting then, itself included; 0
   * when only its client's part did: the bank had room). The caller must `release(owner.client)` once the call is over.
   * Rejects with the signal's reason if that aborts first.
   */
  acquire(owner: SlotOwner, signal?: AbortSignal): Promise<number> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return this.tryTake(owner, signal) ? Promise.resolve(0) : this.wait(owner, signal, (demand) => demand);
  }

  /**
   * Takes a free slot for the call at once, when one is free and no waiting call may go before it:
   * then true, and the caller must `release(owner.client)` once the call is over. Otherwise false,
   * and the call is to `wait`. `signal` must not have aborted. The split lets a caller that finds a
   * slot free go on with no promise at all (most calls of a quiet host).
   */
  tryTake(owner: SlotOwner, signal: AbortSignal | undefined): boolean {
    this.#shares.seen(owner.client);
    // Calls that may go before this one are served first: a slot still free after them is free for
    // this call, unless its client holds its part (then its own calls, if any wait, were not served either).
    this.drain();
    if (this.#inFlight < this.#limit() && this.#mayTake(owner.client)) {
      this.#occupy(owner.client);
      this.#markStarted(owner, signal);
      return true;
    }
    return false;
  }

  /**
   * After `tryTake` found no slot: waits in turn, and resolves with what `granted` makes of the
   * demand the call met (see `acquire`) when its slot is granted; rejects with the signal's reason
   * if that aborts first.
   */
  wait<T>(owner: SlotOwner, signal: AbortSignal | undefined, granted: (demand: number) => T): Promise<T> {
    const demand = this.#inFlight < this.#limit() ? 0 : this.#inFlight + this.#queued + 1;
    if (!this.#mayTake(owner.client)) this.#onHeld();
    return new Promise<T>((resolve, reject) => {
      const grant = () => {
        this.#markStarted(owner, signal);
        resolve(granted(demand));
      };
      this.#enqueue(owner, { grant, refuse: reject }, signal);
    });
  }

  #markStarted(owner: SlotOwner, signal: AbortSignal | undefined): void {
    if (signal) this.#startedOperations.add(signal);
    else this.#started.set(operationKeyOf(owner), true);
  }

  #hasStarted(owner: SlotOwner, signal: AbortSignal | undefined): boolean {
    return signal ? this.#startedOperations.has(signal) : this.#started.has(operationKeyOf(owner));
  }

  /**
   * A call of `client` is over: its slot goes to the next waiting call in turn; for a call its
   * operation stopped (`stopped`: its client left, its deadline passed), once the I/O waiting now is
   * taken in.
   */
  release(client: string, stopped = false): void {
    this.#inFlight -= 1;
    this.#shares.release(client);
    if (stopped) this.#drainSoon();
    else this.drain();
  }

  /** One drain for every slot freed in this turn of the event loop, none when nothing waits. */
  #drainSoon(): void {
    if (this.#drainDue || this.#queued === 0) return;
    this.#drainDue = true;
    // Two turns, not one: a client's leaving reaches its operation a turn after its socket's end is
    // read, when node:http has closed the response (the request's signal fires on that close).
    setImmediate(() =>
      setImmediate(() => {
        this.#drainDue = false;
        this.drain();
      }),
    );
  }

  /** Hands out free slots (after a release, or when the limit rose). */
  drain(): void {
    while (this.#queued > 0 && this.#inFlight < this.#limit()) {
      const taken = this.#take();
      if (!taken) return;
      this.#queued -= 1;
      this.#occupy(taken.client);
      taken.waiter.grant();
    }
  }

  #mayTake(client: string): boolean {
    return this.#shares.mayTake(client, this.#limit(), (other) => this.#byClient.has(other));
  }

  #occupy(client: string): void {
    this.#inFlight += 1;
    this.#shares.take(client);
  }

  #enqueue(owner: SlotOwner, waiter: Waiter, signal: AbortSignal | undefined): void {
    const clientKey = owner.client;
    let client = this.#byClient.get(clientKey);
    if (!client) {
      client = { key: clientKey, underWay: [], next: 0, fresh: [], byOperation: new Map(), live: 0 };
      this.#byClient.set(clientKey, client);
      this.#clients.push(client);
    }
    const key = signal ?? operationKeyOf(owner);
    let operation = client.byOperation.get(key);
    if (!operation) {
      operation = { key, waiters: [], unwatch: () => {} };
      client.byOperation.set(key, operation);
      (this.#hasStarted(owner, signal) ? client.underWay : client.fresh).push(operation);
      this.#watch(client, operation, signal);
    }
    operation.waiters.push(waiter);
    client.live += 1;
    this.#queued += 1;
  }

  #watch(client: ClientQueue, operation: OperationQueue, signal: AbortSignal | undefined): void {
    if (!signal) return;
    const leave = () => this.#leave(client, operation, signal.reason);
    signal.addEventListener('abort', leave, { once: true });
    operation.unwatch = () => signal.removeEventListener('abort', leave);
  }

  /** The operation's signal aborted: its waiting calls leave, refused with its reason, holding nothing. */
  #leave(client: ClientQueue, operation: OperationQueue, reason: unknown): void {
    const { waiters } = operation;
    this.#queued -= waiters.length;
    client.live -= waiters.length;
    operation.waiters = [];
    const underWay = client.underWay.indexOf(operation);
    if (underWay >= 0) {
      client.underWay.splice(underWay, 1);
      if (underWay < client.next) client.next -= 1;
    } else client.fresh.splice(client.fresh.indexOf(operation), 1);
    client.byOperation.delete(operation.key);
    if (client.byOperation.size === 0) this.#removeClient(client);
    for (const waiter of waiters) waiter.refuse(reason);
    // The client gone from the queue may have been what held another to its share.
    this.#drainSoon();
  }

  #removeClient(client: ClientQueue): void {
    const index = this.#clients.indexOf(client);
    this.#clients.splice(index, 1);
    if (index < this.#nextClient) this.#nextClient -= 1;
    this.#byClient.delete(client.key);
  }

  /** The next waiting call in turn, with its client; undefined when every client left waiting has its cap of calls in flight. */
  #take(): { waiter: Waiter; client: string } | undefined {
    let skipped = 0;
    while (this.#clients.length > 0 && skipped < this.#clients.length) {
      if (this.#nextClient >= this.#clients.length) this.#nextClient = 0;
      const client = this.#clients[this.#nextClient]!;
      if (!this.#mayTake(client.key)) {
        // It holds its part: its turn passes to the next client until one of its calls ends.
        this.#nextClient += 1;
        skipped += 1;
        continue;
      }
      const waiter = this.#takeFrom(client);
      if (client.byOperation.size === 0) {
        this.#clients.splice(this.#nextClient, 1);
        this.#byClient.delete(client.key);
      } else if (waiter) {
        this.#nextClient += 1;
      }
      if (waiter) return { waiter, client: client.key };
    }
    return undefined;
  }

  /** The client's next waiting call in turn; undefined once it has none (every operation in its lists has one at least). */
  #takeFrom(client: ClientQueue): Waiter | undefined {
    if (client.byOperation.size === 0) return undefined;
    // A full turn of the operations under way is over (or there are none): one new operation's go.
    const freshTurn = client.fresh.length > 0 && client.next >= client.underWay.length;
    if (client.next >= client.underWay.length) client.next = 0;
    const list = freshTurn ? client.fresh : client.underWay;
    const index = freshTurn ? 0 : client.next;
    const operation = list[index]!;
    const waiter = operation.waiters.shift()!;
    if (operation.waiters.length === 0) {
      list.splice(index, 1);
      client.byOperation.delete(operation.key);
      operation.unwatch();
    } else if (freshTurn) {
      // Its first call is sent: the rest wait with the operations under way, at the end of the turn.
      list.splice(index, 1);
      client.underWay.push(operation);
    } else {
      client.next += 1;
    }
    client.live -= 1;
    return waiter;
  }
}
