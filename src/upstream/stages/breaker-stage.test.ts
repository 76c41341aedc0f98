import { describe, expect, it } from 'vitest';
import { DEFAULT_RESILIENCE } from '../../settings/index.ts';
import { createLogger } from '../../platform/logger.ts';
import { accountEndpoints } from '../accounts.ts';
import { UpstreamRejectedError, UpstreamServerError, UpstreamUnavailableError } from '../errors.ts';
import { createSharedCallState } from '../shared-call-state.ts';
import { prepareCall, type UpstreamCall } from './call.ts';
import { breakerStage } from './breaker-stage.ts';

const BREAKER = { errorRate: 0.5, minCalls: 2, windowMs: 10_000, openMs: 60_000 };

function setup() {
  const lines: string[] = [];
  const logger = createLogger('info', { write: (line) => lines.push(line) });
  const callState = createSharedCallState({ resilience: { ...DEFAULT_RESILIENCE, breaker: BREAKER } });
  return { callState, lines, stage: breakerStage(callState, logger) };
}
const newCall = () => prepareCall(accountEndpoints.list, {}, { prefix: '', serviceSegment: 'svc' }, 10);
const serverError = (call: UpstreamCall) => new UpstreamServerError(503, 'down', call.details);

describe('breakerStage', () => {
  it('counts the bank failing, opens, then refuses at once with CIRCUIT_OPEN and sends nothing', async () => {
    const { callState, lines, stage } = setup();
    for (let i = 0; i < 2; i++) {
      const call = newCall();
      await expect(stage(call, () => Promise.reject(serverError(call)))).rejects.toBeInstanceOf(UpstreamServerError);
    }
    expect(callState.breakers.get('banking').state).toBe('open');
    expect(lines.filter((line) => line.includes('upstream call failed'))).toHaveLength(2);
    let sent = false;
    const error = await stage(newCall(), async () => (sent = true)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error).toMatchObject({ reason: 'CIRCUIT_OPEN' });
    expect(sent).toBe(false);
  });

  it('does not count a refusal, a deadline met in the queue, or a failure the call inherited', async () => {
    const { callState, stage } = setup();
    const outcomes = [
      (call: UpstreamCall) => new UpstreamRejectedError(400, 'bad input', call.details),
      (call: UpstreamCall) => callState.stoppedCalls.deadlineExceededError(call.details, false),
      () => new UpstreamServerError(503, 'the login failed', { endpoint: 'POST /login', requestId: 'another call' }),
    ];
    for (const outcome of outcomes) {
      for (let i = 0; i < 3; i++) {
        const call = newCall();
        await stage(call, () => Promise.reject(outcome(call))).catch(() => undefined);
      }
    }
    expect(callState.breakers.get('banking').state).toBe('closed');
  });

  it('makes a half-open probe a single attempt', async () => {
    const { callState, stage } = setup();
    const clock = { now: Date.now() };
    const probing = createSharedCallState({ resilience: { ...DEFAULT_RESILIENCE, breaker: BREAKER }, now: () => clock.now });
    const probeStage = breakerStage(probing, createLogger('silent'));
    for (let i = 0; i < 2; i++) {
      const call = newCall();
      await probeStage(call, () => Promise.reject(serverError(call))).catch(() => undefined);
    }
    clock.now += BREAKER.openMs + 1;
    const probe = newCall();
    expect(await probeStage(probe, async () => probe.maxAttempts)).toBe(1);
    expect(probing.breakers.get('banking').state).toBe('closed');
    const ordinary = newCall();
    expect(await stage(ordinary, async () => ordinary.maxAttempts)).toBe(10);
    expect(callState.breakers.get('banking').state).toBe('closed');
  });
});
