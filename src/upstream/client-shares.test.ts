import { describe, expect, it } from 'vitest';
import { ACTIVE_MS, ClientShares, OWN_CALLS } from './client-shares.ts';

/** Shares with a clock the test moves; nobody waits unless named. */
function setup(rules: { perClient?: number; sharePercent?: number }) {
  let now = 0;
  const shares = new ClientShares({ ...rules, now: () => now });
  const waiting = new Set<string>();
  const hold = (client: string, count: number) => {
    for (let i = 0; i < count; i++) {
      shares.seen(client);
      shares.take(client);
    }
  };
  return {
    shares,
    waiting,
    hold,
    may: (client: string, limit = 10) => shares.mayTake(client, limit, (c) => waiting.has(c)),
    advance: (ms: number) => (now += ms),
  };
}

describe('ClientShares', () => {
  it('lets a client alone fill the whole limit', () => {
    const { hold, may } = setup({ sharePercent: 50 });
    hold('flood', 9);
    expect(may('flood')).toBe(true);
  });

  it('holds a client at its share (rounded up) while another has a call in flight', () => {
    const { hold, may, shares } = setup({ sharePercent: 50 });
    hold('flood', 5);
    hold('quiet', 1);
    expect([may('flood'), may('quiet')]).toEqual([false, true]);
    expect(may('flood', 11)).toBe(true);
    shares.release('flood');
    expect(may('flood')).toBe(true);
  });

  it('counts a client as active for a second after its last call, and while it has calls waiting', () => {
    const { hold, may, shares, waiting, advance } = setup({ sharePercent: 50 });
    hold('quiet', 1);
    shares.release('quiet');
    hold('flood', 5);
    advance(ACTIVE_MS - 1);
    expect(may('flood')).toBe(false);
    advance(2);
    expect(may('flood')).toBe(true);
    // A call that waits longer than that keeps its client active.
    shares.seen('quiet');
    waiting.add('quiet');
    advance(5 * ACTIVE_MS);
    expect(may('flood')).toBe(false);
  });

  it("leaves the gateway's own calls out: they are held by no share and make nobody's smaller", () => {
    const { hold, may } = setup({ sharePercent: 50 });
    hold(OWN_CALLS, 7);
    hold('flood', 8);
    expect([may('flood'), may(OWN_CALLS)]).toEqual([true, true]);
  });

  it('holds a client at its own cap whoever else is there, and lets 100 % mean no share', () => {
    const capped = setup({ perClient: 3, sharePercent: 100 });
    capped.hold('flood', 3);
    expect(capped.may('flood')).toBe(false);
    const unshared = setup({ sharePercent: 100 });
    unshared.hold('flood', 9);
    unshared.hold('quiet', 1);
    expect(unshared.may('flood')).toBe(true);
  });
});
