import type { ExecutionArgs, ExecutionResult } from 'graphql';
import { plainData, selectionKeys } from '../events/shared-execution.ts';
import { asError } from '../platform/as-error.ts';

/**
 * Identical live queries as one: the same document, operation and variables, from callers in the
 * same scope (their bank view, permissions and cardholder binding: the key of shared subscription
 * events, events/shared-execution.ts) have the same result whenever it is made. A thousand open
 * copies of one dashboard are one execution in the store and one stream of results, which every
 * member receives: one re-run per event instead of a thousand, and one set of what it read.
 * Written by hand: the store (@n1ru4l/in-memory-live-query-store) runs each live query on its own.
 *
 * One member leads: its context makes the reads (its caller's view, the same as every member's).
 * When the leader leaves and others stay, the next one starts the execution again with its own
 * context, so no read runs for a client that is gone. Each member keeps what is its own: its
 * limits, its credential's expiry and its log line (engine.ts, pushes.ts).
 */

export interface GroupMember {
  /** Starts the live execution with this member's context: a stream of results, or one result when it cannot stream. */
  start(): Promise<AsyncIterable<ExecutionResult> | ExecutionResult>;
}

export interface LiveGroups {
  /** The stream `member` receives in the group of `args` in `scope`; returning it leaves the group. */
  join(
    args: Pick<ExecutionArgs, 'document' | 'operationName' | 'variableValues'>,
    scope: string,
    member: GroupMember,
  ): AsyncIterableIterator<ExecutionResult>;
  /** Groups with a member: executions in the store. */
  size(): number;
}

export function liveGroups(): LiveGroups {
  const groups = new Map<string, Group>();
  const keyOf = selectionKeys();
  return {
    join: (args, scope, member) => {
      const key = keyOf(args, scope);
      let group = groups.get(key);
      if (!group) {
        const made: Group = new Group(() => {
          if (groups.get(key) === made) groups.delete(key);
        });
        groups.set(key, (group = made));
      }
      return group.join(member);
    },
    size: () => groups.size,
  };
}

class Group {
  readonly #members = new Map<GroupMember, Inbox>();
  readonly #emptied: () => void;
  #latest: ExecutionResult | undefined;
  #leader: GroupMember | undefined;
  #source: AsyncIterator<ExecutionResult> | undefined;
  /** Which execution is current: one that was replaced stops passing its results on. */
  #run = 0;

  constructor(emptied: () => void) {
    this.#emptied = emptied;
  }

  join(member: GroupMember): Inbox {
    const inbox = new Inbox(() => this.#leave(member));
    this.#members.set(member, inbox);
    // What the others see now: nothing it read has changed since, or the group would be re-running.
    if (this.#latest) inbox.put(this.#latest);
    if (!this.#leader) this.#lead(member);
    return inbox;
  }

  #leave(member: GroupMember): void {
    this.#members.delete(member);
    if (this.#members.size === 0) {
      this.#stop();
      this.#emptied();
    } else if (member === this.#leader) {
      this.#stop();
      this.#lead(this.#members.keys().next().value!);
    }
  }

  #lead(member: GroupMember): void {
    this.#leader = member;
    const run = ++this.#run;
    void this.#pump(member, run).catch((error: unknown) => {
      if (run !== this.#run) return;
      // Every member's stream ends with it; one that joins after starts the execution afresh.
      this.#stop();
      this.#latest = undefined;
      for (const inbox of [...this.#members.values()]) inbox.fail(asError(error));
      this.#members.clear();
    });
  }

  async #pump(member: GroupMember, run: number): Promise<void> {
    const outcome = await member.start();
    if (!(Symbol.asyncIterator in outcome)) {
      if (run === this.#run) for (const inbox of this.#members.values()) inbox.last(outcome);
      return;
    }
    const source = outcome[Symbol.asyncIterator]();
    if (run !== this.#run) return void source.return?.();
    this.#source = source;
    for (;;) {
      const step = await source.next();
      if (step.done || run !== this.#run) return;
      // In plain objects once: every member serialises it (events/shared-execution.ts's plainData).
      const result = plainData(step.value) as ExecutionResult;
      this.#latest = result;
      for (const inbox of this.#members.values()) inbox.put(result);
    }
  }

  #stop(): void {
    this.#run += 1;
    this.#leader = undefined;
    void this.#source?.return?.();
    this.#source = undefined;
  }
}

/**
 * One member's stream of the group's results. A live query shows the state of things, so a member
 * that has not read the last result yet gets only the newest one: a slow client never piles up
 * results it would show one after another.
 */
class Inbox implements AsyncIterableIterator<ExecutionResult> {
  readonly #left: () => void;
  #pending: { result: ExecutionResult; last: boolean } | undefined;
  #failure: { error: Error } | undefined;
  #waiting: { resolve: (step: IteratorResult<ExecutionResult>) => void; reject: (error: unknown) => void } | undefined;
  #done = false;
  #gone = false;

  constructor(left: () => void) {
    this.#left = left;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<ExecutionResult> {
    return this;
  }

  put(result: ExecutionResult): void {
    this.#deliver(result, false);
  }

  /** A result after which nothing comes (an execution that could not stream). */
  last(result: ExecutionResult): void {
    this.#deliver(result, true);
  }

  fail(error: Error): void {
    if (this.#done) return;
    const waiting = this.#waiting;
    if (!waiting) return void (this.#failure = { error });
    this.#waiting = undefined;
    waiting.reject(error);
  }

  #deliver(result: ExecutionResult, last: boolean): void {
    if (this.#done) return;
    const waiting = this.#waiting;
    if (!waiting) return void (this.#pending = { result, last });
    this.#waiting = undefined;
    if (last) this.#done = true;
    waiting.resolve({ done: false, value: result });
  }

  next(): Promise<IteratorResult<ExecutionResult>> {
    if (this.#failure) return Promise.reject(this.#failure.error);
    const pending = this.#pending;
    if (pending) {
      this.#pending = undefined;
      if (pending.last) this.#done = true;
      return Promise.resolve({ done: false, value: pending.result });
    }
    if (this.#done) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => (this.#waiting = { resolve, reject }));
  }

  /** The member leaves: its group lets go of it (once), and a read waiting for a result ends. */
  return(): Promise<IteratorResult<ExecutionResult>> {
    if (!this.#gone) {
      this.#gone = true;
      this.#done = true;
      this.#pending = undefined;
      this.#waiting?.resolve({ done: true, value: undefined });
      this.#waiting = undefined;
      this.#left();
    }
    return Promise.resolve({ done: true, value: undefined });
  }
}
