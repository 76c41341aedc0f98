import { describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS } from '@banking-gateway/sandbox';
import { bankEvent, deliverEvent } from '../helpers/deliver.ts';
import { AccessTokenCreateDocument } from '../generated/graphql.ts';
import { useKit } from '../helpers/kit.ts';
import { subscribeSse, subscribeWs } from '../helpers/subscribe.ts';

/**
 * Passthrough subscriptions are fed by the bank's events, not by calls made with the caller's token,
 * so the token is proven again before each event (the verdict remembered for `tokenCheckTtlMs`,
 * shortened here from a minute). Once the bank no longer accepts it, the subscription ends with
 * UNAUTHENTICATED and no further event reaches the caller.
 */
const kit = useKit({
  listen: true,
  auth: { mode: 'passthrough', apiKeys: [], jwt: undefined, allowedOrigins: [], tokenCheckTtlMs: 50 },
});

const CHECK = '/svc/api/v1/account/balance';
const FEED = 'subscription { bankEvents { upstreamId } }';

async function login(): Promise<string> {
  const result = await kit.execute(AccessTokenCreateDocument, {
    input: { clientKey: DEMO_CREDENTIALS.clientKey, clientSecret: DEMO_CREDENTIALS.clientSecret, email: DEMO_CREDENTIALS.email },
  });
  const outcome = result.data?.accessTokenCreate;
  if (outcome?.__typename !== 'AccessTokenCreateSuccess') throw new Error(`login failed: ${JSON.stringify(result)}`);
  return outcome.token.accessToken;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('passthrough subscriptions after the token expires', () => {
  it('deliver while the bank accepts the token, then end with UNAUTHENTICATED, over graphql-ws and SSE', async () => {
    const token = await login();
    const authorization = `Bearer ${token}`;
    const overWs = await subscribeWs(kit, FEED, {}, { authorization });
    const overSse = await subscribeSse(kit, FEED, {}, { authorization });

    expect((await deliverEvent(kit.baseUrl, bankEvent('acct_exp_1_account.active'))).status).toBe(202);
    for (const subscriber of [overWs, overSse]) {
      expect(await subscriber.next(1)).toEqual([{ data: { bankEvents: { upstreamId: 'acct_exp_1_account.active' } } }]);
    }

    // The bank's token lifetime passes; the remembered verdict runs out too.
    await kit.control('POST', 'clock/advance', { minutes: 31 });
    await pause(100);
    expect((await deliverEvent(kit.baseUrl, bankEvent('acct_exp_2_account.active'))).status).toBe(202);
    for (const subscriber of [overWs, overSse]) {
      const [, refused] = await subscriber.next(2);
      expect(refused.data).toBeUndefined();
      expect(refused.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      expect(refused.errors[0].message).toContain('log in again with accessTokenCreate');
    }
    await expect.poll(() => kit.gateway.events.activeSubscriptions()).toBe(0);

    // Nothing after the refusal reaches the former subscribers.
    await deliverEvent(kit.baseUrl, bankEvent('acct_exp_3_account.active'));
    await pause(100);
    expect(overWs.received).toHaveLength(2);
    expect(overSse.received).toHaveLength(2);
    // Proven at the start (once: remembered), then refused once the token had expired.
    const statuses = kit.calls(CHECK).map((c) => c.status);
    expect(statuses[0]).toBe(200);
    expect(statuses.at(-1)).toBe(401);
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(1);
    await overWs.close();
    await overSse.close();
  });
});
