import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { UpstreamCall } from './stages/call.ts';

/**
 * Spans of upstream attempts (OpenTelemetry), on only when the gateway started tracing
 * (observability/tracing.ts turns it on): with it off, an attempt does no tracing work at all.
 * The OpenTelemetry API itself is used here, a library below every layer, so the upstream layer
 * needs nothing from the layers above it.
 */
export const upstreamTracing = { on: false };

const tracer = trace.getTracer('banking-gateway.upstream');
const attempts = new WeakMap<UpstreamCall, number>();

/**
 * One attempt as a client span, child of whatever span is active (a loader batch, the execution),
 * its W3C `traceparent` added to `headers` so the bank can continue the trace. A retried call shows
 * one span per attempt, numbered.
 */
export async function tracedAttempt<T extends { statusCode: number }>(call: UpstreamCall, headers: Record<string, string>, exchange: () => Promise<T>): Promise<T> {
  if (!upstreamTracing.on) return exchange();
  const attempt = (attempts.get(call) ?? 0) + 1;
  attempts.set(call, attempt);
  return tracer.startActiveSpan(
    call.details.endpoint,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'http.request.method': call.ep.method,
        'url.path': call.path,
        'http.request.resend_count': attempt - 1,
        'banking.endpoint': call.details.endpoint,
        'banking.request_id': call.details.requestId,
        'banking.attempt': attempt,
      },
    },
    async (span: Span) => {
      propagation.inject(context.active(), headers);
      try {
        const answer = await exchange();
        span.setAttribute('http.response.status_code', answer.statusCode);
        if (answer.statusCode >= 400) span.setStatus({ code: SpanStatusCode.ERROR, message: `HTTP ${answer.statusCode}` });
        return answer;
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).name });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
