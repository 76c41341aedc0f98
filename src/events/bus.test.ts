import { describe, expect, it } from 'vitest';
import { createMemoryEventBus, LocalEvents, type Delivery } from './bus.ts';
import { compareStreamIds, decodeCursor, encodeCursor, streamIdGenerator } from './cursor.ts';
import { CursorExpiredError, InvalidCursorError } from './errors.ts';
import { Fanout, isFellBehind, MAX_PENDING } from './fanout.ts';
import { EventLog, type PublishedEvent } from './log.ts';
import { withoutAddress } from './redis-link.ts';
import type { BankEvent } from './models.ts';

const event = (id: string): BankEvent => ({
  id,
  name: 'account.active',
  accountId: null,
  createdAt: null,
  version: null,
  data: {},
  kind: 'other',
  details: null,
});
const published = (id: string, cursor = encodeCursor({ kind: 's', id: `1-${id}` })): PublishedEvent => ({
  ...event(id),
  occurrence: `occurrence-${id}`,
  cursor,
  receivedAt: '2026-11-24T00:00:00.000Z',
});
const ids = (items: Delivery[]) => items.map((item) => (isFellBehind(item) ? 'fell behind' : item.id));

async function take(iterator: AsyncIterator<Delivery>, count: number): Promise<Delivery[]> {
  const items: Delivery[] = [];
  for (let i = 0; i < count; i++) {
    const next = await iterator.next();
    if (next.done) break;
    items.push(next.value);
  }
  return items;
}

describe('cursors', () => {
  it('round-trip log positions and refuse anything else', () => {
    const cursor = { kind: 's', id: '1732400000000-3' } as const;
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    // The provisional cursors of an earlier release (events accepted while Redis was away) are no longer handed out.
    for (const text of [
      '',
      'not a cursor',
      Buffer.from('v1:p:a1b2c3:17').toString('base64url'),
      Buffer.from('v1:s:abc').toString('base64url'),
      Buffer.from('v2:s:1-0').toString('base64url'),
      'x'.repeat(200),
    ]) {
      expect(decodeCursor(text)).toBeNull();
    }
  });

  it('order log ids by time, then sequence; generated ids only grow', () => {
    expect(compareStreamIds('10-2', '9-5')).toBeGreaterThan(0);
    expect(compareStreamIds('10-2', '10-10')).toBeLessThan(0);
    let now = 5;
    const next = streamIdGenerator(() => now);
    const made = [next(), next(), ((now = 4), next()), ((now = 6), next())];
    expect(made).toEqual(['5-0', '5-1', '5-2', '6-0']);
  });
});

describe('the event log', () => {
  it('keeps the newest entries by count and by age; the newest dropped cursor still resumes', () => {
    let now = 0;
    const log = new EventLog({ maxEvents: 3, maxAgeMs: 1_000 }, () => now);
    const entries = ['a', 'b', 'c', 'd'].map((id, i) => log.append(published(id), `1-${i}`, `occ-${id}`));
    expect(log.size).toBe(3);
    expect(log.after({ kind: 's', id: '1-0' })).toEqual({ entries: entries.slice(1) });
    expect(log.after({ kind: 's', id: '1-2' })).toEqual({ entries: entries.slice(3) });
    expect(log.after({ kind: 's', id: '9-9' })).toEqual({ unknown: true });
    now = 1_001;
    expect(log.oldest()).toBeUndefined();
    expect(log.size).toBe(0);
    expect(log.after({ kind: 's', id: '1-2' })).toEqual({ unknown: true });
    expect(log.after({ kind: 's', id: '1-3' })).toEqual({ entries: [] });
  });
});

describe('the fan-out', () => {
  it('ends a subscriber that falls MAX_PENDING behind with a marker naming the last cursor it took', async () => {
    const fanout = new Fanout();
    const subscriber = fanout.open();
    const log = new EventLog({ maxEvents: MAX_PENDING + 10, maxAgeMs: 60_000 });
    const first = log.append(published('first'), '1-0', 'occ-first');
    fanout.deliver(first);
    expect(ids(await take(subscriber, 1))).toEqual(['first']);
    for (let i = 0; i <= MAX_PENDING; i++) fanout.deliver(log.append(published(`e${i}`), `2-${i}`, `occ-${i}`));
    const rest = await take(subscriber, 3);
    expect(rest).toEqual([{ fellBehind: true, resumeAfter: first.event.cursor }]);
    expect(fanout.size).toBe(0);
  });

  it('sets live events aside while held, and skips those the replay already gave', async () => {
    const fanout = new Fanout();
    const subscriber = fanout.open();
    subscriber.hold();
    const log = new EventLog({ maxEvents: 10, maxAgeMs: 60_000 });
    const [a, b, c] = ['a', 'b', 'c'].map((id, i) => log.append(published(id), `1-${i}`, `occ-${id}`));
    fanout.deliver(b!);
    fanout.deliver(c!);
    subscriber.release([a!.event, b!.event], (entry) => entry.seq > b!.seq);
    expect(ids(await take(subscriber, 3))).toEqual(['a', 'b', 'c']);
  });
});

