import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Tracer } from '@opentelemetry/api';
import { semanticConventions } from '../../platform/on-first-use.ts';
import { UpstreamError } from '../errors.ts';
import type { Stage } from './pipeline.ts';
import type { Answer } from './send.ts';

/** The gateway's own attributes of an attempt span (the HTTP ones are the semantic conventions'). */
const UPSTREAM_ATTRIBUTES = {
  endpoint: 'gateway.upstream.endpoint',
  attempt: 'gateway.upstream.attempt',
  requestId: 'gateway.upstream.request_id',
} as const;

/**
 * Each attempt on the wire as an OpenTelemetry client span, a child of whatever span is current
 * (the operation's execute, a loader batch), sent to the bank as the attempt's W3C `traceparent`
 * (the globally registered propagator). A retried read is two spans. The span is named after the
 * endpoint's route (`GET /svc/api/v1/account`) and carries the path without its query string, the
 * status, the attempt number and the call's x-request-id; no header or body. The connection puts
 * this stage in the pipeline only when tracing is on: off, an attempt does no tracing work at all.
 */
export function attemptSpanStage(tracer: Tracer, origin: URL): Stage<Answer> {
  const {
    ATTR_ERROR_TYPE,
    ATTR_HTTP_REQUEST_METHOD,
    ATTR_HTTP_REQUEST_RESEND_COUNT,
    ATTR_HTTP_RESPONSE_STATUS_CODE,
    ATTR_SERVER_ADDRESS,
    ATTR_SERVER_PORT,
    ATTR_URL_PATH,
  } = semanticConventions();
  const failed = (span: ReturnType<Tracer['startSpan']>, type: string): void => {
    span.setAttribute(ATTR_ERROR_TYPE, type);
    span.setStatus({ code: SpanStatusCode.ERROR, message: type });
  };
  const server: Attributes = {
    [ATTR_SERVER_ADDRESS]: origin.hostname,
    [ATTR_SERVER_PORT]: Number(origin.port) || (origin.protocol === 'https:' ? 443 : 80),
  };
  return async (call, next) => {
    const attempt = ++call.attempts;
    const span = tracer.startSpan(call.details.endpoint, {
      kind: SpanKind.CLIENT,
      attributes: {
        ...server,
        [ATTR_HTTP_REQUEST_METHOD]: call.ep.method,
        [ATTR_URL_PATH]: call.path.split('?')[0],
        [UPSTREAM_ATTRIBUTES.endpoint]: call.details.endpoint,
        [UPSTREAM_ATTRIBUTES.attempt]: attempt,
        [UPSTREAM_ATTRIBUTES.requestId]: call.details.requestId,
        ...(attempt > 1 ? { [ATTR_HTTP_REQUEST_RESEND_COUNT]: attempt - 1 } : {}),
      },
    });
    const active = trace.setSpan(context.active(), span);
    const headers: Record<string, string> = {};
    propagation.inject(active, headers);
    call.traceHeaders = headers;
    try {
      const answer = await context.with(active, next, undefined, call);
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, answer.statusCode);
      // Client spans: 4xx and 5xx are the attempt's failure (HTTP semantic conventions).
      if (answer.statusCode >= 400) failed(span, String(answer.statusCode));
      return answer;
    } catch (error) {
      // The typed error's name, never undici's message (it names the bank's host and port).
      failed(span, error instanceof UpstreamError ? error.name : 'Error');
      throw error;
    } finally {
      span.end();
    }
  };
}
