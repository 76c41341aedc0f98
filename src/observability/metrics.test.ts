import { Histogram, Registry } from 'prom-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LATENCY_BUCKETS } from '../platform/metrics-registry.ts';
import { QUEUE_BUCKETS } from '../upstream/metrics.ts';
import type { UpstreamCallRecord } from '../upstream/observer.ts';
import { createMetrics } from './metrics.ts';
import type { FinalResult } from './operation-outcome.ts';

/**
 * The histograms observed on every operation and every call to the bank are not prom-client's
 * (labelled-metrics.ts): each is held here to the text prom-client's own Histogram, made as they
 * were before, gives for the same observations.
 */

/** The gateway's metrics, and beside them prom-client's Histogram of `name` on a registry of its own, with the same help, labels and buckets. */
function withReference(name: string, labelNames: readonly string[], buckets: readonly number[]) {
  const metrics = createMetrics({ openSubscriptions: () => 0 });
  const registry = new Registry();
  // prom-client's types leave out the `help` every metric has.
  const { help } = metrics.registry.getSingleMetric(name) as unknown as { help: string };
  const reference = new Histogram({ name, help, labelNames, buckets: [...buckets], registers: [registry] });
  /** The metric's text from the gateway's registry, then from the reference's. */
  const texts = async () => [await metrics.registry.getSingleMetricAsString(name), await registry.getSingleMetricAsString(name)];
  /** registry.resetMetrics() on both. */
  const reset = () => {
    metrics.registry.resetMetrics();
    registry.resetMetrics();
  };
  return { metrics, reference, texts, reset };
}

/** Seconds on every bound of `buckets` and either side of it, 0, huge, and sums whose rounding depends on their order. */
const secondsAround = (buckets: readonly number[]) => [
  ...buckets.flatMap((bound) => [bound, bound * 0.999, bound * 1.001]),
  0,
  1e-7,
  1e5,
  0.1,
  0.2,
  0.3,
  1 / 3,
];

/** `count` items of `pick`, walked interleaved: the n-th observation takes the (n * 7) % count-th. */
const interleaved = <T>(count: number, pick: (i: number) => T) => {
  const items = Array.from({ length: count }, (_, i) => pick(i));
  return (n: number) => items[(n * 7) % count]!;
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the histograms of every call and operation', () => {
  it('gateway_upstream_call_duration_seconds reads as prom-client’s Histogram would, over 30 endpoints, families and statuses, through a reset', async () => {
    const { metrics, reference, texts, reset } = withReference(
      'gateway_upstream_call_duration_seconds',
      ['endpoint', 'family', 'status'],
      LATENCY_BUCKETS,
    );
    const statuses: UpstreamCallRecord['status'][] = [200, 404, 500, 'network', 'timeout', 'circuit-open', 'deadline', 'rate-limited'];
    const combination = interleaved(30, (i) => ({
      endpoint: `GET /svc/api/v1/e${i % 10}`,
      family: `f${i % 3}`,
      status: statuses[i % statuses.length]!,
    }));
    const call = (n: number, seconds: number) => {
      const record = { ...combination(n), durationMs: seconds * 1000 };
      metrics.upstream.call(record);
      reference.observe({ endpoint: record.endpoint, family: record.family, status: String(record.status) }, record.durationMs / 1000);
    };
    const values = secondsAround(LATENCY_BUCKETS);
    values.forEach((seconds, n) => call(n, seconds));
    const [ours, theirs] = await texts();
    expect(ours).toBe(theirs);
    expect(ours).toContain('status="circuit-open"');
    reset();
    values.forEach((seconds, n) => call(n + 3, seconds));
    const [oursAfterReset, theirsAfterReset] = await texts();
    expect(oursAfterReset).toBe(theirsAfterReset);
  });

  it('gateway_upstream_queue_wait_seconds reads as prom-client’s Histogram would, over several hosts', async () => {
    const { metrics, reference, texts } = withReference('gateway_upstream_queue_wait_seconds', ['host'], QUEUE_BUCKETS);
    const host = interleaved(5, (i) => `bank-${i}.example:443`);
    secondsAround(QUEUE_BUCKETS).forEach((seconds, n) => {
      metrics.upstream.queueWait!(host(n), seconds * 1000);
      reference.observe({ host: host(n) }, (seconds * 1000) / 1000);
    });
    const [ours, theirs] = await texts();
    expect(ours).toBe(theirs);
    expect(ours).toContain('host="bank-4.example:443"');
  });

  it('gateway_operation_duration_seconds reads as prom-client’s Histogram would, over names, types and outcomes', async () => {
    const { metrics, reference, texts } = withReference(
      'gateway_operation_duration_seconds',
      ['operation', 'type', 'outcome'],
      LATENCY_BUCKETS,
    );
    const results: [FinalResult, string][] = [
      [{ data: {} }, 'ok'],
      [{ data: {}, errors: [{ message: 'x' }] }, 'partial'],
      [{ errors: [{ message: 'x' }] }, 'error'],
    ];
    const operation = interleaved(30, (i) => ({
      name: `Screen${i % 10}`,
      type: i % 4 === 0 ? 'mutation' : 'query',
      result: results[i % 3]!,
    }));
    const now = 1_000_000;
    vi.spyOn(performance, 'now').mockReturnValue(now);
    secondsAround(LATENCY_BUCKETS).forEach((seconds, n) => {
      const { name, type, result } = operation(n);
      const started = now - seconds * 1000;
      metrics.executed({ name, type, started, contextValue: {} })!(result[0], now);
      reference.observe({ operation: name, type, outcome: result[1] }, (now - started) / 1000);
    });
    const [ours, theirs] = await texts();
    expect(ours).toBe(theirs);
    expect(ours).toContain('operation="Screen9",type="query",outcome="partial"');
  });
});
