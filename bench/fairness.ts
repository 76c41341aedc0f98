import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { graphqlTarget, isFailure, type HttpTarget, type LoadResult } from './load.ts';
import { OPERATIONS } from './operations.ts';
import { FLOOD_CONNECTIONS, FLOOD_SECONDS, QUIET_ADDRESS } from './parameters.ts';
import type { Settings } from './settings.ts';
import { waitForQuiet, type BenchWorld } from './setup.ts';
import { summarize, type Summary } from './stats.ts';

/**
 * Fair share of the bank: one client floods the gateway with dashboards at concurrency 100
 * (autocannon, in the load generator's process) while another times its own dashboard one at a time
 * from this process; its p50 then against its p50 on the idle gateway just before.
 *
 * Two clients, honestly told apart: the benchmark's gateway runs AUTH_MODE none, which keys an
 * anonymous caller by the address it connects from (src/authentication/identity.ts). autocannon connects from
 * 127.0.0.1; the other client from 127.0.0.2 (a loopback address of its own; node:http, since
 * undici's connector does not take a local address). The limits per client stay at their shipped
 * defaults (or what CLIENT_* sets, as for `npm start`): the figure is the fair queue as shipped.
 */

export interface FairnessResult {
  operation: string;
  /** The quiet client's dashboard, one at a time, on the idle gateway and under the flood. */
  idle: Summary;
  flooded: Summary;
  /** The flooder's own figures (autocannon) and what the gateway saw meanwhile. */
  flood: LoadResult;
}

/** One request from `agent`'s local address, timed to the last byte of the body; a failure throws. */
function timeFrom(agent: Agent, target: HttpTarget): Promise<number> {
  const url = new URL(target.url);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: target.method, headers: target.headers, agent },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.once('error', reject);
        answer.once('end', () => {
          const elapsed = performance.now() - started;
          const body = Buffer.concat(chunks).toString('utf8');
          if ((answer.statusCode ?? 0) >= 300 || isFailure(target, body))
            reject(new Error(`the other client's ${target.method} failed: HTTP ${answer.statusCode} ${body.slice(0, 500)}`));
          else resolve(elapsed);
        });
      },
    );
    outgoing.once('error', reject);
    outgoing.end(target.body);
  });
}

/** Sequential runs until `count` are done or `until` (performance.now()) has passed. */
async function sequential(agent: Agent, target: HttpTarget, count: number, until = Number.POSITIVE_INFINITY): Promise<number[]> {
  const samples: number[] = [];
  while (samples.length < count && performance.now() < until) samples.push(await timeFrom(agent, target));
  return samples;
}

export async function measureFairness(world: BenchWorld, settings: Settings): Promise<FairnessResult> {
  const dashboard = OPERATIONS.find((o) => o.name === 'dashboard')!;
  const target = graphqlTarget(world.graphqlUrl, dashboard.query, dashboard.variables);
  const agent = new Agent({ keepAlive: true, maxSockets: 1, localAddress: QUIET_ADDRESS });
  try {
    await waitForQuiet(world);
    // A second of unmeasured runs first, as for every wall time.
    await sequential(agent, target, Number.POSITIVE_INFINITY, performance.now() + 1_000);
    const idle = summarize(await sequential(agent, target, settings.sequentialRuns));
    const flooding = world.load.run(target, FLOOD_CONNECTIONS, FLOOD_SECONDS);
    const floodEnds = performance.now() + FLOOD_SECONDS * 1_000;
    await sleep(1_000);
    // Runs start while the flood has half a second or more left, so each is timed under it.
    const flooded = summarize(await sequential(agent, target, settings.sequentialRuns, floodEnds - 500));
    const flood = await flooding;
    // autocannon walks away from the requests it has open; the gateway finishes them before the next phase.
    await waitForQuiet(world);
    return { operation: dashboard.name, idle, flooded, flood };
  } finally {
    agent.destroy();
  }
}
