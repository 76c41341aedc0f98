import { parse, type ExecutionResult } from 'graphql';
import { describe, expect, it } from 'vitest';
import { liveGroups, type GroupMember } from './groups.ts';

const DOCUMENT = parse('query Dashboard @live { balances { currency } }');
const args = (variableValues: Record<string, unknown> = {}) => ({ document: DOCUMENT, operationName: 'Dashboard', variableValues });
const result = (n: number): ExecutionResult => ({ data: { n } });

/** A store execution the test drives: `push` sends a result, `returned` says whether the group let it go. */
function execution() {
  const queue: ExecutionResult[] = [];
  let wake: (() => void) | undefined;
  const state = { returned: false };
  const stream: AsyncIterableIterator<ExecutionResult> = {
    [Symbol.asyncIterator]: () => stream,
    next: async () => {
      while (queue.length === 0 && !state.returned) await new Promise<void>((resolve) => (wake = resolve));
      return state.returned ? { done: true, value: undefined } : { done: false, value: queue.shift()! };
    },
    return: async () => {
      state.returned = true;
      wake?.();
      return { done: true, value: undefined };
    },
  };
  return {
    stream,
    state,
    push(value: ExecutionResult) {
      queue.push(value);
      wake?.();
    },
  };
}

/** A member whose start makes (and counts) an execution of its own. */
function member() {
  const made: ReturnType<typeof execution>[] = [];
  const self: GroupMember & { made: typeof made } = {
    made,
    start: async () => {
      const run = execution();
      made.push(run);
      return run.stream;
    },
  };
  return self;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('live queries grouped', () => {
  it('runs one execution for identical live queries of one scope, each member receiving every result, a late one the latest at once', async () => {
    const groups = liveGroups();
    const [a, b, c] = [member(), member(), member()];
    const streamA = groups.join(args(), 'ops', a);
    const streamB = groups.join(args(), 'ops', b);
    await tick();
    expect([a.made.length, b.made.length]).toEqual([1, 0]);
    a.made[0]!.push(result(1));
    expect(await Promise.all([streamA.next(), streamB.next()])).toEqual([
      { done: false, value: result(1) },
      { done: false, value: result(1) },
    ]);
    const streamC = groups.join(args(), 'ops', c);
    expect(await streamC.next()).toEqual({ done: false, value: result(1) });
    a.made[0]!.push(result(2));
    expect((await Promise.all([streamA.next(), streamB.next(), streamC.next()])).map((step) => step.value)).toEqual([
      result(2),
      result(2),
      result(2),
    ]);
    expect(c.made).toHaveLength(0);
    expect(groups.size()).toBe(1);
  });

  it('keeps apart another scope, other variables and another document', async () => {
    const groups = liveGroups();
    const members = [member(), member(), member(), member()];
    groups.join(args(), 'ops', members[0]!);
    groups.join(args(), 'cardholder chd_1', members[1]!);
    groups.join(args({ first: 2 }), 'ops', members[2]!);
    groups.join({ ...args(), document: parse('query Dashboard @live { balances { currency } }') }, 'ops', members[3]!);
    await tick();
    expect(members.map((m) => m.made.length)).toEqual([1, 1, 1, 1]);
    expect(groups.size()).toBe(4);
  });

  it('starts again with the next member when the one whose context reads leaves, and lets go of everything when the last leaves', async () => {
    const groups = liveGroups();
    const [a, b] = [member(), member()];
    const streamA = groups.join(args(), 'ops', a);
    const streamB = groups.join(args(), 'ops', b);
    await tick();
    await streamA.return!();
    await tick();
    expect(a.made[0]!.state.returned).toBe(true);
    expect(b.made).toHaveLength(1);
    b.made[0]!.push(result(3));
    expect(await streamB.next()).toEqual({ done: false, value: result(3) });
    await streamB.return!();
    await tick();
    expect(b.made[0]!.state.returned).toBe(true);
    expect(groups.size()).toBe(0);
  });

  it('gives a member that has not read the last result only the newest one', async () => {
    const groups = liveGroups();
    const a = member();
    const stream = groups.join(args(), 'ops', a);
    await tick();
    for (const n of [1, 2, 3]) a.made[0]!.push(result(n));
    await tick();
    expect(await stream.next()).toEqual({ done: false, value: result(3) });
  });

  it('fails every member when the execution fails', async () => {
    const groups = liveGroups();
    const failing: GroupMember = { start: async () => Promise.reject(new Error('no bank')) };
    const [streamA, streamB] = [groups.join(args(), 'ops', failing), groups.join(args(), 'ops', member())];
    await expect(streamA.next()).rejects.toThrow('no bank');
    await expect(streamB.next()).rejects.toThrow('no bank');
  });
});
