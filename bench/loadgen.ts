import autocannon from 'autocannon';
import { answerRequests } from './child-process.ts';
import { isFailure, type LoadRequest, type LoadRunResult } from './load.ts';
import { summarize } from './stats.ts';

/**
 * The load generator's own process (forked by LoadGenerator in load.ts): autocannon runs one at a
 * time on request over IPC, so its CPU and memory are not the gateway's. autocannon's histogram keeps
 * whole milliseconds, so the latency of every response is taken from its `response` event
 * (process.hrtime, sub-millisecond) and summarised here.
 */

/** Latencies kept at most per run; past this the first ones suffice. */
const MAX_SAMPLES = 2_000_000;

function run({ target, connections, seconds, amount }: LoadRequest): Promise<LoadRunResult> {
  const samples: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        method: target.method,
        headers: target.headers,
        ...(target.body === undefined ? {} : { body: target.body }),
        connections,
        ...(amount === undefined ? { duration: seconds } : { amount }),
        timeout: 30,
        verifyBody: (body) => !isFailure(target, typeof body === 'string' ? body : String(body ?? '')),
      },
      (error, result) => {
        if (error) return reject(error instanceof Error ? error : new Error(`autocannon: ${String(error)}`));
        resolve({
          connections,
          seconds: result.duration,
          rps: (result['2xx'] - result.mismatches) / result.duration,
          latency: summarize(samples),
          // `errors` already counts timeouts.
          errors: result.errors + result.non2xx + result.mismatches,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300 && samples.length < MAX_SAMPLES) samples.push(responseTime);
    });
  });
}

answerRequests(run);
