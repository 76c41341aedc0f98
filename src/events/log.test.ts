import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../test/helpers/gc.ts';
import { EventLog, type PublishedEvent } from './log.ts';

const event = (n: number) =>
  ({
    id: `evt_${n}`,
    name: 'card.updated',
    receivedAt: new Date(0).toISOString(),
    occurrence: `occ_${n}`,
    cursor: `c${n}`,
  }) as unknown as PublishedEvent;

describe('the event log of one instance', () => {
  it('lets go of an event as soon as it is dropped, not at the next compaction', async () => {
    const log = new EventLog({ maxEvents: 100, maxAgeMs: 60_000 });
    const dropped: WeakRef<object>[] = [];
    for (let n = 1; n <= 300; n++) {
      const published = event(n);
      if (n <= 200) dropped.push(new WeakRef(published));
      log.append(published, `${n}-0`, published.occurrence);
    }
    expect(log.size).toBe(100);
    // Collected on a later turn: a WeakRef keeps its target alive until the current job ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    collectGarbage();
    expect(dropped.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
    expect(log.oldest()?.seq).toBe(201);
  });
});