describe('handing events to subscriptions', () => {
  /** Delivers `events` through LocalEvents with `subscribers` open; how many each had after every turn of the loop. */
  async function queuedPerTurn(subscribers: number, events: number, deliveriesPerTurn: number): Promise<number[]> {
    const local = new LocalEvents({ maxEvents: 100, maxAgeMs: 60_000 }, Date.now, deliveriesPerTurn);
    const open = Array.from({ length: subscribers }, () => local.open(null, {})!);
    const received = open.map(() => 0);
    open.forEach((subscriber, i) => {
      const take = (): void =>
        void subscriber.next().then(() => {
          received[i]! += 1;
          take();
        });
      take();
    });
    for (let i = 0; i < events; i++) local.deliver(published(`e${i}`), `1-${i}`, `occ-e${i}`);
    const seen: number[] = [];
    while (seen.at(-1) !== events) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(new Set(received).size).toBe(1);
      seen.push(received[0]!);
    }
    return seen;
  }

  it('hands a burst over several events a turn when few listen, so their frames can leave together', async () => {
    // 12 deliveries a turn over 3 subscribers: 4 events a turn.
    expect(await queuedPerTurn(3, 10, 12)).toEqual([4, 8, 10]);
  });

  it('hands over one event a turn, never none, when the subscribers alone are more than a turn takes', async () => {
    expect(await queuedPerTurn(20, 3, 12)).toEqual([1, 2, 3]);
  });

  it('answers the bank first: nothing is handed over in the turn the event is accepted', () => {
    const local = new LocalEvents({ maxEvents: 10, maxAgeMs: 60_000 });
    const subscriber = local.open(null, {})!;
    let received = false;
    void subscriber.next().then(() => (received = true));
    local.deliver(published('now'), '1-0', 'occ-now');
    return Promise.resolve().then(() => expect(received).toBe(false));
  });
});

describe('the memory bus', () => {
  it('drops a repeated occurrence and gives every accepted one its own cursor', async () => {
    const bus = createMemoryEventBus({ limits: { maxEvents: 10, maxAgeMs: 60_000 } });
    const first = await bus.accept(event('x'), 'occ-1');
    const again = await bus.accept(event('x'), 'occ-1');
    const repeat = await bus.accept(event('x'), 'occ-2');
    expect(again).toEqual({ status: 'duplicate' });
    expect(first.status === 'accepted' && repeat.status === 'accepted' && first.cursor !== repeat.cursor).toBe(true);
  });

  it('resumes with an event accepted but not yet handed out exactly once', async () => {
    const bus = createMemoryEventBus({ limits: { maxEvents: 10, maxAgeMs: 60_000 } });
    const a = await bus.accept(event('a'), 'occ-a');
    await new Promise((resolve) => setImmediate(resolve));
    // b is logged now and handed to subscribers on the next turn: the resuming one must get it once.
    await bus.accept(event('b'), 'occ-b');
    const resumed = await bus.subscribe({ after: a.status === 'accepted' ? a.cursor : '' });
    await bus.accept(event('c'), 'occ-c');
    expect(ids(await take(resumed, 2))).toEqual(['b', 'c']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await resumed.return?.();
    expect(bus.activeSubscriptions()).toBe(0);
  });

  it('hands a burst to the subscriptions in order, on the turns after it was accepted', async () => {
    const bus = createMemoryEventBus({ limits: { maxEvents: 10, maxAgeMs: 60_000 } });
    const subscriber = await bus.subscribe();
    const received: string[] = [];
    void (async () => {
      for await (const item of subscriber) received.push(ids([item])[0]!);
    })();
    for (const id of ['a', 'b', 'c']) await bus.accept(event(id), `occ-${id}`);
    // One subscriber: the three are one turn's deliveries (see 'handing events to subscriptions').
    const seen: string[][] = [[...received]];
    for (let turn = 0; turn < 2; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
      seen.push([...received]);
    }
    expect(seen).toEqual([[], ['a', 'b', 'c'], ['a', 'b', 'c']]);
    await subscriber.return?.();
  });

  it('refuses text that is not a cursor, and a cursor it never gave out', async () => {
    const bus = createMemoryEventBus({ limits: { maxEvents: 10, maxAgeMs: 60_000 } });
    await expect(bus.subscribe({ after: 'nonsense' })).rejects.toBeInstanceOf(InvalidCursorError);
    await expect(bus.subscribe({ after: encodeCursor({ kind: 's', id: '1-0' }) })).rejects.toBeInstanceOf(CursorExpiredError);
  });
});

describe('Redis failures in public words', () => {
  it('keep what failed and drop where Redis is', () => {
    expect(withoutAddress('connect ECONNREFUSED 10.0.0.5:6379')).toBe('connect ECONNREFUSED <redis>');
    expect(withoutAddress('connect ECONNREFUSED [::1]:6379')).toBe('connect ECONNREFUSED <redis>');
    expect(withoutAddress('connect ETIMEDOUT redis.internal:6380')).toBe('connect ETIMEDOUT <redis>');
    expect(withoutAddress('getaddrinfo ENOTFOUND redis.internal')).toBe('getaddrinfo ENOTFOUND <redis>');
    expect(withoutAddress('Command timed out')).toBe('Command timed out');
  });
});
