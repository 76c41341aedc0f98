import { trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { upstreamTracing } from '../upstream/tracing.ts';
import { startTracing, traceIdOf } from './tracing.ts';

describe('startTracing', () => {
  it('does nothing without an endpoint: no plugin, no provider, no upstream spans', async () => {
    const off = startTracing({ endpoint: undefined, serviceName: 'x', exportDelayMs: 10 }, createLogger('silent'));
    expect(off.plugin).toBeUndefined();
    expect(upstreamTracing.on).toBe(false);
    expect(trace.getTracer('t').startSpan('s').isRecording()).toBe(false);
    expect(traceIdOf(undefined)).toBeUndefined();
    await off.shutdown();
  });

  it('records spans with an endpoint, and says so when the collector cannot take the last spans at the stop', async () => {
    const lines: string[] = [];
    const on = startTracing({ endpoint: 'http://127.0.0.1:9', serviceName: 'x', exportDelayMs: 10 }, createLogger('info', { write: (line: string) => void lines.push(line) }));
    expect(on.plugin).toBeDefined();
    expect(upstreamTracing.on).toBe(true);
    const span = trace.getTracer('t').startSpan('s');
    expect(span.isRecording()).toBe(true);
    span.end();
    await on.shutdown();
    // Nothing lost silently: the stop says the last spans did not reach the collector.
    expect(lines.some((line) => /tracing: (the collector did not take the last spans in time|the last spans could not be sent)/.test(line))).toBe(true);
    expect(upstreamTracing.on).toBe(false);
    expect(trace.getTracer('t').startSpan('s').isRecording()).toBe(false);
  });
});
