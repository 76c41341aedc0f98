import { performance } from 'node:perf_hooks';
import { loadConfig, type LiveQueryConfig } from '../src/settings/index.ts';
import { createGateway, type Gateway } from '../src/gateway.ts';
import { createLogger, stdoutLines } from '../src/platform/logger.ts';
import { sandboxUpstreamConfig } from '../src/start/sandbox-upstream.ts';
import { answerServerRequests } from './child-process.ts';
import type { CompiledDocument } from './compiled-execution.ts';

/**
 * The gateway's own process (forked by GatewayProcess in gateway-process.ts with the heap flags of
 * `npm start`): createGateway wired as `npm start` wires it, listening on loopback, so its memory,
 * CPU and event loop are the gateway's alone. It answers the benchmark over IPC: its memory, its open
 * subscriptions and live queries, and what it saw during a load run (event loop busy, the concurrency limit in force
 * and the upstream calls in flight, sampled every 10 ms).
 */

export type GatewayRequest =
  | {
      id: number;
      kind: 'start';
      sandboxUrl: string;
      webhooks: { apiKey: string; signingSecret: string };
      cache?: boolean;
      liveQueries?: Partial<LiveQueryConfig>;
      /** graphql-jit in place of graphql-js where it applies (bench/compiled-execution.ts): the benchmark's trial, never `npm start`'s. */
      compiled?: boolean;
    }
  | { id: number; kind: 'compiled-documents' }
  | { id: number; kind: 'memory' }
  | { id: number; kind: 'subscriptions' }
  | { id: number; kind: 'live-queries' }
  | { id: number; kind: 'watch-start' }
  | { id: number; kind: 'watch-stop' }
  | { id: number; kind: 'profile-start' }
  | { id: number; kind: 'profile-stop'; path: string }
  | { id: number; kind: 'alloc-start' }
  | { id: number; kind: 'alloc-stop' };

export interface WatchResult {
  /** Event loop utilisation over the run, 0-1. */
  loopBusy: number;
  /** Means over the 10 ms samples, summed over the bank's hosts. */
  limitMean: number;
  inFlightMean: number;
  queuedMean: number;
  /** The limit at the end of the run. */
  limitAtEnd: number;
}

let gateway: Gateway | undefined;
let compiledDocuments: (() => CompiledDocument[]) | undefined;
let watch:
  | {
      loop: ReturnType<typeof performance.eventLoopUtilization>;
      timer: NodeJS.Timeout;
      samples: { limit: number; inFlight: number; queued: number }[];
    }
  | undefined;

function limits(): { limit: number; inFlight: number; queued: number } {
  const all = Object.values(gateway!.upstream.concurrencyLimits());
  return {
    limit: all.reduce((sum, l) => sum + l.limit, 0),
    inFlight: all.reduce((sum, l) => sum + l.inFlight, 0),
    queued: all.reduce((sum, l) => sum + l.queued, 0),
  };
}

const mean = (values: number[]) => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);

/** Starts the gateway as `npm start` does, listening on loopback; resolves with its port. */
async function start(request: Extract<GatewayRequest, { kind: 'start' }>): Promise<number> {
  // The concurrency limit's variables (UPSTREAM_*_CONCURRENCY, CLIENT_MAX_UPSTREAM_IN_FLIGHT) and the
  // operations per client (CLIENT_RATE_LIMIT_*) apply as they do to `npm start`: by default, as shipped;
  // so do the record cache's (UPSTREAM_CACHE_*), for the gateway the cache phase starts. The main one
  // keeps no reads, so every other figure measures the way to the bank. The live queries' (LIVE_QUERY_*)
  // too, but for what a phase sets for its own gateway (a limit per caller above its clients').
  const config = loadConfig(process.env);
  const { concurrency, cache } = config;
  const upstream = { ...sandboxUpstreamConfig({ url: request.sandboxUrl }), concurrency, ...(request.cache ? { cache } : {}) };
  const liveQueries = { ...config.liveQueries, ...request.liveQueries };
  // Logging as `npm start` logs (LOG_LEVEL, default info: a line per operation, redacted), to
  // /dev/null instead of stdout: the work of every line is the gateway's, its reading is not.
  const logger = createLogger(config.server.logLevel, stdoutLines('/dev/null'));
  // Loaded only for the trial: graphql-jit and what it brings would otherwise weigh in every gateway's heap.
  const compiled = request.compiled ? (await import('./compiled-execution.ts')).compiledExecution() : undefined;
  compiledDocuments = compiled?.compiled;
  gateway = createGateway({
    logger,
    upstream,
    webhooks: request.webhooks,
    clientRateLimit: config.clientRateLimit,
    liveQueries,
    ...(compiled ? { plugins: [compiled.plugin] } : {}),
  });
  await gateway.events.ready;
  return (await gateway.server.listen(0, '127.0.0.1')).port;
}

/** What the gateway's process answers besides what every server process does (child-process.ts). */
function answer(
  request: Exclude<GatewayRequest, { kind: 'start' | 'memory' | 'profile-start' | 'profile-stop' | 'alloc-start' | 'alloc-stop' }>,
): unknown {
  switch (request.kind) {
    case 'subscriptions':
      return gateway!.events.activeSubscriptions();
    case 'live-queries':
      return gateway!.live.stats().open;
    case 'compiled-documents':
      return compiledDocuments?.() ?? [];
    case 'watch-start': {
      const samples: { limit: number; inFlight: number; queued: number }[] = [];
      watch = { loop: performance.eventLoopUtilization(), timer: setInterval(() => samples.push(limits()), 10), samples };
      return null;
    }
    case 'watch-stop': {
      const current = watch!;
      clearInterval(current.timer);
      watch = undefined;
      return {
        loopBusy: performance.eventLoopUtilization(current.loop).utilization,
        limitMean: mean(current.samples.map((s) => s.limit)),
        inFlightMean: mean(current.samples.map((s) => s.inFlight)),
        queuedMean: mean(current.samples.map((s) => s.queued)),
        limitAtEnd: limits().limit,
      } satisfies WatchResult;
    }
  }
}

// The benchmark going away stops the gateway as `npm start` does on SIGTERM.
answerServerRequests(start, () => gateway?.server.stop(1_000), answer);
