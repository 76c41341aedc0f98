import { describe, expect, it } from 'vitest';
import { Deadlines } from '../src/timers.ts';

const never = new AbortController().signal;

describe('Deadlines', () => {
  it('releases waits in the order they fall due, ties in the order they were asked for, never early', async () => {
    const deadlines = new Deadlines();
    const start = performance.now();
    const order: string[] = [];
    const late: number[] = [];
    const wait = (name: string, at: number) =>
      deadlines.wait(at, never).then((reached) => {
        late.push(performance.now() - at);
        order.push(`${name}:${reached}`);
      });
    await Promise.all([wait('c', start + 40), wait('a1', start + 15), wait('a2', start + 15), wait('b', start + 25), wait('a3', start + 15)]);
    expect(order).toEqual(['a1:true', 'a2:true', 'a3:true', 'b:true', 'c:true']);
    expect(Math.min(...late)).toBeGreaterThanOrEqual(0);
  });

  it('resolves false at once when its signal aborts, and the others still fall due', async () => {
    const deadlines = new Deadlines();
    const gone = new AbortController();
    const start = performance.now();
    const aborted = deadlines.wait(start + 10_000, gone.signal);
    const kept = deadlines.wait(start + 20, never);
    gone.abort();
    expect(await aborted).toBe(false);
    expect(await kept).toBe(true);
    expect(performance.now() - start).toBeLessThan(5_000);
    expect(await deadlines.wait(start, gone.signal)).toBe(false);
  });

  it('resolves true at once for a time already past', async () => {
    expect(await new Deadlines().wait(performance.now() - 1, never)).toBe(true);
  });
});
