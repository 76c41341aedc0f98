/**
 * Virtual time: real time plus an offset. Everything time-based in the sandbox (token
 * expiry, "today", create_time of new records) reads this clock, so tests can move time
 * forward instead of sleeping.
 */
export interface SandboxClock {
  now(): Date;
  /** Moves the clock forward and returns the new now. */
  advance(ms: number): Date;
  /** Back to real time. */
  reset(): void;
}

export function createClock(): SandboxClock {
  let offsetMs = 0;
  const now = (): Date => new Date(Date.now() + offsetMs);
  return {
    now,
    advance(ms) {
      // Time only moves forward: issued tokens and stored records assume it never rewinds.
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('clock can only advance by a finite, non-negative amount');
      offsetMs += ms;
      return now();
    },
    reset() {
      offsetMs = 0;
    },
  };
}
