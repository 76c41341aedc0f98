import { createClient } from 'graphql-ws';
import { afterAll, describe, expect, it } from 'vitest';
import { useKit } from './kit.ts';
import { until } from './redis.ts';

/**
 * Identical live queries of one caller share each re-run (src/live/shared-reruns.ts): with the
 * record cache off, so that every execution would read the bank for itself, one deposit costs one
 * balance read however many of them are open, and every one of them gets the new balance.
 */

const kit = useKit({ listen: true, reconcileWebhooks: true, cache: false, webhooks: { agentCode: 'AG-LIVE-S', subagentCode: 'SUB-LIVE-S', companyCode: 'CO-LIVE-S' } });
const DASHBOARD = 'query SharedDashboard @live { balances { currency available { amount } } }';
const SCREENS = 8;

type Result = { data?: { balances: { currency: string; available: { amount: string } }[] } };
const usd = (result: Result | undefined) => Number(result?.data?.balances.find((balance) => balance.currency === 'USD')?.available.amount);

describe('live queries sharing their re-runs', () => {
  const disposals: (() => unknown)[] = [];
  afterAll(async () => {
    for (const dispose of disposals) await dispose();
  });

  it('reads the balance once for every identical dashboard after a deposit, and pushes each the new balance', async () => {
    const screens = Array.from({ length: SCREENS }, () => {
      const client = createClient({ url: `${kit.baseUrl!.replace(/^http/, 'ws')}/graphql` });
      disposals.push(() => client.dispose());
      const results: Result[] = [];
      client.subscribe({ query: DASHBOARD }, { next: (result) => void results.push(result as Result), error: () => {}, complete: () => {} });
      return results;
    });
    await until('every first result', () => screens.every((results) => results.length === 1));
    const before = usd(screens[0]![0]);
    await kit.resetCounts();
    await kit.control('POST', 'deposits', { currency: 'USD', amount: 215, payer_name: 'Initech' });
    await until('every new balance', () => screens.every((results) => results.length === 2)).catch((e) => { console.log('DBG', JSON.stringify(screens.map((r) => r.map(usd)))); throw e; });
    expect(screens.map((results) => usd(results[1]))).toEqual(Array.from({ length: SCREENS }, () => before + 215));
    expect(kit.calls('/svc/api/v1/account/balance')).toHaveLength(1);
  });
});
