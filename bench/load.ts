import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { BenchChild } from './child-process.ts';
import type { GatewayProcess, WatchResult } from './gateway-process.ts';
import { summarize, type Summary } from './stats.ts';

/**
 * Load generation. Concurrent load: autocannon in a child process (bench/loadgen.ts), so the load
 * generator neither shares the gateway's event loop nor counts in its memory. Sequential wall time:
 * a plain loop from this process, one request at a time.
 */

export interface HttpTarget {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** A 2xx answer is still a failure if its body contains `bodyIncludes` or lacks `bodyLacks`. */
  failure: { bodyIncludes?: string; bodyLacks?: string };
}

export function isFailure(target: Pick<HttpTarget, 'failure'>, body: string): boolean {
  const { bodyIncludes, bodyLacks } = target.failure;
  return (bodyIncludes !== undefined && body.includes(bodyIncludes)) || (bodyLacks !== undefined && !body.includes(bodyLacks));
}

export interface LoadResult {
  connections: number;
  seconds: number;
  /** Successful responses per second. */
  rps: number;
  /** Every successful response's latency, ms. */
  latency: Summary;
  /** Transport errors, timeouts, non-2xx answers and 2xx answers whose body reports a failure. */
  errors: number;
  /** What the gateway's process saw meanwhile: its event loop, the concurrency limit and the calls in flight. */
  gateway: WatchResult;
}

/** What the load generator's process measures (the rest the gateway's process reports). */
export type LoadRunResult = Omit<LoadResult, 'gateway'>;

export interface LoadRequest {
  id: number;
  target: HttpTarget;
  connections: number;
  seconds: number;
  /**
   * Exactly this many requests, every one answered before the run ends (autocannon's `amount`),
   * rather than as many as `seconds` allows: a run by time ends by dropping the requests still in
   * flight, whose work the server then does or abandons for no counted operation.
   */
  amount?: number | undefined;
}

const LOADGEN_PATH = fileURLToPath(new URL('loadgen.ts', import.meta.url));

/**
 * The autocannon child: one run at a time. `run` watches the gateway meanwhile; `runUnwatched` loads
 * any target (another server, the bare Yoga floor) without it, and is the only run of a load
 * generator started without a gateway.
 */
export class LoadGenerator {
  readonly #child: BenchChild;
  readonly #gateway: GatewayProcess | undefined;

  private constructor(child: BenchChild, gateway: GatewayProcess | undefined) {
    this.#child = child;
    this.#gateway = gateway;
  }

  static async start(gateway?: GatewayProcess): Promise<LoadGenerator> {
    return new LoadGenerator(await BenchChild.start(LOADGEN_PATH, 'load generator'), gateway);
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  async run(target: HttpTarget, connections: number, seconds: number): Promise<LoadResult> {
    const gateway = this.#gateway;
    if (!gateway) throw new Error('this load generator watches no gateway: use runUnwatched');
    await gateway.startWatch();
    const result = await this.runUnwatched(target, connections, seconds);
    return { ...result, gateway: await gateway.stopWatch() };
  }

  /** A run with nothing watched: what the load generator's process measures alone. */
  runUnwatched(target: HttpTarget, connections: number, seconds: number): Promise<LoadRunResult> {
    return this.#child.ask<LoadRunResult>('load run', { target, connections, seconds } satisfies Omit<LoadRequest, 'id'>);
  }

  /** `amount` requests at `connections`, every one answered (nothing cut off at the end), nothing watched. */
  runCount(target: HttpTarget, connections: number, amount: number): Promise<LoadRunResult> {
    return this.#child.ask<LoadRunResult>('load run', { target, connections, seconds: 0, amount } satisfies Omit<LoadRequest, 'id'>);
  }

  close(): Promise<void> {
    return this.#child.close();
  }
}

/** One request, timed from the call to the last byte of the body; a failure throws. */
export async function timeOnce(target: HttpTarget): Promise<number> {
  const started = performance.now();
  const response = await request(target.url, {
    method: target.method,
    headers: target.headers,
    ...(target.body === undefined ? {} : { body: target.body }),
  });
  const body = await response.body.text();
  const elapsed = performance.now() - started;
  if (response.statusCode >= 300 || isFailure(target, body))
    throw new Error(`${target.method} ${target.url} failed: HTTP ${response.statusCode} ${body.slice(0, 500)}`);
  return elapsed;
}

/**
 * Unmeasured sequential runs of `once` for `ms` (a second), three at the least, so connections are
 * open and the code paths optimised before anything is timed.
 */
export async function warmUp(once: () => Promise<unknown>, ms = 1_000): Promise<void> {
  const until = performance.now() + ms;
  for (let i = 0; i < 3 || performance.now() < until; i++) await once();
}

/** `runs` sequential requests (concurrency 1), each timed. */
export async function timeSequential(target: HttpTarget, runs: number): Promise<Summary> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await timeOnce(target));
  return summarize(samples);
}

export function graphqlTarget(graphqlUrl: string, query: string, variables?: Record<string, unknown>): HttpTarget {
  return {
    url: graphqlUrl,
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query, variables }),
    failure: { bodyIncludes: '"errors"' },
  };
}
