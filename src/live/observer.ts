import { Counter, Gauge, type Registry } from 'prom-client';

/** What the live-query engine reports (engine.ts), cheap and synchronous. */
export interface LiveQueryObserver {
  opened(): void;
  closed(): void;
  refused(reason: 'per_caller' | 'per_connection'): void;
  rerun(): void;
  pushed(): void;
  bankRead(): void;
}

/** Live queries on the gateway's registry: open, re-runs, pushes, and the bank reads their re-runs cause. */
export function liveQueryMetrics(registry: Registry): LiveQueryObserver {
  const open = new Gauge({ name: 'gateway_live_queries_open', help: 'Live queries (@live) open on this instance.', registers: [registry] });
  const refused = new Counter({
    name: 'gateway_live_query_refusals_total',
    help: 'Live queries refused with LIVE_QUERY_LIMIT, by the limit reached: per_caller or per_connection.',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const reruns = new Counter({
    name: 'gateway_live_query_reruns_total',
    help: 'Live query executions after something they read changed (the first run not counted; identical live queries of one scope are one execution).',
    registers: [registry],
  });
  const pushes = new Counter({
    name: 'gateway_live_query_pushes_total',
    help: 'Results pushed to live queries: the first, then each re-run whose result changed.',
    registers: [registry],
  });
  const bankReads = new Counter({
    name: 'gateway_live_query_bank_reads_total',
    help: "Bank reads live queries' re-runs caused (reads the record cache answered are not bank reads).",
    registers: [registry],
  });
  return {
    opened: () => open.inc(),
    closed: () => open.dec(),
    refused: (reason) => refused.inc({ reason }),
    rerun: () => reruns.inc(),
    pushed: () => pushes.inc(),
    bankRead: () => bankReads.inc(),
  };
}
