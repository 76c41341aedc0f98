import { describe, expect, it } from 'vitest';
import { pause, raceSignal } from './deadline-signals.ts';

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
