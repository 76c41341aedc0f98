import { describe, expect, it } from 'vitest';
import { accountEndpoints } from '../accounts.ts';
import { UpstreamUnavailableError } from '../errors.ts';
import { UpstreamGuards } from '../guards.ts';
import { ConcurrencyLimiter } from '../limiter.ts';
import type { UpstreamCallRecord } from '../observer.ts';
import { prepareCall } from './call.ts';
import { concurrencyLimitStage } from './concurrency-limit.ts';

function setup(max: number) {
  const records: UpstreamCallRecord[] = [];
  const guards = new UpstreamGuards({ observer: { call: (record) => records.push(record), breaker: () => {} } });
  const limiter = new ConcurrencyLimiter(max);
  return { limiter, records, stage: concurrencyLimitStage(limiter, guards) };
}
const newCall = () => prepareCall(accountEndpoints.list, {}, { prefix: '', serviceSegment: 'svc' }, 1);

describe('concurrencyLimitStage', () => {
  it('holds calls beyond the limit until a slot frees', async () => {
    const { limiter, stage } = setup(1);
    let release!: () => void;
    const first = stage(newCall(), () => new Promise<string>((resolve) => (release = () => resolve('first'))));
    const second = stage(newCall(), async () => 'second');
    await Promise.resolve();
    expect([limiter.active, limiter.queued]).toEqual([1, 1]);
    release();
    expect(await Promise.all([first, second])).toEqual(['first', 'second']);
    expect([limiter.active, limiter.queued]).toEqual([0, 0]);
  });

  it('takes a call whose deadline passes in the queue out of it, never sent, as DEADLINE_EXCEEDED not in flight', async () => {
    const { limiter, records, stage } = setup(1);
    let release!: () => void;
    const busy = stage(newCall(), () => new Promise<void>((resolve) => (release = resolve)));
    const late = newCall();
    late.signal = AbortSignal.timeout(20);
    let sent = false;
    const error = await stage(late, async () => (sent = true)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error).toMatchObject({ reason: 'DEADLINE_EXCEEDED', inFlight: false });
    expect(sent).toBe(false);
    expect(records.map((r) => r.status)).toEqual(['deadline']);
    expect(limiter.queued).toBe(0);
    release();
    await busy;
  });

  it('passes on a failure of the send itself unchanged', async () => {
    const { stage } = setup(2);
    const failure = new Error('the send failed');
    await expect(stage(newCall(), () => Promise.reject(failure))).rejects.toBe(failure);
  });
});
