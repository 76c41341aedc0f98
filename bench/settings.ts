/**
 * What the benchmark is tuned by, from the environment, each bounded so a run stays within minutes.
 * The defaults take about two minutes on a 2-core machine.
 */

function envInteger(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return value;
}

export interface Settings {
  /** The sandbox's latency, arrival to answer, of every upstream call (SANDBOX_LATENCY_MS, default 20). */
  latencyMs: number;
  /** Seconds of each measured autocannon run (BENCH_SECONDS, default 5). */
  seconds: number;
  /** Sequential runs per operation for the wall time at concurrency 1 (BENCH_RUNS, default 50). */
  sequentialRuns: number;
  /** The concurrent load level besides 1 (BENCH_CONNECTIONS, default 50). */
  connections: number;
  /** graphql-ws subscribers (BENCH_SUBSCRIBERS, default 1000). */
  subscribers: number;
  /** Distinct webhook events in the burst (BENCH_EVENTS, default 50). */
  burstEvents: number;
  /** Where to write the gateway's CPU profile of each overhead run through it (BENCH_CPU_PROFILE, a directory; unset: none). */
  cpuProfileDir: string | undefined;
  /** Events sent one at a time, each after the previous one reached everybody (BENCH_PACED_EVENTS, default 100: a p99 over 20 events would be their maximum). */
  pacedEvents: number;
  /** Measured runs of each schema per screen for the cost of authorization (BENCH_AUTH_RUNS, default 1000). */
  authorizationRuns: number;
}

export function readSettings(): Settings {
  return {
    latencyMs: envInteger('SANDBOX_LATENCY_MS', 20, 0, 1_000),
    seconds: envInteger('BENCH_SECONDS', 5, 1, 10),
    sequentialRuns: envInteger('BENCH_RUNS', 50, 3, 200),
    connections: envInteger('BENCH_CONNECTIONS', 50, 2, 500),
    subscribers: envInteger('BENCH_SUBSCRIBERS', 1000, 1, 5_000),
    burstEvents: envInteger('BENCH_EVENTS', 50, 1, 500),
    pacedEvents: envInteger('BENCH_PACED_EVENTS', 100, 0, 500),
    cpuProfileDir: process.env.BENCH_CPU_PROFILE || undefined,
    authorizationRuns: envInteger('BENCH_AUTH_RUNS', 1_000, 20, 10_000),
  };
}
