import { Counter, Gauge, type Registry } from 'prom-client';
import type { RecordCacheStats } from './record-cache.ts';

/** What the record cache reports (record-cache.ts), with the invalidations other instances missed. */
export interface RecordCacheReading extends RecordCacheStats {
  trusted: boolean;
  lostInvalidations: number;
}

/**
 * The record cache, read at each scrape (`read` is undefined while it is off). Its counts only
 * grow, so the counters advance by what was added since the last scrape.
 */
export function recordCacheMetrics(registry: Registry, read: () => RecordCacheReading | undefined): void {
  /** A counter whose series follow counts of the cache, each advanced by what it gained since the last scrape. */
  const counter = (
    name: string,
    help: string,
    series: readonly { labels?: Record<string, string>; pick: (r: RecordCacheReading) => number }[],
  ) => {
    const seen = series.map(() => 0);
    new Counter({
      name,
      help,
      labelNames: [...new Set(series.flatMap((s) => Object.keys(s.labels ?? {})))],
      registers: [registry],
      collect() {
        const r = read();
        if (!r) return;
        series.forEach(({ labels = {}, pick }, i) => {
          const now = pick(r);
          if (now > seen[i]!) this.inc(labels, now - seen[i]!);
          seen[i] = now;
        });
      },
    });
  };
  counter(
    'gateway_record_cache_reads_total',
    'Bank reads the record cache could keep, by result: hit (answered from it), miss (sent to the bank), joined (shared a call already on its way).',
    [
      { labels: { result: 'hit' }, pick: (r) => r.hits },
      { labels: { result: 'miss' }, pick: (r) => r.misses },
      { labels: { result: 'joined' }, pick: (r) => r.joined },
    ],
  );
  counter(
    'gateway_record_cache_invalidations_total',
    'Invalidations of the record cache: bank events, writes of this instance and of the others.',
    [{ pick: (r) => r.invalidations }],
  );
  counter(
    'gateway_record_cache_invalidations_lost_total',
    'Writes of this instance whose invalidation could not be published to the other instances (Redis away); they may show the records changed until their TTL.',
    [{ pick: (r) => r.lostInvalidations }],
  );
  new Gauge({
    name: 'gateway_record_cache_entries',
    help: 'Answers the record cache holds now.',
    registers: [registry],
    collect() {
      this.set(read()?.entries ?? 0);
    },
  });
  new Gauge({
    name: 'gateway_record_cache_trusted',
    help: "Whether the record cache answers reads (1), or is bypassed (0) because other instances' writes cannot reach it (Redis away).",
    registers: [registry],
    collect() {
      const r = read();
      if (r) this.set(r.trusted ? 1 : 0);
    },
  });
}
