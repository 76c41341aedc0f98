import { describe, expect, it } from 'vitest';
import type { BreakerConfig } from '../settings/index.ts';
import { CircuitBreaker, type Verdict } from './circuit-breaker.ts';
import type { BreakerState } from './observer.ts';

const CONFIG: BreakerConfig = { errorRate: 0.5, minCalls: 4, windowMs: 10_000, openMs: 5_000 };

function setup(config: BreakerConfig = CONFIG) {
  const clock = { now: 1_000_000 };
  const changes: BreakerState[] = [];
  const breaker = new CircuitBreaker(
    config,
    (state) => changes.push(state),
    () => clock.now,
  );
  const run = (...verdicts: Verdict[]) => {
    for (const verdict of verdicts) breaker.acquire()!.settle(verdict);
  };
  return { clock, changes, breaker, run };
}

describe('CircuitBreaker', () => {
  it('stays closed below minCalls, however many of them failed', () => {
    const { breaker, run, changes } = setup();
    run('failure', 'failure', 'failure');
    expect(breaker.state).toBe('closed');
    expect(changes).toEqual([]);
  });

  it('opens once minCalls were counted and errorRate of them failed (at the rate exactly)', () => {
    const { breaker, run, changes } = setup();
    run('success', 'failure', 'success');
    expect(breaker.state).toBe('closed');
    run('failure');
    expect(breaker.state).toBe('open');
    expect(changes).toEqual(['open']);
    expect(breaker.acquire()).toBeUndefined();
    expect(breaker.retryAfterMs).toBe(5_000);
  });

  it('does not count what never reached the bank, nor calls that were out when it opened', () => {
    const { breaker, run } = setup();
    const late = breaker.acquire()!;
    run('none', 'none', 'none', 'none', 'none');
    expect(breaker.state).toBe('closed');
    run('failure', 'failure', 'failure', 'failure');
    expect(breaker.state).toBe('open');
    late.settle('success');
    late.settle('failure');
    expect(breaker.state).toBe('open');
  });

  it('forgets outcomes older than the window', () => {
    const { breaker, run, clock } = setup();
    run('failure', 'failure', 'failure');
    clock.now += 11_000;
    run('failure', 'success', 'success', 'success');
    expect(breaker.state).toBe('closed');
  });

  it('after openMs lets exactly one probe through; its success closes the breaker', () => {
    const { breaker, run, clock, changes } = setup();
    run('failure', 'failure', 'failure', 'failure');
    clock.now += 4_999;
    expect(breaker.acquire()).toBeUndefined();
    clock.now += 1;
    expect(breaker.state).toBe('half-open');
    const probe = breaker.acquire()!;
    expect(probe.probe).toBe(true);
    expect(breaker.acquire()).toBeUndefined();
    probe.settle('success');
    expect(breaker.state).toBe('closed');
    expect(changes).toEqual(['open', 'half-open', 'closed']);
    // Closed afresh: the failures before it opened are not held against it.
    run('failure', 'success', 'success');
    expect(breaker.state).toBe('closed');
  });

  it('reopens for another openMs when the probe fails, and frees the probe when it never reached the bank', () => {
    const { breaker, run, clock, changes } = setup();
    run('failure', 'failure', 'failure', 'failure');
    clock.now += 5_000;
    breaker.acquire()!.settle('none');
    const probe = breaker.acquire()!;
    expect(probe.probe).toBe(true);
    probe.settle('failure');
    expect(breaker.state).toBe('open');
    expect(breaker.retryAfterMs).toBe(5_000);
    expect(changes).toEqual(['open', 'half-open', 'open']);
  });

  it('refuses a nonsensical configuration', () => {
    expect(() => new CircuitBreaker({ ...CONFIG, errorRate: 0 })).toThrow('errorRate must be in (0, 1], got 0');
    expect(() => new CircuitBreaker({ ...CONFIG, minCalls: 0 })).toThrow('minCalls must be at least 1, got 0');
  });
});
