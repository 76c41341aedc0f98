import { describe, expect, it } from 'vitest';
import { accountEndpoints } from '../accounts.ts';
import { UpstreamUnavailableError } from '../errors.ts';
import { UpstreamGuards } from '../guards.ts';
import type { UpstreamCallRecord } from '../observer.ts';
import { prepareCall } from './call.ts';
import { deadlineStage } from './deadline.ts';

function setup() {
  const records: UpstreamCallRecord[] = [];
  const guards = new UpstreamGuards({ observer: { call: (record) => records.push(record), breaker: () => {} } });
  return { records, stage: deadlineStage(guards) };
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

  it('gives the call a signal that aborts at the deadline, and none without one', async () => {
    const { stage } = setup();
    const call = callBy(Date.now() + 30);
    const signal = await stage(call, async () => call.signal);
    expect(signal?.aborted).toBe(false);
    await new Promise((resolve) => signal!.addEventListener('abort', resolve));
    expect(signal?.aborted).toBe(true);
    const open = callBy(undefined);
    expect(await stage(open, async () => open.signal)).toBeUndefined();
  });
});
