import { context, propagation, trace, ProxyTracerProvider } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/settings/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { OneCallBalancesDocument } from '../generated/graphql.ts';
import { afterAnswer, useKit } from '../helpers/kit.ts';
import { record } from '../helpers/leak-scan.ts';

/**
 * Issue 18, part 3: tracing is off unless OTEL_EXPORTER_OTLP_ENDPOINT is set, and off costs nothing:
 * no tracer provider, context manager or propagator is registered, nothing is sent to the bank
 * beyond its documented headers, and no trace id appears in answers or logs.
 */
const lines: Record<string, unknown>[] = [];
const kit = useKit({
  logger: createLogger('info', {
    write: (line: string) => {
      record('gateway log', line);
      lines.push(JSON.parse(line) as Record<string, unknown>);
    },
  }),
});

describe('tracing without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('is off: no provider registered, no traceparent to the bank, no trace id in errors or the log', async () => {
    expect(loadConfig({}).tracing).toBeUndefined();
    await kit.control('POST', 'faults', { kind: 'status', status: 503, count: 10, method: 'GET', path: '/svc/api/v1/account/balance' });
    const result = await kit.execute(
      OneCallBalancesDocument,
      {},
      { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
    );

    expect(result.errors?.map((error) => error.extensions?.code)).toEqual(['UPSTREAM_UNAVAILABLE']);
    expect(result.errors?.[0]?.extensions).not.toHaveProperty('traceId');
    await afterAnswer();
    const logged = lines.find((line) => line.msg === 'operation executed');
    // balances is nullable: the error nulls the field alone, and the operation is partial.
    expect(logged).toMatchObject({ operation: 'OneCallBalances', outcome: 'partial' });
    expect(logged).not.toHaveProperty('traceId');
    const calls = kit.calls('/svc/api/v1/account/balance');
    expect(calls.length).toBeGreaterThan(1);
    expect(calls.map((call) => call.traceparent)).toEqual(calls.map(() => null));

    // The API's globals are its no-op defaults: spans made through them record nothing.
    expect((trace.getTracerProvider() as ProxyTracerProvider).getDelegate().constructor.name).toBe('NoopTracerProvider');
    const span = trace.getTracer('probe').startSpan('probe');
    expect(span.isRecording()).toBe(false);
    expect(context.with(trace.setSpan(context.active(), span), () => trace.getActiveSpan())).toBeUndefined();
    const carrier: Record<string, string> = {};
    const valid = trace.wrapSpanContext({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 });
    propagation.inject(trace.setSpan(context.active(), valid), carrier);
    expect(carrier).toEqual({});
  });
});
