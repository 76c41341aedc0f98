import { describe, expect, it } from 'vitest';
import { accountEndpoints } from '../accounts.ts';
import { UpstreamUnavailableError } from '../errors.ts';
import { createSharedCallState } from '../shared-call-state.ts';
import type { UpstreamCallRecord } from '../observer.ts';
import { prepareCall } from './call.ts';
import { rateLimitWaitStage } from './rate-limit-wait-stage.ts';

function setup() {
  const records: UpstreamCallRecord[] = [];
  const callState = createSharedCallState({ observer: { call: (record) => records.push(record), breaker: () => {} } });
  return { callState, records, stage: rateLimitWaitStage(callState, 1_000) };
}
const newCall = (deadline?: number) => prepareCall(accountEndpoints.list, { deadline }, { prefix: '', serviceSegment: 'svc' }, 1);

describe('rateLimitWaitStage', () => {
  it('goes straight on when nothing holds the family', async () => {
    const { stage } = setup();
    // Sent before any timer could fire: no wait at all, however busy the machine.
    const timer = new Promise((resolve) => setTimeout(() => resolve('a timer fired first'), 0));
    expect(await Promise.race([stage(newCall(), async () => 'sent'), timer])).toBe('sent');
  });

  it('waits out a hold on the family before sending', async () => {
    const { callState, stage } = setup();
    callState.rateLimitHolds.holdOff('banking', Date.now() + 80);
    const started = Date.now();
    expect(await stage(newCall(Date.now() + 5_000), async () => Date.now() - started)).toBeGreaterThanOrEqual(70);
  });

  it('fails fast with RATE_LIMITED when the hold outlasts the deadline, sending nothing', async () => {
    const { callState, records, stage } = setup();
    callState.rateLimitHolds.holdOff('banking', Date.now() + 4_000);
    let sent = false;
    const error = await stage(newCall(Date.now() + 1_000), async () => (sent = true)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error).toMatchObject({ reason: 'RATE_LIMITED', retryAfterSeconds: 4 });
    expect(sent).toBe(false);
    expect(records.map((r) => r.status)).toEqual(['rate-limited']);
    // Other families are not held.
    const other = prepareCall(accountEndpoints.list, {}, { prefix: '', serviceSegment: 'svc' }, 1);
    expect(callState.rateLimitHolds.heldUntil(other.family)).toBeDefined();
    expect(callState.rateLimitHolds.heldUntil('issuing')).toBeUndefined();
  });
});
