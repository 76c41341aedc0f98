import { encodeGlobalID } from '@pothos/plugin-relay';
import { request } from 'undici';
import { GatewayProcess } from './gateway-process.ts';
import { graphqlTarget, timeOnce, timeSequential } from './load.ts';
import { OPERATIONS } from './operations.ts';
import type { Settings } from './settings.ts';
import { depositSettled, graphql, sandboxDeposit, upstreamLog, waitForQuiet, type BenchWorld } from './setup.ts';

/**
 * The record cache as `npm start` ships it, on a second gateway process over the same sandbox (the
 * main one keeps no reads, so every other figure measures the way to the bank): the screens
 * repeated, a deposit announced by its event, a card updated through the gateway.
 */

interface CachedScreen {
  name: string;
  /** Upstream calls of the first run (nothing kept yet) and of the run right after it. */
  firstCalls: number;
  repeatCalls: number;
  /** Sequential runs once everything is kept. */
  wallP50: number;
}

export interface CacheResult {
  screens: CachedScreen[];
  deposit: { amount: number; before: number; beforeEvent: number; afterEvent: number; balanceCalls: number };
  cardUpdate: { from: string; to: string; read: string; cardReads: number };
}

const CACHED_SCREENS = ['dashboard', 'cards screen (50 cards)'];
const DEPOSIT = 1250;
const CARD = 'crd_demo_ava_v';
const BALANCES = '{ balances { currency available { amount } } }';
const CARD_STATUS = `{ card(id: "${CARD}") { status } }`;
const CARD_UPDATE = 'mutation($input: CardUpdateInput!) { cardUpdate(input: $input) { __typename ... on MutationError { message } } }';

export async function measureCache(world: BenchWorld, settings: Settings): Promise<CacheResult> {
  const gateway = await GatewayProcess.start(world.sandboxUrl, world.webhooks, true);
  const baseUrl = `http://127.0.0.1:${gateway.port}`;
  const at = { graphqlUrl: `${baseUrl}/graphql` };
  try {
    const screens: CachedScreen[] = [];
    for (const name of CACHED_SCREENS) {
      const operation = OPERATIONS.find((o) => o.name === name)!;
      const target = graphqlTarget(at.graphqlUrl, operation.query, operation.variables);
      const calls = async () => {
        await waitForQuiet(world);
        await timeOnce(target);
        return (await upstreamLog(world)).length;
      };
      const firstCalls = await calls();
      const repeatCalls = await calls();
      screens.push({ name, firstCalls, repeatCalls, wallP50: (await timeSequential(target, settings.sequentialRuns)).p50 });
    }
    return { screens, deposit: await depositSeen(world, at, baseUrl), cardUpdate: await cardUpdateSeen(world, at) };
  } finally {
    await gateway.close();
  }
}

async function usd(at: { graphqlUrl: string }): Promise<number> {
  const data = await graphql<{ balances: { currency: string; available: { amount: string } }[] }>(at, BALANCES);
  return Number(data.balances.find((b) => b.currency === 'USD')!.available.amount);
}

/** The bank moves the balance (the sandbox's deposit), then says so with a signed deposit.settled. */
async function depositSeen(world: BenchWorld, at: { graphqlUrl: string }, baseUrl: string): Promise<CacheResult['deposit']> {
  const before = await usd(at);
  await sandboxDeposit(world, DEPOSIT);
  const beforeEvent = await usd(at);
  const { body, headers } = depositSettled(world, `dep_bench_${Date.now()}`, DEPOSIT);
  const delivered = await request(`${baseUrl}/webhooks`, { method: 'POST', headers, body });
  await delivered.body.text();
  if (delivered.statusCode !== 202) throw new Error(`the deposit event was not accepted: HTTP ${delivered.statusCode}`);
  await waitForQuiet(world);
  const afterEvent = await usd(at);
  const balanceCalls = (await upstreamLog(world)).filter((call) => call.path.endsWith('/account/balance')).length;
  return { amount: DEPOSIT, before, beforeEvent, afterEvent, balanceCalls };
}

/** The card read (and kept), updated through the gateway, read again at once; then put back. */
async function cardUpdateSeen(world: BenchWorld, at: { graphqlUrl: string }): Promise<CacheResult['cardUpdate']> {
  const status = async () => (await graphql<{ card: { status: string } }>(at, CARD_STATUS)).card.status;
  const update = async (to: string) => {
    const data = await graphql<{ cardUpdate: { __typename: string; message?: string } }>(at, CARD_UPDATE, {
      input: { cardId: encodeGlobalID('Card', CARD), status: to, updatedBy: 'Benchmark' },
    });
    if (data.cardUpdate.__typename !== 'CardUpdateSuccess') throw new Error(`cardUpdate to ${to} failed: ${data.cardUpdate.message}`);
  };
  const from = await status();
  const to = from === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE';
  await update(to);
  await waitForQuiet(world);
  const read = await status();
  const cardReads = (await upstreamLog(world)).length;
  await update(from);
  return { from, to, read, cardReads };
}
