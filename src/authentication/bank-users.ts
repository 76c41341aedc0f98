import { LRUCache } from 'lru-cache';
import { entryBound } from '../platform/lru-bounds.ts';
import { DEFAULT_TOKEN_LIFETIME_MS } from '../upstream/bank-tokens.ts';
import { sha256Hex } from './api-keys.ts';
import { jose } from './jwt.ts';
import type { TokenCheck } from './passthrough.ts';

/**
 * Whose bank token is this? A passthrough caller is keyed by its bank user, not by its token: a user
 * who logs in three times is one client for the limits, the fair share, the logs and the audit trail.
 *
 * The bank's access token is a JWT (Document 1, 2.2: "bearer token (JWT form)") whose claims the
 * documents do not show; the gateway cannot verify its signature (the key is the bank's), so its
 * `sub` claim is believed only once the bank itself accepted the token: the token came back from
 * the bank's login through accessTokenCreate, or the bank answered a call made with it. A token
 * with no readable `sub` is a user of its own, named by a hash prefix of the token.
 */
export interface BankUsers {
  /**
   * The bank user behind `token`: remembered, or proven now with one bank call, which `beforeProof`
   * may refuse first (the anonymous caller's operations per window: made-up tokens cost the bank a
   * call each only within that window). A token the bank refused lately is refused again without a
   * call. Rejects with the bank's UpstreamAuthError, or whatever failed.
   */
  userOf(token: string, options?: { beforeProof?: () => Promise<void>; correlationId?: string | undefined }): Promise<string>;
  /** A token the bank's login just issued (accessTokenCreate): its user is known without a proof. */
  learn(token: string): void;
}

const MAX_TOKENS = 50_000;

export function createBankUsers(check: TokenCheck, now: () => number = Date.now): BankUsers {
  // By a hash of the token, for as long as the token lives: who a token belongs to never changes.
  const users = new LRUCache<string, string>({ ...entryBound(MAX_TOKENS), ttlAutopurge: false });
  const remember = (token: string): string => {
    const { user, expiresAt } = claimsOf(token, now());
    users.set(sha256Hex(token), user, { ttl: Math.max(1_000, Math.min(expiresAt - now(), DEFAULT_TOKEN_LIFETIME_MS)) });
    return user;
  };
  return {
    async userOf(token, options = {}) {
      const known = users.get(sha256Hex(token));
      if (known !== undefined) return known;
      // A remembered verdict costs nothing; only a token the bank was not asked about is gated.
      if (check.peek(token) === undefined) await options.beforeProof?.();
      await check(token, options.correlationId);
      return remember(token);
    },
    learn: (token) => void remember(token),
  };
}

/** The token's `sub` and `exp`, read without a signature check (see above); fallbacks for a token that has none. */
function claimsOf(token: string, now: number): { user: string; expiresAt: number } {
  let claims: { sub?: unknown; exp?: unknown } = {};
  try {
    claims = jose().decodeJwt(token);
  } catch {
    // Not a JWT after all: the token stands for itself.
  }
  const sub = typeof claims.sub === 'string' && claims.sub.length > 0 && claims.sub.length <= 200 ? claims.sub : undefined;
  const exp = typeof claims.exp === 'number' && Number.isFinite(claims.exp) ? claims.exp * 1000 : now + DEFAULT_TOKEN_LIFETIME_MS;
  return { user: sub ?? `bank-token:${sha256Hex(token).slice(0, 12)}`, expiresAt: exp };
}
