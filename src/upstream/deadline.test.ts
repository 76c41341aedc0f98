import { describe, expect, it } from 'vitest';
import { deadlineFor, pause, raceSignal } from './deadline.ts';

describe('deadlineFor', () => {
  it('gives queries and mutations their start plus the deadline, and subscriptions none', () => {
    expect(deadlineFor({ query: '{ balances { currency } }' }, 500, 1_000)).toBe(1_500);
    expect(deadlineFor({ query: 'mutation M { x }' }, 500, 1_000)).toBe(1_500);
    expect(deadlineFor({ query: 'subscription S { payoutFunding { id } }' }, 500, 1_000)).toBeUndefined();
    // The keyword alone (a field name, a string) is not a subscription.
    expect(deadlineFor({ query: '{ subscription: balances { currency } }' }, 500, 1_000)).toBe(1_500);
  });

  it('picks the named operation of a document with several', () => {
    const query = 'query Q { balances { currency } } subscription S { payoutFunding { id } }';
    expect(deadlineFor({ query, operationName: 'Q' }, 500, 1_000)).toBe(1_500);
    expect(deadlineFor({ query, operationName: 'S' }, 500, 1_000)).toBeUndefined();
  });
});

describe('pause and raceSignal', () => {
  it('stop waiting when the signal aborts', async () => {
    const controller = new AbortController();
    const waiting = pause(60_000, controller.signal);
    const racing = raceSignal(new Promise(() => {}), controller.signal, () => new Error('deadline'));
    controller.abort();
    expect(await waiting).toBe(false);
    await expect(racing).rejects.toThrow('deadline');
    expect(await pause(1, undefined)).toBe(true);
    expect(await raceSignal(Promise.resolve('token'), new AbortController().signal, () => new Error('late'))).toBe('token');
  });
});
