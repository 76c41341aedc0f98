import { describe, expect, it, vi } from 'vitest';
import { FairQueue, type SlotOwner } from './fair-queue.ts';

/** A queue with a fixed limit, and a log of the order slots were granted in. */
function setup(limit: number) {
  const queue = new FairQueue(() => limit);
  const granted: string[] = [];
  const ask = (client: string, operation: string, label = `${client}/${operation}`, signal?: AbortSignal) => {
    const owner: SlotOwner = { client, operation };
    const slot = queue.acquire(owner, signal);
    void slot.then(
      () => granted.push(label),
      () => {},
    );
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
    queue.release('c');
    await settle();
    expect([queue.inFlight, queue.queued, granted.length]).toEqual([3, 6, 4]);
    for (let i = 0; i < 9; i++) queue.release('c');
    await settle();
    expect([queue.inFlight, queue.queued, granted.length]).toEqual([0, 0, 10]);
  });

  it('says what demand a call met when the limit held it back: calls in flight and waiting, itself included', async () => {
    const { ask, queue } = setup(2);
    expect(await ask('c', 'a')).toBe(0);
    expect(await ask('c', 'a')).toBe(0);
    const first = ask('c', 'a');
    const second = ask('c', 'a');
    queue.release('c');
    queue.release('c');
    expect([await first, await second]).toEqual([3, 4]);
  });

  it("lets a one-call query of another client in before the rest of a client's 50-call fan-out", async () => {
    const { queue, ask, settle, granted } = setup(5);
    for (let i = 0; i < 50; i++) void ask('alice', 'fan-out', 'fan-out');
    void ask('bob', 'one-call', 'bob');
    await settle();
    queue.release('alice');
    queue.release('alice');
    await settle();
    // Five fan-out calls took the free slots; of the next two, bob's is one.
    expect(granted.slice(5, 7)).toEqual(['fan-out', 'bob']);
  });

  it("lets a client's new one-call query in after one turn of its operations under way, not after all their calls", async () => {
    const { queue, ask, settle, granted } = setup(2);
    for (let i = 0; i < 20; i++) void ask('c', 'big', 'big');
    void ask('c', 'small', 'small');
    await settle();
    for (let i = 0; i < 3; i++) queue.release('c');
    await settle();
    expect(granted).toEqual(['big', 'big', 'big', 'small', 'big']);
  });

  // An operation's calls carry its signal, which marks it as under way; the gateway's own calls carry none.
  it.each([
    ['without a signal', () => undefined],
    ["with their operation's signal", () => new AbortController().signal],
  ])('serves operations under way in turn before a new operation sends its first call (%s)', async (_, signalOf) => {
    const { queue, ask, settle, granted } = setup(2);
    const [a, b, fresh] = [signalOf(), signalOf(), signalOf()];
    void ask('c', 'a', 'a', a);
    void ask('c', 'b', 'b', b);
    await settle();
    // Both are under way (each sent a call); their next calls queue with a new operation's first.
    for (let i = 0; i < 3; i++) void ask('c', 'a', 'a', a);
    for (let i = 0; i < 3; i++) void ask('c', 'b', 'b', b);
    void ask('c', 'new', 'new', fresh);
    await settle();
    for (let i = 0; i < 7; i++) queue.release('c');
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
    for (const client of ['first', 'flood', 'quiet', 'flood', 'quiet', 'flood']) queue.release(client);
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
    queue.release('c');
    await settle();
    expect(granted).toEqual(['c/holding', 'c/next']);
    expect([queue.inFlight, queue.queued]).toEqual([1, 0]);
  });

  it('takes every waiting call of an operation out at once when its signal aborts, listening once for all of them', async () => {
    const { queue, ask, settle, granted } = setup(1);
    void ask('c', 'holding');
    const client = new AbortController();
    const listening = vi.spyOn(client.signal, 'addEventListener');
    const left = Array.from({ length: 5 }, () => ask('c', 'screen', 'screen', client.signal));
    // Another operation under the same request id (a caller may reuse its x-request-id) stays.
    void ask('c', 'screen', 'same id, other operation', new AbortController().signal);
    void ask('d', 'other', 'd/other');
    expect(listening).toHaveBeenCalledTimes(1);
    client.abort(new Error('client left'));
    for (const call of left) await expect(call).rejects.toThrow('client left');
    expect([queue.inFlight, queue.queued]).toEqual([1, 2]);
    queue.release('c');
    queue.release('c');
    await settle();
    expect(granted).toEqual(['c/holding', 'same id, other operation', 'd/other']);
    expect([queue.inFlight, queue.queued]).toEqual([1, 0]);
  });

  it("hands a stopped call's slot out once the events of this turn are in: a client that left meanwhile gets none", async () => {
    // A burst leaving: the first client's cut read frees its slot while the next client's leaving
    // is still to be taken in, in the same turn of the event loop (test/processes/aborted-burst.test.ts).
    const { queue, ask, settle, granted } = setup(1);
    void ask('first', 'screen');
    const next = new AbortController();
    const waiting = ask('next', 'screen', 'next/screen', next.signal);
    queue.release('first', true);
    next.abort(new Error('client left'));
    await expect(waiting).rejects.toThrow('client left');
    await settle();
    expect(granted).toEqual(['first/screen']);
    expect([queue.inFlight, queue.queued]).toEqual([0, 0]);
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

describe('FairQueue with a cap per client', () => {
  /** A queue with `limit` slots and a cap of `perClient` per client; grants are logged by label. */
  function capped(limit: number, perClient: number) {
    const held = { count: 0 };
    const queue = new FairQueue({ limit: () => limit, perClient, onHeld: () => (held.count += 1) });
    const granted: string[] = [];
    const demands: number[] = [];
    const ask = (client: string, operation = 'op', signal?: AbortSignal) => {
      const slot = queue.acquire({ client, operation }, signal);
      void slot.then(
        (demand) => (granted.push(client), demands.push(demand)),
        () => {},
      );
      return slot;
    };
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    return { queue, granted, demands, ask, settle, held };
  }

  it('holds a client at its cap even with slots free, and leaves them to the others', async () => {
    const { queue, ask, settle, granted, held } = capped(10, 3);
    for (let i = 0; i < 8; i++) void ask('flood');
    await settle();
    expect([queue.inFlight, queue.queued, queue.heldByClientShare, held.count]).toEqual([3, 5, 5, 5]);
    // Another client goes at once: the flood's waiting calls do not stand in its way.
    for (let i = 0; i < 2; i++) void ask('quiet');
    await settle();
    expect(granted.filter((c) => c === 'quiet')).toHaveLength(2);
    expect([queue.inFlight, queue.queued]).toEqual([5, 5]);
  });

  it("sends a capped client's next call when one of its own ends, in order", async () => {
    const { queue, ask, settle, granted } = capped(10, 2);
    for (let i = 0; i < 5; i++) void ask('flood');
    void ask('quiet');
    await settle();
    expect(granted).toEqual(['flood', 'flood', 'quiet']);
    queue.release('quiet');
    await settle();
    // Quiet's slot freed nothing for the flood: it is still at its cap.
    expect(granted).toHaveLength(3);
    queue.release('flood');
    await settle();
    expect(granted).toEqual(['flood', 'flood', 'quiet', 'flood']);
    expect([queue.inFlight, queue.queued, queue.heldByClientShare]).toEqual([2, 2, 2]);
  });

  it('never lets one client hold more than its cap, however its calls come and go', async () => {
    const { queue, ask, settle } = capped(8, 3);
    let most = 0;
    for (let i = 0; i < 30; i++) void ask('flood', `op${i % 4}`);
    for (let round = 0; round < 30; round++) {
      await settle();
      most = Math.max(most, queue.inFlight);
      if (queue.inFlight > 0) queue.release('flood');
    }
    expect(most).toBe(3);
    expect([queue.inFlight, queue.queued]).toEqual([0, 0]);
  });

  it('tells the limit of no demand when only the cap held a call back (the bank had room)', async () => {
    const { queue, ask, settle, demands } = capped(10, 1);
    void ask('flood');
    const held = ask('flood');
    await settle();
    queue.release('flood');
    expect(await held).toBe(0);
    expect(demands).toEqual([0, 0]);
  });

  it('lets a capped call whose deadline passes leave without a slot', async () => {
    const { queue, ask, settle } = capped(10, 1);
    void ask('flood');
    const gaveUp = new AbortController();
    const held = ask('flood', 'op', gaveUp.signal);
    await settle();
    gaveUp.abort(new Error('deadline'));
    await expect(held).rejects.toThrow('deadline');
    expect([queue.inFlight, queue.queued]).toEqual([1, 0]);
    queue.release('flood');
    expect(await ask('flood')).toBe(0);
  });
});
