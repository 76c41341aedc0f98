import { describe, expect, it } from 'vitest';
import { accountEndpoints } from '../accounts.ts';
import { OperationAbandonedError, UpstreamUnavailableError } from '../errors.ts';
import { createSharedCallState } from '../shared-call-state.ts';
import type { UpstreamCallRecord } from '../observer.ts';
import { startOperation } from '../operation.ts';
import { prepareCall } from './call.ts';
import { deadlineStage } from './deadline-stage.ts';

function setup() {
  const records: UpstreamCallRecord[] = [];
  const callState = createSharedCallState({ observer: { call: (record) => records.push(record), breaker: () => {} } });
  return { records, stage: deadlineStage(callState) };
}
const callBy = (deadline: number | undefined) => prepareCall(accountEndpoints.list, { deadline }, { prefix: '', serviceSegment: 'svc' }, 1);

describe('deadlineStage', () => {
  it('refuses a call whose deadline has gone, without running the rest, as DEADLINE_EXCEEDED not in flight', async () => {
    const { records, stage } = setup();
    let ran = false;
    const error = await stage(callBy(Date.now() - 1), async () => (ran = true)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error).toMatchObject({ reason: 'DEADLINE_EXCEEDED', inFlight: false });
    expect(ran).toBe(false);
    expect(records.map((r) => r.status)).toEqual(['deadline']);
  });

  it('gives the call a signal that aborts at the deadline while it is under way, and none without one', async () => {
    const { stage } = setup();
    const call = callBy(Date.now() + 30);
    const reason = await stage(call, async () => {
      expect(call.signal?.aborted).toBe(false);
      await new Promise((resolve) => call.signal!.addEventListener('abort', resolve));
      return call.signal?.reason as unknown;
    });
    expect(reason).toMatchObject({ name: 'TimeoutError' });
    const open = callBy(undefined);
    expect(await stage(open, async () => open.signal)).toBeUndefined();
  });

  it("gives an operation's calls the signals it made once, with no timer of their own", async () => {
    const { stage } = setup();
    const operation = startOperation({ deadline: Date.now() + 60_000, client: undefined });
    const call = prepareCall(accountEndpoints.list, { deadline: operation.deadline, operation }, { prefix: '', serviceSegment: 'svc' }, 1);
    await stage(call, async () => undefined);
    expect(call.signal).toBe(operation.signal);
    expect(call.deadlineSignal).toBe(operation.deadlineSignal);
    operation.end();
  });

  it('refuses a call of an operation whose client left as its abandonment, unobserved: it says nothing of the bank', async () => {
    const { records, stage } = setup();
    const operation = startOperation({ deadline: Date.now() + 60_000, client: AbortSignal.abort() });
    let ran = false;
    const call = prepareCall(accountEndpoints.list, { deadline: operation.deadline, operation }, { prefix: '', serviceSegment: 'svc' }, 1);
    const error = await stage(call, async () => (ran = true)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperationAbandonedError);
    expect(ran).toBe(false);
    expect(records).toEqual([]);
  });

  it('clears the deadline timer once the call is over, so nothing of the call stays alive until its deadline', async () => {
    // AbortSignal.timeout would keep its timer, and the signal with it, until the deadline: under
    // load, every finished call's signal outlived young-generation collections.
    const { stage } = setup();
    const call = callBy(Date.now() + 20);
    const signal = await stage(call, async () => call.signal);
    const failed = callBy(Date.now() + 20);
    const failedSignal = await stage(failed, async () => {
      throw new Error('bank down');
    }).catch(() => failed.signal);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(signal?.aborted).toBe(false);
    expect(failedSignal?.aborted).toBe(false);
  });
});
