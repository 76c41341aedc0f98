import { withDomains, type Upstream, type UpstreamRuntime } from '../upstream/index.ts';
import { UpstreamAuthError } from '../upstream/errors.ts';
import { TtlCache } from '../upstream/ttl-cache.ts';
import { sha256Hex } from './api-keys.ts';

/**
 * Whether the bank accepts a caller's token, asked with one cheap authenticated read (the balances)
 * and remembered for a minute by a hash of the token, never the token; concurrent checks of one
 * token share one call. A token is proven before its first operation (bank-users.ts: whose is it?)
 * and again, at most once a minute, before the calls that carry no token of their own: webhook
 * management (x-api-key only) and each event of a subscription (fed by webhook events, not by
 * calls made with the token). A token revoked upstream keeps passing for at most the minute it is
 * remembered; its own calls are refused by the bank at once.
 */
const TOKEN_CHECK_TTL_MS = 60_000;

export interface TokenCheck {
  /** Resolves when the bank accepts `token`; rejects with its UpstreamAuthError when it does not. */
  (token: string, correlationId?: string): Promise<void>;
  /** The remembered verdict, without asking: undefined when the bank was not asked lately. */
  peek(token: string): 'accepted' | 'refused' | undefined;
}

export function createTokenCheck(upstream: UpstreamRuntime, ttlMs = TOKEN_CHECK_TTL_MS): TokenCheck {
  // Refusals are remembered too (a bogus token stays bogus); other failures (bank down) are not.
  const verdicts = new TtlCache<UpstreamAuthError | undefined>({ ttlMs, maxEntries: 10_000 });
  const check = async (token: string, correlationId?: string) => {
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
  const peek = (token: string) => {
    const kept = verdicts.peek(sha256Hex(token));
    return kept === undefined ? undefined : kept.value === undefined ? 'accepted' : 'refused';
  };
  return Object.assign(check, { peek });
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
  return withDomains(upstream, { webhooks: guarded });
}
