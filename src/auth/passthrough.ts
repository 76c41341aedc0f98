import type { Upstream, UpstreamRuntime } from '../upstream/index.ts';
import { UpstreamAuthError } from '../upstream/errors.ts';
import { TtlCache } from '../upstream/ttl-cache.ts';
import { sha256Hex } from './api-keys.ts';

/**
 * Passthrough: the bank itself judges a caller's token, on every call that carries it. Two paths
 * carry none, so a made-up bearer would reach them unchecked: webhook management (x-api-key only)
 * and subscriptions (fed by webhook events, not by calls made with the token). Before those, the
 * token is proven with one cheap authenticated read (the balances), remembered for a minute by a
 * hash of the token, never the token; concurrent checks of one token share one call.
 *
 * Other operations are not checked ahead: their own calls carry the token and the bank refuses a
 * bad one, so a check would only add a round trip. A token revoked upstream keeps passing the
 * check for at most the minute it is remembered.
 */
export const TOKEN_CHECK_TTL_MS = 60_000;

/** Resolves when the bank accepts `token`; rejects with its UpstreamAuthError when it does not. */
export type TokenCheck = (token: string, correlationId?: string) => Promise<void>;

export function createTokenCheck(upstream: UpstreamRuntime, ttlMs = TOKEN_CHECK_TTL_MS): TokenCheck {
  // Refusals are remembered too (a bogus token stays bogus); other failures (bank down) are not.
  const verdicts = new TtlCache<UpstreamAuthError | undefined>({ ttlMs, maxEntries: 10_000 });
  return async (token, correlationId) => {
    const refused = await verdicts.get(sha256Hex(token), () =>
      upstream
        .forRequest({ callerToken: token, gatewayLogin: false, correlationId })
        .accounts.balances()
        .then(
          () => undefined,
          (error: unknown) => {
            if (error instanceof UpstreamAuthError) return error;
            throw error;
          },
        ),
    );
    if (refused) throw refused;
  };
}

/** Webhook management, each call preceded by `before` (the token check): the tokenless calls. */
export function guardTokenless(upstream: Upstream, before: () => Promise<void>): Upstream {
  const guarded = Object.fromEntries(
    Object.entries(upstream.webhooks).map(([name, call]) => [
      name,
      async (...args: unknown[]) => {
        await before();
        return (call as (...a: unknown[]) => unknown)(...args);
      },
    ]),
  ) as Upstream['webhooks'];
  return { ...upstream, webhooks: guarded };
}
