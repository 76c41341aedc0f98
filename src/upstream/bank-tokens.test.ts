import { describe, expect, it } from 'vitest';
import { silentLogger } from '../platform/logger.ts';
import { DEFAULT_TOKEN_LIFETIME_MS, expiresAtFrom, TokenManager } from './bank-tokens.ts';

const NOW = Date.parse('2026-11-21T10:00:00Z');

describe('expiresAtFrom (expiry_time has no documented unit)', () => {
  it('reads epoch seconds', () => expect(expiresAtFrom(NOW / 1000 + 1800, NOW)).toBe(NOW + 1_800_000));
  it('reads epoch milliseconds', () => expect(expiresAtFrom(NOW + 1_800_000, NOW)).toBe(NOW + 1_800_000));
  it('reads a lifetime in seconds', () => expect(expiresAtFrom(1800, NOW)).toBe(NOW + 1_800_000));
  it('reads a lifetime in milliseconds', () => expect(expiresAtFrom(1_800_000, NOW)).toBe(NOW + 1_800_000));
  it('falls back to 30 minutes when absent', () => {
    expect(expiresAtFrom(undefined, NOW)).toBe(NOW + DEFAULT_TOKEN_LIFETIME_MS);
    expect(expiresAtFrom(null, NOW)).toBe(NOW + DEFAULT_TOKEN_LIFETIME_MS);
  });
  it('does not believe an expiry in the past or days away', () => {
    expect(expiresAtFrom(NOW / 1000 - 60, NOW)).toBe(NOW + DEFAULT_TOKEN_LIFETIME_MS);
    expect(expiresAtFrom(NOW / 1000 + 7 * 86400, NOW)).toBe(NOW + DEFAULT_TOKEN_LIFETIME_MS);
  });
});

describe('TokenManager', () => {
  function manager(lifetimeMs = 1_800_000) {
    let now = NOW;
    let logins = 0;
    const tokens = new TokenManager({
      logger: silentLogger,
      now: () => now,
      login: async () => {
        logins += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { token: `token-${logins}`, expiresAt: now + lifetimeMs };
      },
    });
    return { tokens, logins: () => logins, advance: (ms: number) => (now += ms) };
  }

  it('logs in once for 100 concurrent callers', async () => {
    const m = manager();
    const got = await Promise.all(Array.from({ length: 100 }, () => m.tokens.get()));
    expect(new Set(got)).toEqual(new Set(['token-1']));
    expect(m.logins()).toBe(1);
  });

  it('renews ahead of expiry, not after', async () => {
    const m = manager();
    await m.tokens.get();
    m.advance(1_800_000 - 120_000);
    expect(await m.tokens.get()).toBe('token-1');
    m.advance(90_000);
    expect(await m.tokens.get()).toBe('token-2');
    expect(m.logins()).toBe(2);
  });

  it('renews a refused token once, however many requests saw the refusal', async () => {
    const m = manager();
    const refused = await m.tokens.get();
    const renewed = await Promise.all(Array.from({ length: 10 }, () => m.tokens.renew(refused)));
    expect(new Set(renewed)).toEqual(new Set(['token-2']));
    expect(m.logins()).toBe(2);
    // A late 401 for the old token must not throw away the new one.
    expect(await m.tokens.renew(refused)).toBe('token-2');
    expect(m.logins()).toBe(2);
  });
});
