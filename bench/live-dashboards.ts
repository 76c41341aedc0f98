/**
 * Live dashboards at scale: the subscribers' clients hold the dashboard as a live query on a gateway
 * process of its own with the record cache on (as `npm start` ships it; the main one keeps no reads),
 * and each deposit's event is timed to every client's push, on subscriptions.ts's clocks and passes.
 */

import { loadConfig } from '../src/settings/index.ts';
import { GatewayProcess, startHeapFlags } from './gateway-process.ts';
import type { Settings } from './settings.ts';
import { clearUpstreamLog, depositSettled, graphql, sandboxDeposit, upstreamLog, waitForQuiet, type BenchWorld } from './setup.ts';
import { summarize, type Summary } from './stats.ts';
import { usdCentsKey } from './subscriber-clients.ts';
import { pacedPass, webhookSender, withClients, type DeliveryPass, type FanoutServer } from './subscriptions.ts';

/** USD per deposit: whole dollars, so the balance each makes is known in cents. */
const DEPOSIT = 125;
const BALANCES = '{ balances { currency available { amount } } }';

export interface LiveQueryResult {
  clients: number;
  /** LIVE_QUERY_MAX_PER_CALLER on the live gateway (the clients are one anonymous caller), and as configured for `npm start`. */
  maxPerCaller: { used: number; configured: number };
  throttleMs: number;
  /** The sandbox's latency: the least a re-run's read of the bank takes (SANDBOX_LATENCY_MS). */
  bankLatencyMs: number;
  deposit: number;
  /** From the first connection to every live query open. */
  connectMs: number;
  /** Live queries that failed or ended early. */
  errors: number;
  /** Events, one at a time: from each POST to each push with the new balance; null when BENCH_PACED_EVENTS=0. */
  pass: DeliveryPass | null;
  /** Per measured event: the bank's balance reads, and every call it got, between that event and the next one's deposit. */
  balanceReads: number[];
  upstreamCalls: number[];
  /** The bank's time on each of those balance reads, from its arrival to its answer (the sandbox's log). */
  balanceReadMs: Summary;
  /** The live gateway's memory with every live query open, after the events (MB). */
  gatewayMemory: { rssMb: number; heapUsedMb: number };
}

const sleep = (delay: number) => new Promise((resolve) => setTimeout(resolve, delay));

/**
 * One event at a time: the bank takes a deposit (the balance moves), then the benchmark posts its
 * signed deposit.settled; the clock runs from that POST to each push showing the new balance (keyed by
 * the USD balance in cents, new with each deposit). Before each event the throttle interval passes,
 * so no push waits for it (the measure is the fan-out, not the coalescing), and the bank's reads of
 * the previous event are counted from the sandbox's request log.
 */
export async function measureLiveQueries(world: BenchWorld, settings: Settings): Promise<LiveQueryResult> {
  const n = settings.subscribers;
  const { maxPerCaller: configured, throttleMs } = loadConfig(process.env).liveQueries;
  // Every client connects from 127.0.0.1 without a credential: one caller, whom the shipped limit
  // would stop at 100. Raised for this gateway alone, to the clients' number.
  const maxPerCaller = Math.max(configured, n);
  await waitForQuiet(world);
  const gateway = await GatewayProcess.start(world.sandboxUrl, world.webhooks, true, startHeapFlags(), { maxPerCaller });
  const baseUrl = `http://127.0.0.1:${gateway.port}`;
  try {
    const data = await graphql<{ balances: { currency: string; available: { amount: string } }[] }>(
      { graphqlUrl: `${baseUrl}/graphql` },
      BALANCES,
    );
    const startCents = Number(usdCentsKey(data.balances));
    if (!Number.isInteger(startCents)) throw new Error(`no USD balance: ${JSON.stringify(data)}`);
    // The bank's calls after each event (by its index: 0 is the warm-up), read before the next.
    const calls = new Map<number, { balance: number; all: number; readMs: number[] }>();
    const countCalls = async (event: number) => {
      const log = await upstreamLog(world);
      const reads = log.filter((call) => call.method === 'GET' && call.path.endsWith('/account/balance'));
      calls.set(event, { balance: reads.length, all: log.length, readMs: reads.map((call) => call.durationMs) });
    };
    const runId = Date.now().toString(36);
    const server: FanoutServer = {
      url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
      watch: 'live-balances',
      registered: () => gateway.openLiveQueries(),
      prepare: (index) => {
        const eventId = `dep_bench_live_${runId}_${index}`;
        return {
          // The balance after this event's deposit: its pushes are recorded under it.
          id: String(startCents + (index + 1) * DEPOSIT * 100),
          ready: async () => {
            await sleep(throttleMs);
            if (index > 0) await countCalls(index - 1);
            await clearUpstreamLog(world);
            await sandboxDeposit(world, DEPOSIT);
          },
          send: webhookSender(baseUrl, eventId, depositSettled(world, eventId, DEPOSIT)),
        };
      },
    };
    return await withClients(server, world.subscribers, n, async (connectMs, prepare) => {
      const events = prepare(settings.pacedEvents);
      if (settings.cpuProfileDir) await gateway.startProfile();
      const measured = events.length > 0 ? await pacedPass(world.subscribers, events, n) : null;
      if (settings.cpuProfileDir)
        console.error(
          `[bench] the live gateway's CPU profile: ${await gateway.stopProfile(`${settings.cpuProfileDir}/live-dashboards.cpuprofile`)}`,
        );
      // The last event's reads: every push is in, so every re-run has read.
      await sleep(throttleMs);
      await countCalls(events.length);
      const counted = events.map((_, i) => calls.get(i + 1)!);
      return {
        clients: n,
        maxPerCaller: { used: maxPerCaller, configured },
        throttleMs,
        bankLatencyMs: settings.latencyMs,
        deposit: DEPOSIT,
        connectMs,
        errors: measured?.errors ?? 0,
        pass: measured?.pass ?? null,
        balanceReads: counted.map((c) => c.balance),
        upstreamCalls: counted.map((c) => c.all),
        balanceReadMs: summarize(counted.flatMap((c) => c.readMs)),
        gatewayMemory: await gateway.memory(),
      };
    });
  } finally {
    await gateway.close();
  }
}
