import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rerunThrottle } from './throttle.ts';

describe("a live query's re-run throttle", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('makes a re-run at once when the interval since the last run is over', async () => {
    let clock = 0;
    const throttle = rerunThrottle(250, () => clock);
    throttle.ran();
    clock = 300;
    await expect(throttle.admit()).resolves.toBe(true);
  });

  it('makes the last of a burst when the interval ends, even if the clock reads a millisecond short then', async () => {
    let clock = 0;
    const throttle = rerunThrottle(250, () => clock);
    throttle.ran();
    clock = 10;
    const first = throttle.admit();
    clock = 20;
    const second = throttle.admit();
    // The timer fires; the clock lags it (Node's timers and Date.now() do not agree to the millisecond).
    clock = 249;
    await vi.advanceTimersByTimeAsync(240);
    await expect(first).resolves.toBe(false);
    await expect(second).resolves.toBe(true);
    // The next one waits out a whole interval from that run.
    const third = throttle.admit();
    let settled = false;
    void third.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(200);
    expect(settled).toBe(false);
    clock = 600;
    await vi.advanceTimersByTimeAsync(60);
    await expect(third).resolves.toBe(true);
  });

  it('ends every wait at once when the live query ends', async () => {
    const throttle = rerunThrottle(10_000, () => 0);
    throttle.ran();
    const waiting = throttle.admit();
    throttle.end();
    await expect(waiting).resolves.toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    await expect(throttle.admit()).resolves.toBe(false);
  });
});
