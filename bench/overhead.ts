import { join } from 'node:path';
import { directHeaders, directToken } from './bank-client.ts';
import { graphqlTarget, type HttpTarget, type LoadResult } from './load.ts';
import { countCalls } from './measure.ts';
import type { Settings } from './settings.ts';
import { setUpstreamLatency, type BenchWorld } from './setup.ts';

/**
 * What the gateway adds to one upstream call: a one-call query against the same endpoint called
 * directly, as a client of the bank would (standard headers, its own token), both under autocannon
 * from the load generator's process at concurrency 1 and at `connections`. With BENCH_CPU_PROFILE set,
 * the gateway's process records a CPU profile of each of its runs there (open it in Chrome DevTools).
 */

export const ONE_CALL_QUERY = '{ balances { currency available { amount } } }';
const BALANCE_PATH = '/svc/api/v1/account/balance';

export interface OverheadLevel {
  connections: number;
  /** The sandbox's latency during these runs (the last level runs at 0: the hot path, nothing idle). */
  latencyMs: number;
  gateway: LoadResult;
  direct: LoadResult;
}

export interface OverheadResult {
  /** Upstream calls of the one-call query (1 expected). */
  gatewayCalls: number;
  levels: OverheadLevel[];
}

/** GET balance as a client of the bank calls it. */
export function directTarget(sandboxUrl: string, token: string): HttpTarget {
  return { url: `${sandboxUrl}${BALANCE_PATH}`, method: 'GET', headers: directHeaders(token), failure: { bodyLacks: '"code":200' } };
}

export async function measureOverhead(world: BenchWorld, settings: Settings): Promise<OverheadResult> {
  const gateway = graphqlTarget(world.graphqlUrl, ONE_CALL_QUERY);
  const direct = directTarget(world.sandboxUrl, await directToken(world.sandboxUrl));
  const { calls, paths } = await countCalls(world, gateway);
  // The comparison holds only if the query's one call is the endpoint called directly.
  if (paths.join() !== BALANCE_PATH) throw new Error(`the one-call query called ${paths.join(', ') || 'nothing'}, not ${BALANCE_PATH}`);
  const levels: OverheadLevel[] = [];
  const plan = [
    { connections: 1, latencyMs: settings.latencyMs },
    { connections: settings.connections, latencyMs: settings.latencyMs },
    { connections: 1, latencyMs: 0 },
  ];
  try {
    for (const { connections, latencyMs } of plan) {
      if (latencyMs !== settings.latencyMs) await setUpstreamLatency(world, latencyMs);
      // Warm both paths at this concurrency, then measure them one after the other.
      await world.load.run(direct, connections, 1);
      await world.load.run(gateway, connections, 1);
      const directResult = await world.load.run(direct, connections, settings.seconds);
      if (settings.cpuProfileDir) await world.gateway.startProfile();
      const gatewayResult = await world.load.run(gateway, connections, settings.seconds);
      if (settings.cpuProfileDir) {
        const file = join(settings.cpuProfileDir, `gateway-overhead-c${connections}-${latencyMs}ms.cpuprofile`);
        console.error(`[bench] the gateway's CPU profile: ${await world.gateway.stopProfile(file)}`);
      }
      levels.push({ connections, latencyMs, gateway: gatewayResult, direct: directResult });
    }
  } finally {
    await setUpstreamLatency(world, settings.latencyMs);
  }
  return { gatewayCalls: calls, levels };
}
