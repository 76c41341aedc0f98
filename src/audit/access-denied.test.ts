import { describe, expect, it } from 'vitest';
import { createDenialAggregator, type DeniedAttempt } from './access-denied.ts';
import type { AccessDeniedRecord } from './record.ts';

/** A clock and a timer the test moves by hand. */
function manualTime(start = Date.parse('2025-03-04T05:06:00.000Z')) {
  let now = start;
  let pending: { at: number; run: () => void } | undefined;
  return {
    now: () => now,
    schedule: (run: () => void, ms: number) => {
      const timer = { at: now + ms, run };
      pending = timer;
      return () => {
        if (pending === timer) pending = undefined;
      };
    },
    /** Moves the clock on, running the timer when its time comes. */
    advance(ms: number) {
      now += ms;
      while (pending && pending.at <= now) {
        const { run } = pending;
        pending = undefined;
        run();
      }
    },
    scheduled: () => pending !== undefined,
  };
}

function aggregator(options: { maxKeys?: number } = {}) {
  const time = manualTime();
  const written: AccessDeniedRecord[] = [];
  const denials = createDenialAggregator((record) => written.push(record), {
    windowMs: 60_000,
    now: time.now,
    schedule: time.schedule,
    ...options,
  });
  return { time, written, denials };
}

const badKey = (overrides: Partial<DeniedAttempt> = {}): DeniedAttempt => ({
  reason: 'UNAUTHENTICATED',
  transport: 'http',
  caller: null,
  address: '203.0.113.7',
  requestId: 'req-1',
  ...overrides,
});

const iso = (ms: number) => new Date(Date.parse('2025-03-04T05:06:00.000Z') + ms).toISOString();

describe('access-denied records', () => {
  it('writes the first of a caller-or-address and reason at once, and the rest of its minute as one record with their count', () => {
    const { time, written, denials } = aggregator();
    denials.deny(badKey());
    expect(written).toEqual([
      {
        audit: 'access_denied',
        time: iso(0),
        reason: 'UNAUTHENTICATED',
        transport: 'http',
        caller: null,
        address: '203.0.113.7',
        count: 1,
        firstAt: iso(0),
        lastAt: iso(0),
        requestId: 'req-1',
        overflow: false,
      },
    ]);
    for (let i = 0; i < 49; i++) {
      time.advance(1_000);
      denials.deny(badKey({ requestId: `req-${i + 2}` }));
    }
    expect(written).toHaveLength(1);
    time.advance(11_000);
    expect(written).toEqual([
      expect.objectContaining({ count: 1 }),
      {
        audit: 'access_denied',
        time: iso(60_000),
        reason: 'UNAUTHENTICATED',
        transport: 'http',
        caller: null,
        address: '203.0.113.7',
        count: 49,
        firstAt: iso(1_000),
        lastAt: iso(49_000),
        requestId: null,
        overflow: false,
      },
    ]);
    // Nothing held: no timer left behind.
    expect(time.scheduled()).toBe(false);
  });

  it('starts a new minute with a record at once, and writes nothing for a minute with no more', () => {
    const { time, written, denials } = aggregator();
    denials.deny(badKey());
    time.advance(60_000);
    expect(written).toHaveLength(1);
    denials.deny(badKey({ requestId: 'req-later' }));
    expect(written.map((record) => [record.count, record.requestId, record.firstAt])).toEqual([
      [1, 'req-1', iso(0)],
      [1, 'req-later', iso(60_000)],
    ]);
  });

  it('keeps callers, addresses, reasons and transports apart, a caller by its name whatever its address', () => {
    const { written, denials } = aggregator();
    const caller = { kind: 'api-key', name: 'back-office' };
    denials.deny(badKey({ reason: 'RATE_LIMITED', caller, address: '198.51.100.1' }));
    denials.deny(badKey({ reason: 'RATE_LIMITED', caller, address: '198.51.100.2' }));
    denials.deny(badKey({ reason: 'CSRF_HEADER_REQUIRED' }));
    denials.deny(badKey({ address: '203.0.113.8' }));
    denials.deny(badKey({ transport: 'graphql-ws' }));
    denials.deny(badKey({ address: '203.0.113.8' }));
    expect(written.map((record) => [record.reason, record.transport, record.caller?.name ?? record.address])).toEqual([
      ['RATE_LIMITED', 'http', 'back-office'],
      ['CSRF_HEADER_REQUIRED', 'http', '203.0.113.7'],
      ['UNAUTHENTICATED', 'http', '203.0.113.8'],
      ['UNAUTHENTICATED', 'graphql-ws', '203.0.113.7'],
    ]);
    denials.close();
    expect(written.slice(4).map((record) => [record.reason, record.caller?.name ?? record.address, record.count])).toEqual([
      ['RATE_LIMITED', 'back-office', 1],
      ['UNAUTHENTICATED', '203.0.113.8', 1],
    ]);
  });

  it('holds at most maxKeys callers and addresses a minute: the others of a reason are one overflow record', () => {
    const { time, written, denials } = aggregator({ maxKeys: 3 });
    for (let i = 0; i < 10; i++) denials.deny(badKey({ address: `203.0.113.${i}`, requestId: `req-${i}` }));
    expect(written.map((record) => [record.address, record.count, record.overflow])).toEqual([
      ['203.0.113.0', 1, false],
      ['203.0.113.1', 1, false],
      ['203.0.113.2', 1, false],
      [null, 1, true],
    ]);
    expect(written[3]).toMatchObject({ caller: null, address: null, reason: 'UNAUTHENTICATED', requestId: 'req-3' });
    time.advance(60_000);
    expect(written.slice(4)).toEqual([expect.objectContaining({ address: null, overflow: true, count: 6, requestId: null })]);
    // The minute over, its keys are gone: a new address is held again.
    denials.deny(badKey({ address: '203.0.113.99' }));
    expect(written.at(-1)).toMatchObject({ address: '203.0.113.99', overflow: false, count: 1 });
  });

  it('writes what it holds when closed, and nothing after', () => {
    const { time, written, denials } = aggregator();
    denials.deny(badKey());
    time.advance(5_000);
    denials.deny(badKey());
    denials.deny(badKey());
    denials.close();
    expect(written.map((record) => record.count)).toEqual([1, 2]);
    expect(time.scheduled()).toBe(false);
    denials.deny(badKey({ address: '192.0.2.1' }));
    expect(written).toHaveLength(2);
  });
});
