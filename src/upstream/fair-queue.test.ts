import { describe, expect, it } from 'vitest';
import { FairQueue, type SlotOwner } from './fair-queue.ts';

/** A queue with a fixed limit, and a log of the order slots were granted in. */
function setup(limit: number) {
  const queue = new FairQueue(() => limit);
  const granted: string[] = [];
  const ask = (client: string, operation: string, label = `${client}/${operation}`, signal?: AbortSignal) => {
    const owner: SlotOwner = { client, operation };
    const slot = queue.acquire(owner, signal);
    void slot.then(() => granted.push(label), () => {});
    return slot;
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { queue, granted, ask, settle };
}

describe('FairQueue', () => {
  it('never grants more than the limit, and frees a slot per release', async () => {
    const { queue, ask, settle, granted } = setup(3);
    for (let i = 0; i < 10; i++) void ask('c', 'op', `call ${i}`);
    await settle();
    expect([queue.inFlight, queue.queued, granted.length]).toEqual([3, 7, 3]);
    queue.release();
    await settle();
    expect([queue.inFlight, queue.queued, granted.length]).toEqual([3, 6, 4]);
    for (let i = 0; i < 9; i++) queue.release();
    await settle();
    expect([queue.inFlight, queue.queued, granted.length]).toEqual([0, 0, 10]);
  });

  it('says what demand a call met when the limit held it back: calls in flight and waiting, itself included', async () => {
    const { ask, queue } = setup(2);
    expect(await ask('c', 'a')).toBe(0);
    expect(await ask('c', 'a')).toBe(0);
    const first = ask('c', 'a');
    const second = ask('c', 'a');
    queue.release();
    queue.release();
    expect([await first, await second]).toEqual([3, 4]);
  });

  it("lets a one-call query of another client in before the rest of a client's 50-call fan-out", async () => {
    const { queue, ask, settle, granted } = setup(5);
    for (let i = 0; i < 50; i++) void ask('alice', 'fan-out', 'fan-out');
    void ask('bob', 'one-call', 'bob');
    await settle();
    queue.release();
    queue.release();
    await settle();
    // Five fan-out calls took the free slots; of the next two, bob's is one.
    expect(granted.slice(5, 7)).toEqual(['fan-out', 'bob']);
  });

  it("lets a client's new one-call query in after one turn of its operations under way, not after all their calls", async () => {
    const { queue, ask, settle, granted } = setup(2);
    for (let i = 0; i < 20; i++) void ask('c', 'big', 'big');
    void ask('c', 'small', 'small');
    await settle();
    for (let i = 0; i < 3; i++) queue.release();
    await settle();
    expect(granted).toEqual(['big', 'big', 'big', 'small', 'big']);
  });

  it('serves operations under way in turn before a new operation sends its first call', async () => {
    const { queue, ask, settle, granted } = setup(2);
    void ask('c', 'a', 'a');
    void ask('c', 'b', 'b');
    await settle();
    // Both are under way (each sent a call); their next calls queue with a new operation's first.
    for (let i = 0; i < 3; i++) void ask('c', 'a', 'a');
    for (let i = 0; i < 3; i++) void ask('c', 'b', 'b');
    void ask('c', 'new', 'new');
    await settle();
    for (let i = 0; i < 7; i++) queue.release();
    await settle();
    expect(granted.slice(2)).toEqual(['a', 'b', 'new', 'a', 'b', 'a', 'b']);
  });

  it('lets clients take turns one slot each, whatever each has queued', async () => {
    const { queue, ask, settle, granted } = setup(1);
    void ask('first', 'x', 'busy');
    await settle();
    for (let i = 0; i < 4; i++) void ask('flood', `op${i}`, 'flood');
    void ask('quiet', 'q1', 'quiet');
    void ask('quiet', 'q2', 'quiet');
    await settle();
    for (let i = 0; i < 6; i++) queue.release();
    await settle();
    expect(granted.slice(1)).toEqual(['flood', 'quiet', 'flood', 'quiet', 'flood', 'flood']);
  });

  it('takes a call that gave up out of the queue, without losing or doubling a slot', async () => {
    const { queue, ask, settle, granted } = setup(1);
    void ask('c', 'holding');
    const gaveUp = new AbortController();
    const abandoned = ask('c', 'abandoned', 'abandoned', gaveUp.signal);
    void ask('c', 'next');
    expect(queue.queued).toBe(2);
    gaveUp.abort(new Error('deadline'));
    await expect(abandoned).rejects.toThrow('deadline');
    expect(queue.queued).toBe(1);
    queue.release();
    await settle();
    expect(granted).toEqual(['c/holding', 'c/next']);
    expect([queue.inFlight, queue.queued]).toEqual([1, 0]);
  });

  it('refuses at once when the signal has already aborted', async () => {
    const { queue, ask } = setup(1);
    await expect(ask('c', 'x', 'x', AbortSignal.abort(new Error('late')))).rejects.toThrow('late');
    expect(queue.inFlight).toBe(0);
  });

  it('grants waiting calls as soon as a raised limit makes room', async () => {
    let limit = 1;
    const queue = new FairQueue(() => limit);
    const slots = Array.from({ length: 4 }, () => queue.acquire({ client: 'c', operation: 'o' }));
    expect(queue.queued).toBe(3);
    limit = 3;
    queue.drain();
    expect([queue.inFlight, queue.queued]).toEqual([3, 1]);
    await Promise.all(slots.slice(0, 3));
  });
});
