import { createClient } from 'graphql-ws';
import { afterEach, describe, expect, it } from 'vitest';
import { useKit } from '../helpers/kit.ts';
import { until } from '../helpers/wait.ts';

/**
 * Identical live queries of one caller share each re-run (src/live/groups.ts): with the
 * record cache off, so that every execution would read the bank for itself, one deposit costs one
 * balance read however many of them are open, and every one of them gets the new balance.
 */

const kit = useKit({
  listen: true,
  reconcileWebhooks: true,
  cache: false,
  webhooks: { agentCode: 'AG-LIVE-S', subagentCode: 'SUB-LIVE-S', companyCode: 'CO-LIVE-S' },
});
const DASHBOARD = 'query SharedDashboard @live { balances { currency available { amount } } }';
const SCREENS = 8;

type Result = { data?: { balances: { currency: string; available: { amount: string } }[] } };
const usd = (result: Result | undefined) => Number(result?.data?.balances.find((balance) => balance.currency === 'USD')?.available.amount);

describe('live queries sharing their re-runs', () => {
  const disposals: (() => unknown)[] = [];
  afterEach(async () => {
    for (const dispose of disposals.splice(0)) await dispose();
  });

  it('reads the balance once for every identical dashboard after a deposit, and pushes each the new balance', async () => {
    const screens = Array.from({ length: SCREENS }, () => {
      const client = createClient({ url: `${kit.baseUrl!.replace(/^http/, 'ws')}/graphql` });
      disposals.push(() => client.dispose());
      const results: Result[] = [];
      client.subscribe(
        { query: DASHBOARD },
        { next: (result) => void results.push(result as Result), error: () => {}, complete: () => {} },
      );
      return results;
    });
    await until('every first result', () => screens.every((results) => results.length === 1));
    const before = usd(screens[0]![0]);
    await kit.resetCounts();
    await kit.control('POST', 'deposits', { currency: 'USD', amount: 215, payer_name: 'Initech' });
    await until('every new balance', () => screens.every((results) => results.length === 2)).catch((e) => {
      console.log('DBG', JSON.stringify(screens.map((r) => r.map(usd))));
      throw e;
    });
    expect(screens.map((results) => usd(results[1]))).toEqual(Array.from({ length: SCREENS }, () => before + 215));
    expect(kit.calls('/svc/api/v1/account/balance')).toHaveLength(1);
    expect(kit.gateway.live.stats()).toMatchObject({ open: SCREENS, groups: 1 });
  });

  it('keeps the others current when the dashboard whose context made the reads leaves, and lets go of everything with the last', async () => {
    await until('the first test to let go', () => kit.gateway.live.stats().open === 0, { timeoutMs: 5_000 });
    await kit.control('POST', 'clock/advance', { minutes: 1 });
    const clients = Array.from({ length: 3 }, () => createClient({ url: `${kit.baseUrl!.replace(/^http/, 'ws')}/graphql` }));
    const screens = clients.map((client) => {
      const results: Result[] = [];
      const stop = client.subscribe(
        { query: DASHBOARD },
        { next: (result) => void results.push(result as Result), error: () => {}, complete: () => {} },
      );
      return { results, stop };
    });
    await until('every first result', () => screens.every((screen) => screen.results.length === 1));
    const before = usd(screens[0]!.results[0]);
    // The first to open leads its group: its reads are made with its context.
    screens[0]!.stop();
    await until('the first dashboard to be let go', () => kit.gateway.live.stats().open === 2);
    await kit.resetCounts();
    await kit.control('POST', 'deposits', { currency: 'USD', amount: 330, payer_name: 'Initech' });
    await until('the new balance on the two left', () => screens.slice(1).every((screen) => usd(screen.results.at(-1)) === before + 330));
    expect(kit.calls('/svc/api/v1/account/balance')).toHaveLength(1);
    for (const client of clients) await client.dispose();
    await until('everything let go', () => kit.gateway.live.stats().open === 0);
    expect(kit.gateway.live.stats()).toEqual({ open: 0, groups: 0, tracked: 0, timers: 0 });
  });
});
