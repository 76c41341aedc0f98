import { describe, expect, it } from 'vitest';
import { Deadlines, TurnBudget } from '../src/timers.ts';

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
    await Promise.all([
      wait('c', start + 40),
      wait('a1', start + 15),
      wait('a2', start + 15),
      wait('b', start + 25),
      wait('a3', start + 15),
    ]);
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

  it('keeps the order and is never early with no budget for turns, on the whole-millisecond timer alone', async () => {
    const budget = new TurnBudget(0, 0, performance.now());
    const deadlines = new Deadlines(budget);
    const start = performance.now();
    const late: number[] = [];
    const order: number[] = [];
    await Promise.all(
      [12.5, 3.2, 7.7].map((ms) =>
        deadlines.wait(start + ms, never).then(() => {
          late.push(performance.now() - (start + ms));
          order.push(ms);
        }),
      ),
    );
    expect(order).toEqual([3.2, 7.7, 12.5]);
    expect(Math.min(...late)).toBeGreaterThanOrEqual(0);
    expect(budget.available).toBe(0);
  });

  it('takes its last stretch before a deadline out of the budget when it has one', async () => {
    // Within a millisecond: turns at once, however late a timer would fire on a busy machine. A
    // thread stalled past the deadline before the wait began finds it reached and turns nothing:
    // such a try shows nothing and is made again.
    for (let tries = 1; ; tries++) {
      const budget = new TurnBudget(0, 5, performance.now());
      const deadlines = new Deadlines(budget);
      const at = performance.now() + 0.9;
      const waiting = deadlines.wait(at, never);
      const armedBeforeIt = performance.now() < at;
      expect(await waiting).toBe(true);
      expect(performance.now()).toBeGreaterThanOrEqual(at);
      if (!armedBeforeIt && tries < 100) continue;
      expect(armedBeforeIt).toBe(true);
      // The turns were paid for; a share of 0 refills nothing.
      expect(budget.available).toBeLessThan(5);
      return;
    }
  });

  it('resolves true at once for a time already past', async () => {
    expect(await new Deadlines().wait(performance.now() - 1, never)).toBe(true);
  });
});

describe('TurnBudget', () => {
  it('refills at its share of the time that passes, up to its bank, and allows turns while anything is left', () => {
    const budget = new TurnBudget(0.05, 2, 1_000);
    expect(budget.allows(1_000)).toBe(true);
    budget.spend(1.5);
    expect(budget.available).toBeCloseTo(0.5);
    budget.spend(0.7);
    // 0.5 - 0.7 = -0.2; 3 ms later 0.05 × 3 = 0.15 back: nothing left yet.
    expect(budget.allows(1_003)).toBe(false);
    expect(budget.allows(1_010)).toBe(true);
    expect(budget.available).toBeCloseTo(0.3);
    // Idle for a long while: saved up to the bank, no more.
    budget.allows(60_000);
    expect(budget.available).toBe(2);
  });
});
