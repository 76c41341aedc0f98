import autocannon from 'autocannon';
import { request } from 'undici';
import { summarize, type Summary } from './stats.ts';

/**
 * Load generation. autocannon for throughput and latency under concurrency; its own histogram keeps
 * whole milliseconds, so the latency of every response is also taken from its `response` event
 * (process.hrtime, sub-millisecond) and summarised here. A plain loop for sequential wall time.
 */

export interface HttpTarget {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** A response body that is not a success (a GraphQL `errors`, an upstream error envelope). */
  failed(body: string): boolean;
}

export interface LoadResult {
  connections: number;
  seconds: number;
  /** Successful responses per second. */
  rps: number;
  latency: Summary;
  /** Transport errors, timeouts, non-2xx answers and 2xx answers whose body reports a failure. */
  errors: number;
}

/** Response latencies kept at most; past this the run is long enough that the first ones suffice. */
const MAX_SAMPLES = 2_000_000;

export function runLoad(target: HttpTarget, connections: number, seconds: number): Promise<LoadResult> {
  const samples: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        method: target.method,
        headers: target.headers,
        ...(target.body === undefined ? {} : { body: target.body }),
        connections,
        duration: seconds,
        timeout: 30,
        verifyBody: (body: string) => !target.failed(body),
      },
      (error, result) => {
        if (error) return reject(error);
        // `errors` already counts timeouts.
        const failures = result.errors + result.non2xx + result.mismatches;
        resolve({
          connections,
          seconds: result.duration,
          rps: (result['2xx'] - result.mismatches) / result.duration,
          latency: summarize(samples),
          errors: failures,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300 && samples.length < MAX_SAMPLES) samples.push(responseTime);
    });
  });
}

/** One request, timed from the call to the last byte of the body; a failure throws. */
export async function timeOnce(target: HttpTarget): Promise<number> {
  const started = performance.now();
  const response = await request(target.url, { method: target.method, headers: target.headers, ...(target.body === undefined ? {} : { body: target.body }) });
  const body = await response.body.text();
  const elapsed = performance.now() - started;
  if (response.statusCode >= 300 || target.failed(body)) throw new Error(`${target.method} ${target.url} failed: HTTP ${response.statusCode} ${body.slice(0, 500)}`);
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
    failed: (body) => body.includes('"errors"'),
  };
}
