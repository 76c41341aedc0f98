import { describe, expect, it } from 'vitest';
import { AdaptiveLimit, type LimitSample } from './adaptive-limit.ts';

const OPTIONS = { initial: 10, min: 2, max: 40, adaptive: true };

/** Feeds answers of `ms` each, sent one after another `gapMs` apart, starting at `from`. */
function feed(limit: AdaptiveLimit, count: number, ms: number, sample: Partial<LimitSample> = {}, from = 0, gapMs = 1): number {
  let t = from;
  for (let i = 0; i < count; i++, t += gapMs) {
    limit.record({ signal: 'answer', endpoint: 'GET /a', sentAt: t, endedAt: t + ms, demand: 1, inFlight: 1_000, ...sample });
  }
  return t;
}

describe('AdaptiveLimit', () => {
  it('starts from the initial limit, kept within its bounds', () => {
    expect(new AdaptiveLimit(OPTIONS).value).toBe(10);
    expect(new AdaptiveLimit({ ...OPTIONS, initial: 100 }).value).toBe(40);
    expect(new AdaptiveLimit({ ...OPTIONS, initial: 1 }).value).toBe(2);
    expect(() => new AdaptiveLimit({ ...OPTIONS, min: 50 })).toThrow('1 <= min <= max');
  });

  it('rises by one per answer at its latency floor while the limit holds calls back (slow start), up to the ceiling', () => {
    const limit = new AdaptiveLimit(OPTIONS);
    feed(limit, 5, 20);
    expect(limit.value).toBe(15);
    feed(limit, 100, 20, {}, 10);
    expect(limit.value).toBe(40);
  });

  it('brings a limit raised above the initial one down to what was used, once a second, never below the initial', () => {
    const limit = new AdaptiveLimit({ ...OPTIONS, initial: 10, max: 100 });
    let t = feed(limit, 30, 20);
    expect(limit.value).toBe(40);
    // Quieter seconds: at most 25 in flight (the first second still saw the busy start).
    t = feed(limit, 40, 20, { demand: 0, inFlight: 25 }, t + 10, 60);
    expect(limit.value).toBe(25);
    // Quiet ones: 3 in flight, but the initial limit stays.
    feed(limit, 40, 20, { demand: 0, inFlight: 3 }, t + 10, 60);
    expect(limit.value).toBe(10);
  });

  it('rises at once to the demand a waiting call met, up to a quarter more per answer', () => {
    const limit = new AdaptiveLimit({ ...OPTIONS, initial: 50, max: 256 });
    feed(limit, 1, 20, { demand: 52 });
    expect(limit.value).toBe(52);
    feed(limit, 1, 20, { demand: 500 }, 10);
    expect(limit.value).toBe(65);
    // Within 10 s of a 429 (which halves it to 32): step by step only.
    limit.record({ signal: 'overload', endpoint: 'GET /a', sentAt: 100, endedAt: 120, demand: 0, inFlight: 60 });
    expect(limit.value).toBe(32);
    feed(limit, 1, 20, { demand: 500 }, 200);
    expect(limit.value).toBe(32);
  });

  it('does not rise when the limit held nothing back: the bank was never asked for more', () => {
    const limit = new AdaptiveLimit(OPTIONS);
    feed(limit, 50, 20, { demand: 0 });
    expect(limit.value).toBe(10);
  });

  it('halves on a 429, 503 or timeout, once for the calls that were already on their way', () => {
    const limit = new AdaptiveLimit({ ...OPTIONS, initial: 32, max: 64 });
    // Four overloads of calls sent before the first was answered: one decrease.
    for (let i = 0; i < 4; i++)
      limit.record({ signal: 'overload', endpoint: 'GET /a', sentAt: i, endedAt: 20 + i, demand: 1, inFlight: 32 });
    expect(limit.value).toBe(16);
    // A call sent after that decrease and refused again: a second one.
    limit.record({ signal: 'overload', endpoint: 'GET /a', sentAt: 30, endedAt: 50, demand: 1, inFlight: 16 });
    expect(limit.value).toBe(8);
  });

  it('never falls below its floor however long the bank pushes back', () => {
    const limit = new AdaptiveLimit(OPTIONS);
    for (let t = 0; t < 2000; t += 100)
      limit.record({ signal: 'overload', endpoint: 'GET /a', sentAt: t, endedAt: t + 50, demand: 1, inFlight: 10 });
    expect(limit.value).toBe(2);
  });

  it('lowers when latency climbs past 3x its floor, and grows back by about √limit per round trip afterwards', () => {
    const limit = new AdaptiveLimit({ ...OPTIONS, initial: 30 });
    let t = feed(limit, 10, 20, { demand: 0 });
    expect(limit.value).toBe(30);
    // The bank slows to 6x its floor: the smoothed latency crosses 3x at the third answer, and the cut
    // is 3 / 6 of the limit (the deepest); the answers to calls sent before it cut nothing more.
    t = feed(limit, 6, 120, {}, t, 10);
    expect(limit.value).toBe(15);
    // Back at the floor: about √limit per round trip (`limit` answers), no more doubling: 15, 18, 22, 26.
    for (let round = 0; round < 3; round++) t = feed(limit, limit.value, 20, {}, t + 300);
    expect(limit.value).toBeGreaterThanOrEqual(25);
    expect(limit.value).toBeLessThanOrEqual(27);
  });

  it("takes latency that stays up through three cuts at the least limit as the bank's new normal, and learns its floor again", () => {
    const limit = new AdaptiveLimit({ ...OPTIONS, initial: 4, min: 2 });
    let t = feed(limit, 10, 20, { demand: 0 });
    // 200 ms from now on: one cut to the least limit, three more there, then 200 ms is the floor...
    let lowest = limit.value;
    for (let i = 0; i < 150; i++) {
      t = feed(limit, 1, 200, {}, t, 10);
      lowest = Math.min(lowest, limit.value);
    }
    expect(lowest).toBe(2);
    // ...and the limit climbs back from a slow start.
    expect(limit.value).toBeGreaterThanOrEqual(30);
  });

  it('shrugs off a single slow answer (a pause in the gateway), which smoothing absorbs', () => {
    const limit = new AdaptiveLimit({ ...OPTIONS, initial: 20 });
    let t = feed(limit, 10, 20, { demand: 0 });
    t = feed(limit, 1, 120, { demand: 0 }, t);
    feed(limit, 10, 20, { demand: 0 }, t);
    expect(limit.value).toBe(20);
  });

  it('takes a few milliseconds of jitter at a bank that answers in under one for no congestion', () => {
    const limit = new AdaptiveLimit({ ...OPTIONS, initial: 20 });
    let t = feed(limit, 10, 0.3, { demand: 0 });
    t = feed(limit, 30, 3, { demand: 0 }, t);
    expect(limit.value).toBe(20);
    // Past three times the 5 ms it is judged against, it is.
    feed(limit, 10, 40, { demand: 0 }, t + 10, 50);
    expect(limit.value).toBeLessThan(20);
  });

  it('judges each endpoint against its own floor: a slower endpoint is not congestion', () => {
    const limit = new AdaptiveLimit({ ...OPTIONS, initial: 20 });
    let t = 0;
    for (let i = 0; i < 50; i++, t += 5) {
      limit.record({ signal: 'answer', endpoint: 'GET /fast', sentAt: t, endedAt: t + 10, demand: 0, inFlight: 20 });
      limit.record({ signal: 'answer', endpoint: 'GET /slow', sentAt: t, endedAt: t + 80, demand: 0, inFlight: 20 });
    }
    expect(limit.value).toBe(20);
  });

  it('learns nothing from failures that say nothing of load, or with adaptation off', () => {
    const limit = new AdaptiveLimit(OPTIONS);
    limit.record({ signal: 'none', endpoint: 'GET /a', sentAt: 0, endedAt: 5, demand: 1, inFlight: 10 });
    expect(limit.value).toBe(10);
    const fixed = new AdaptiveLimit({ ...OPTIONS, adaptive: false });
    feed(fixed, 20, 20);
    fixed.record({ signal: 'overload', endpoint: 'GET /a', sentAt: 100, endedAt: 120, demand: 1, inFlight: 10 });
    expect(fixed.value).toBe(10);
  });
});
