import { loadConfig } from '../src/settings/index.ts';
import { GatewayProcess, startHeapFlags } from './gateway-process.ts';
import { liveQueryRows } from './report.ts';
import { readSettings, type Settings } from './settings.ts';
import {
  clearUpstreamLog,
  depositSettled,
  graphql,
  sandboxDeposit,
  startWorld,
  upstreamLog,
  waitForQuiet,
  type BenchWorld,
} from './setup.ts';
import { ms } from './stats.ts';
import { usdCentsKey, WATCHES } from './subscriber-clients.ts';
import { measureSubscriptions, pacedPass, webhookSender, withClients, type DeliveryPass, type FanoutServer } from './subscriptions.ts';

/**
 * Live dashboards at scale: `subscribers` graphql-ws clients (bench/subscribers.ts, one WebSocket
 * each) hold `query Dashboard @live { balances { ... } }` on a gateway process of its own with the
 * record cache on, as `npm start` ships it (the main one keeps no reads). Then, one at a time, the
 * bank takes a deposit (POST /sandbox/deposits: the balance moves) and the benchmark posts its
 * signed deposit.settled to the gateway's /webhooks. The clock runs from that POST being issued to
 * each client's push showing the new balance (the receipt's key: the USD balance in cents, which
 * each deposit makes new), on the subscription measure's clocks and passes (subscriptions.ts),
 * so the figure sits beside that measure's floor, one event at a time.
 *
 * Before each event: the throttle interval (LIVE_QUERY_THROTTLE_MS) since the previous push, so no
 * push waits for it (the measure is the fan-out, not the coalescing), and the bank's reads of the
 * previous event counted from the sandbox's request log, which is then cleared.
 */

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
  /** The live gateway's memory with every live query open, after the events (MB). */
  gatewayMemory: { rssMb: number; heapUsedMb: number };
}

const sleep = (delay: number) => new Promise((resolve) => setTimeout(resolve, delay));

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
    const calls = new Map<number, { balance: number; all: number }>();
    const countCalls = async (event: number) => {
      const log = await upstreamLog(world);
      calls.set(event, {
        balance: log.filter((call) => call.method === 'GET' && call.path.endsWith('/account/balance')).length,
        all: log.length,
      });
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
        gatewayMemory: await gateway.memory(),
      };
    });
  } finally {
    await gateway.close();
  }
}

/** What `npx node bench/live-queries.ts` prints: the figures, then the Targets rows as RESULTS.md has them. */
function liveQueriesLines(r: LiveQueryResult, floor: DeliveryPass | null): string[] {
  const p = r.pass;
  return [
    `${r.clients} clients on ${WATCHES['live-balances'].query}, connected in ${ms(r.connectMs)} ms; LIVE_QUERY_MAX_PER_CALLER ${r.maxPerCaller.used} (configured ${r.maxPerCaller.configured}), throttle ${r.throttleMs} ms`,
    p
      ? `event → last push: p50 ${ms(p.lastReceipt.p50)} ms, p99 ${ms(p.lastReceipt.p99)} ms, max ${ms(p.lastReceipt.max)} ms over ${p.events} events; per push p50 ${ms(p.latency.p50)} ms; ${p.lost} lost, ${p.duplicates} duplicates, ${r.errors} errors`
      : 'no events (BENCH_PACED_EVENTS=0)',
    floor
      ? `subscription floor, one at a time: last receipt p50 ${ms(floor.lastReceipt.p50)} ms, p99 ${ms(floor.lastReceipt.p99)} ms`
      : 'no floor',
    `balance reads per event: ${r.balanceReads.join(' ')}; every upstream call per event: ${r.upstreamCalls.join(' ')}; live gateway RSS ${Math.round(r.gatewayMemory.rssMb)} MB, V8 heap used ${Math.round(r.gatewayMemory.heapUsedMb)} MB`,
    ...liveQueryRows(r, floor).map((row) => `| ${row.join(' | ')} |`),
  ];
}

if (import.meta.main) {
  const settings = readSettings();
  const world = await startWorld(settings.latencyMs);
  try {
    console.error(`[live queries] subscriptions (gateway, then the floor): ${settings.subscribers} clients`);
    const subscriptions = await measureSubscriptions(world, settings);
    const paced = subscriptions.gateway.paced;
    if (paced)
      console.log(
        `subscriptions through the gateway, one at a time: last receipt p50 ${ms(paced.lastReceipt.p50)} ms, p99 ${ms(paced.lastReceipt.p99)} ms`,
      );
    console.error(`[live queries] ${settings.subscribers} live dashboards, ${settings.pacedEvents} deposits one at a time`);
    const live = await measureLiveQueries(world, settings);
    for (const line of liveQueriesLines(live, subscriptions.floor.paced)) console.log(line);
  } finally {
    await world.close();
  }
}
