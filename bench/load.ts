import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
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
  /** How busy this process's event loop (the gateway's) was during the run, 0-1. */
  loopBusy: number;
}

/** What the load generator's process measures (the rest is measured here). */
export type LoadRunResult = Omit<LoadResult, 'loopBusy'>;

export interface LoadRequest {
  id: number;
  target: HttpTarget;
  connections: number;
  seconds: number;
}

export type LoadResponse = { id: number; result: LoadRunResult; error?: undefined } | { id: number; error: string; result?: undefined };

const LOADGEN_PATH = fileURLToPath(new URL('loadgen.ts', import.meta.url));

/** The autocannon child: one run at a time. */
export class LoadGenerator {
  readonly #child: ChildProcess;
  #nextId = 1;

  private constructor(child: ChildProcess) {
    this.#child = child;
  }

  static async start(): Promise<LoadGenerator> {
    const child = fork(LOADGEN_PATH, [], { execPath: process.execPath, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    await once(child, 'spawn');
    return new LoadGenerator(child);
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  run(target: HttpTarget, connections: number, seconds: number): Promise<LoadResult> {
    const id = this.#nextId++;
    const loop = performance.eventLoopUtilization();
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the load generator exited (${code}) during a run`));
      const onMessage = (message: LoadResponse) => {
        if (message.id !== id) return;
        this.#child.off('message', onMessage);
        this.#child.off('exit', onExit);
        if (message.error !== undefined) reject(new Error(`load run failed: ${message.error}`));
        else resolve({ ...message.result, loopBusy: performance.eventLoopUtilization(loop).utilization });
      };
      this.#child.on('message', onMessage);
      this.#child.once('exit', onExit);
      this.#child.send({ id, target, connections, seconds } satisfies LoadRequest);
    });
  }

  async close(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    const exited = once(this.#child, 'exit');
    this.#child.disconnect();
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}

/** One request, timed from the call to the last byte of the body; a failure throws. */
export async function timeOnce(target: HttpTarget): Promise<number> {
  const started = performance.now();
  const response = await request(target.url, { method: target.method, headers: target.headers, ...(target.body === undefined ? {} : { body: target.body }) });
  const body = await response.body.text();
  const elapsed = performance.now() - started;
  if (response.statusCode >= 300 || isFailure(target, body)) throw new Error(`${target.method} ${target.url} failed: HTTP ${response.statusCode} ${body.slice(0, 500)}`);
  return elapsed;
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
