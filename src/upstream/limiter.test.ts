import { describe, expect, it } from 'vitest';
import { ConcurrencyLimiter } from './limiter.ts';

describe('ConcurrencyLimiter', () => {
  it('never runs more than the cap at once, and runs everything in arrival order', async () => {
    const limiter = new ConcurrencyLimiter(3);
    let inFlight = 0;
    let peak = 0;
    const started: number[] = [];
    const tasks = Array.from({ length: 20 }, (_, i) =>
      limiter.run(async () => {
        started.push(i);
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 2));
        inFlight -= 1;
        return i;
      }),
    );
    expect(await Promise.all(tasks)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(peak).toBe(3);
    expect(started).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(limiter.active).toBe(0);
  });

  it('frees the slot when a task fails', async () => {
    const limiter = new ConcurrencyLimiter(1);
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limiter.run(async () => 'next')).toBe('next');
  });
});

describe('ConcurrencyLimiter and an abort signal', () => {
  it('takes a call that gave up out of the queue, without losing or doubling a slot', async () => {
    const limiter = new ConcurrencyLimiter(1);
    let release!: () => void;
    const holding = limiter.run(() => new Promise<void>((resolve) => (release = resolve)));
    const gaveUp = new AbortController();
    const abandoned = limiter.run(async () => 'never', gaveUp.signal);
    const next = limiter.run(async () => 'next');
    expect(limiter.queued).toBe(2);
    gaveUp.abort(new Error('deadline'));
    await expect(abandoned).rejects.toThrow('deadline');
    expect(limiter.queued).toBe(1);
    release();
    await holding;
    expect(await next).toBe('next');
    expect(limiter.active).toBe(0);
  });

  it('refuses at once when the signal has already aborted', async () => {
    const limiter = new ConcurrencyLimiter(1);
    await expect(limiter.run(async () => 'never', AbortSignal.abort(new Error('late')))).rejects.toThrow('late');
    expect(limiter.active).toBe(0);
  });
});
