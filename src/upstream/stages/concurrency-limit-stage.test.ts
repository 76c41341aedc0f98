import { describe, expect, it } from 'vitest';
import { accountEndpoints } from '../accounts.ts';
import { OperationAbandonedError, UpstreamNetworkError, UpstreamUnavailableError } from '../errors.ts';
import { createSharedCallState } from '../shared-call-state.ts';
import { HostLimit } from '../host-limit.ts';
import type { UpstreamCallRecord } from '../observer.ts';
import { prepareCall } from './call.ts';
import { concurrencyLimitStage } from './concurrency-limit-stage.ts';
import type { Answer } from './send.ts';

function setup(initial: number, adaptive = false) {
  const records: UpstreamCallRecord[] = [];
  const waits: number[] = [];
  const callState = createSharedCallState({
    observer: { call: (record) => records.push(record), breaker: () => {}, queueWait: (_host, ms) => waits.push(ms) },
  });
  const limit = new HostLimit('bank.example', { initial, min: 1, max: 100, adaptive, perClient: 0, sharePercent: 50 }, callState.observer);
  return { limit, records, waits, stage: concurrencyLimitStage(limit, callState) };
}
const newCall = (correlationId?: string) => prepareCall(accountEndpoints.list, { correlationId }, { prefix: '', serviceSegment: 'svc' }, 1);
const answer = (statusCode: number): Answer => ({ statusCode, headers: {}, body: undefined });

describe('concurrencyLimitStage', () => {
  it('holds calls beyond the limit until a slot frees, and reports how long each waited', async () => {
    const { limit, stage, waits } = setup(1);
    let release!: () => void;
    const first = stage(newCall(), () => new Promise<Answer>((resolve) => (release = () => resolve(answer(200)))));
    const second = stage(newCall(), async () => answer(201));
    await new Promise((resolve) => setImmediate(resolve));
    expect(limit.state).toEqual({ limit: 1, inFlight: 1, queued: 1, heldByClientShare: 0 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    expect((await Promise.all([first, second])).map((a) => a.statusCode)).toEqual([200, 201]);
    expect(limit.state).toEqual({ limit: 1, inFlight: 0, queued: 0, heldByClientShare: 0 });
    expect(waits).toHaveLength(2);
    // Both were queued in the same instant; the second waited the 20 ms the first held its slot on
    // top of whatever the first waited (nothing but a turn, or a stall of a busy machine, which both share).
    expect(waits[1]! - waits[0]!).toBeGreaterThanOrEqual(15);
    expect(waits[1]).toBeGreaterThanOrEqual(15);
  });

  it('takes a call whose deadline passes in the queue out of it, never sent, as DEADLINE_EXCEEDED not in flight', async () => {
    const { limit, records, stage } = setup(1);
    let release!: () => void;
    const busy = stage(newCall(), () => new Promise<Answer>((resolve) => (release = () => resolve(answer(200)))));
    await new Promise((resolve) => setImmediate(resolve));
    const late = newCall();
    late.signal = AbortSignal.timeout(20);
    let sent = false;
    const error = await stage(late, async () => ((sent = true), answer(200))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error).toMatchObject({ reason: 'DEADLINE_EXCEEDED', inFlight: false });
    expect(sent).toBe(false);
    expect(records.map((r) => r.status)).toEqual(['deadline']);
    expect(limit.state.queued).toBe(0);
    release();
    await busy;
  });

  it('does not send a call granted its slot after its deadline, though its own signal has not fired yet', async () => {
    // Each call's deadline has a timer of its own: another call's can fire first and free the slot
    // a moment before this one's, as a flaky run of test/integration/fair-share.test.ts showed (the bank got it).
    const { limit, records, stage } = setup(1);
    let release!: () => void;
    const busy = stage(newCall(), () => new Promise<Answer>((resolve) => (release = () => resolve(answer(200)))));
    await new Promise((resolve) => setImmediate(resolve));
    const late = prepareCall(accountEndpoints.list, { deadline: Date.now() + 10 }, { prefix: '', serviceSegment: 'svc' }, 1);
    late.signal = new AbortController().signal;
    let sent = false;
    const outcome = stage(late, async () => ((sent = true), answer(200))).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 30));
    release();
    const error = await outcome;
    expect(sent).toBe(false);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error).toMatchObject({ reason: 'DEADLINE_EXCEEDED', inFlight: false });
    expect(records.map((r) => r.status)).toEqual(['deadline']);
    expect(limit.state).toMatchObject({ inFlight: 0, queued: 0 });
    await busy;
  });

  it('takes a call whose client leaves out of the queue, never sent, as the abandonment, unobserved', async () => {
    const { limit, records, stage } = setup(1);
    let release!: () => void;
    const busy = stage(newCall(), () => new Promise<Answer>((resolve) => (release = () => resolve(answer(200)))));
    await new Promise((resolve) => setImmediate(resolve));
    const client = new AbortController();
    const left = newCall('screen');
    left.signal = client.signal;
    let sent = false;
    const outcome = stage(left, async () => ((sent = true), answer(200))).catch((e: unknown) => e);
    client.abort(new OperationAbandonedError('screen'));
    expect(await outcome).toBeInstanceOf(OperationAbandonedError);
    expect(sent).toBe(false);
    expect(records).toEqual([]);
    expect(limit.state).toMatchObject({ inFlight: 1, queued: 0 });
    release();
    await busy;
    expect(limit.state.inFlight).toBe(0);
  });

  it('passes on a failure of the send itself unchanged, and frees its slot', async () => {
    const { stage, limit } = setup(2);
    const failure = new Error('the send failed');
    await expect(stage(newCall(), () => Promise.reject(failure))).rejects.toBe(failure);
    expect(limit.state.inFlight).toBe(0);
  });

  it('halves the limit on a 429, a 503 or an attempt timeout, and raises it on answers while calls queue', async () => {
    const { stage, limit } = setup(8, true);
    await stage(newCall(), async () => answer(429));
    expect(limit.state.limit).toBe(4);
    await stage(newCall(), async () => answer(503));
    expect(limit.state.limit).toBe(2);
    const timeout = new UpstreamNetworkError('UND_ERR_HEADERS_TIMEOUT', { endpoint: 'x', requestId: 'r' }, { timedOut: true });
    await expect(stage(newCall(), () => Promise.reject(timeout))).rejects.toBe(timeout);
    expect(limit.state.limit).toBe(1);
    // Two calls at once against a limit of 1: the second queues, so the first's answer shows the limit held calls back.
    await Promise.all([stage(newCall(), async () => answer(200)), stage(newCall(), async () => answer(200))]);
    expect(limit.state.limit).toBeGreaterThan(1);
  });

  it('learns nothing from a 4xx it cannot act on beyond its latency, nor from a network failure', async () => {
    const { stage, limit } = setup(8, true);
    await stage(newCall(), async () => answer(400));
    const refused = new UpstreamNetworkError('ECONNREFUSED', { endpoint: 'x', requestId: 'r' });
    await expect(stage(newCall(), () => Promise.reject(refused))).rejects.toBe(refused);
    expect(limit.state.limit).toBe(8);
  });
});
