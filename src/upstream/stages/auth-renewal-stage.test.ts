import { describe, expect, it, vi } from 'vitest';
import { accountEndpoints } from '../accounts.ts';
import { UpstreamAuthError, UpstreamUnavailableError } from '../errors.ts';
import { createSharedCallState } from '../shared-call-state.ts';
import { prepareCall, type TokenSource, type UpstreamCall } from './call.ts';
import { authRenewalStage } from './auth-renewal-stage.ts';

const stage = authRenewalStage(createSharedCallState());
const newCall = (auth: TokenSource | undefined, deadline?: number) =>
  prepareCall(accountEndpoints.list, { auth, deadline }, { prefix: '', serviceSegment: 'svc' }, 1);

/** A `next` that refuses every token but `accepted`, and records the tokens it was given. */
function bank(call: UpstreamCall, accepted: string) {
  const seen: (string | undefined)[] = [];
  const next = async () => {
    seen.push(call.token);
    if (call.token !== accepted) throw new UpstreamAuthError(401, 'token expired', call.details);
    return 'ok';
  };
  return { seen, next };
}

describe('authRenewalStage', () => {
  it('renews a refused token of its own once and tries again with the new one', async () => {
    const renewed: string[] = [];
    const call = newCall({ get: async () => 'old', renew: async (refused) => (renewed.push(refused), 'new') });
    const { seen, next } = bank(call, 'new');
    expect(await stage(call, next)).toBe('ok');
    expect(seen).toEqual(['old', 'new']);
    expect(renewed).toEqual(['old']);
  });

  it('passes a caller token refusal back without renewing, and renews at most once', async () => {
    const callers = newCall({ get: async () => 'theirs' });
    const caller = bank(callers, 'never');
    await expect(stage(callers, caller.next)).rejects.toBeInstanceOf(UpstreamAuthError);
    expect(caller.seen).toEqual(['theirs']);
    const ours = newCall({ get: async () => 'a', renew: async () => 'b' });
    const twice = bank(ours, 'never');
    await expect(stage(ours, twice.next)).rejects.toBeInstanceOf(UpstreamAuthError);
    expect(twice.seen).toEqual(['a', 'b']);
  });

  it('waits for a slow login no longer than the deadline', async () => {
    const call = newCall({ get: () => new Promise<string>(() => {}) });
    call.signal = AbortSignal.timeout(20);
    let sent = false;
    const error = await stage(call, async () => (sent = true)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error).toMatchObject({ reason: 'DEADLINE_EXCEEDED' });
    expect(sent).toBe(false);
  });

  it('takes a token at hand without racing it against the signal: no listener per call', async () => {
    const call = newCall({ get: () => Promise.reject(new Error('no wait expected')), current: () => 'cached' });
    const operation = new AbortController();
    const listening = vi.spyOn(operation.signal, 'addEventListener');
    call.signal = operation.signal;
    expect(await stage(call, async () => call.token)).toBe('cached');
    expect(listening).not.toHaveBeenCalled();
  });

  it('sends no token for an endpoint without one', async () => {
    const call = newCall(undefined);
    expect(await stage(call, async () => call.token ?? 'none')).toBe('none');
  });
});
