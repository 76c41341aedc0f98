import { describe, expect, it } from 'vitest';
import { BalancesDocument } from '../generated/graphql.ts';
import { useKit } from '../helpers/kit.ts';

/**
 * /readyz asks the bank, not the token cache: a gateway holding a valid token while the bank fails
 * is not ready. A gateway whose bank answered real traffic a moment ago needs no probe.
 */
const BALANCE = '/svc/api/v1/account/balance';

async function readyz(baseUrl: string | undefined) {
  const response = await fetch(`${baseUrl}/readyz`);
  return {
    status: response.status,
    body: (await response.json()) as { status: string; detail: string; checks: Record<string, { ok: boolean; detail: string }> },
  };
}

describe('readiness of an idle gateway: it probes the bank', () => {
  const kit = useKit({ listen: true, readiness: { recentAnswerMs: 0, probeReuseMs: 0 } });

  it('is not ready while the bank fails, though a token is cached, and ready once it answers again', async () => {
    // The kit's fresh start logged the gateway in: its token is cached and still valid.
    await kit.control('POST', 'faults', { kind: 'status', status: 503, rate: 1, path: BALANCE });
    const failing = await readyz(kit.baseUrl);
    expect(failing.status).toBe(503);
    expect(failing.body.checks.bank).toEqual({ ok: false, detail: 'The bank is not answering: it failed with HTTP 503' });
    expect(failing.body.detail).toBe('bank: The bank is not answering: it failed with HTTP 503');
    // Asked of the bank, not of the token cache; and no new login was needed.
    expect(kit.calls(BALANCE).map((call) => call.status)).toContain(503);
    expect(kit.calls('/api/v1/authentication/login')).toEqual([]);

    await kit.control('DELETE', 'faults');
    const back = await readyz(kit.baseUrl);
    expect(back).toMatchObject({ status: 200, body: { status: 'ready', checks: { bank: { ok: true } } } });
  });
});

describe('readiness of a busy gateway: real traffic is the evidence', () => {
  const kit = useKit({ listen: true });

  it('makes no call of its own when the bank answered one a moment ago', async () => {
    expect((await kit.execute(BalancesDocument, {})).errors).toBeUndefined();
    await kit.resetCounts();
    const ready = await readyz(kit.baseUrl);
    expect(ready.status).toBe(200);
    expect(ready.body.checks.bank!.detail).toMatch(/^the bank answered a call \d+ s ago$/);
    expect(kit.calls()).toEqual([]);
  });
});
