import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { getOperationAST, GraphQLError, type DocumentNode, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { TracingConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import { upstreamTracing } from '../upstream/tracing.ts';

/**
 * OpenTelemetry traces, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: then one trace per GraphQL
 * request (continuing the caller's `traceparent`), with spans for parsing, validation, execution,
 * each loader batch and each upstream attempt (src/upstream/tracing.ts), sent over OTLP/HTTP (JSON)
 * in batches. The trace id goes in the operation's log line and in every error's extensions.
 *
 * A small Yoga plugin over Yoga's `instrumentation` hooks rather than @envelop/opentelemetry: that
 * plugin is built on the 1.x SDK (this gateway uses the current one) and makes a span of every
 * resolver, hundreds per screen here; the spans an operator reads are the phases, the batches and
 * the calls to the bank. Hive Gateway's OpenTelemetry plugin takes the same instrumentation route.
 */

const tracer = trace.getTracer('banking-gateway');
/** How long a stop waits for the last spans to reach the collector. */
const SHUTDOWN_FLUSH_MS = 2_000;
/** Whether this process traces: loader batches check it at call time (the schema is built before tracing starts). */
let tracing = false;
/** Each GraphQL request's span, for the hooks that see the request but not the active context. */
const requestSpans = new WeakMap<Request, Span>();

export interface Tracing {
  /** The Yoga plugin; undefined when tracing is off. */
  plugin: Plugin | undefined;
  /** Sends the spans still buffered and stops (the gateway's stop). */
  shutdown(): Promise<void>;
}

const OFF: Tracing = { plugin: undefined, shutdown: async () => {} };

export function startTracing(config: TracingConfig | undefined, logger: Logger): Tracing {
  if (!config?.endpoint) return OFF;
  const exporter = new OTLPTraceExporter({ url: `${config.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName }),
    spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: config.exportDelayMs })],
  });
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  tracing = true;
  upstreamTracing.on = true;
  logger.info({ endpoint: config.endpoint, serviceName: config.serviceName }, 'tracing: spans go to the OTLP endpoint');
  return {
    plugin: useTracing(),
    shutdown: async () => {
      tracing = false;
      upstreamTracing.on = false;
      // An unreachable collector must not hold the stop for the exporter's own 10 s timeout.
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<'gave up'>((resolve) => (timer = setTimeout(() => resolve('gave up'), SHUTDOWN_FLUSH_MS)));
      const flushed = provider.shutdown().then(
        () => 'sent' as const,
        (error: unknown) => (logger.warn({ err: error }, 'tracing: the last spans could not be sent'), 'failed' as const),
      );
      if ((await Promise.race([flushed, gaveUp])) === 'gave up') logger.warn({ waitedMs: SHUTDOWN_FLUSH_MS }, 'tracing: the collector did not take the last spans in time; they are dropped');
      clearTimeout(timer);
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** The trace id of the request's trace, when traced: for its log line and its errors. */
export function traceIdOf(request: Request | undefined): string | undefined {
  const span = request ? requestSpans.get(request) : trace.getActiveSpan();
  return span?.spanContext().traceId;
}

/**
 * A loader's batch function whose every batch is a span (when tracing), child of the execution. Of
 * the same type as the function it wraps, so Pothos still infers the node's shape from it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any loader's keys and context
export function tracedBatch<F extends (keys: any[], context: any) => Promise<unknown>>(loader: string, load: F): F {
  const traced = (keys: unknown[], loaderContext: unknown) => {
    if (!tracing) return load(keys, loaderContext);
    return inSpan(`dataloader.batch ${loader}`, { 'graphql.dataloader.name': loader, 'graphql.dataloader.batch_size': keys.length }, () => load(keys, loaderContext));
  };
  return traced as F;
}

function inSpan<T>(name: string, attributes: Record<string, string | number>, run: () => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await run();
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

function failed(span: Span, error: unknown): void {
  span.recordException(error as Error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
}

const headerGetter = {
  keys: (headers: Headers) => [...headers.keys()],
  get: (headers: Headers, key: string) => headers.get(key) ?? undefined,
};

/** A phase of the operation (parse, validate) as a child span, synchronously. */
function phase(name: string, wrapped: () => void): void {
  const span = tracer.startSpan(name, {}, context.active());
  try {
    context.with(trace.setSpan(context.active(), span), wrapped);
  } catch (error) {
    failed(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** An async phase (execute, subscribe), active while it runs so loader and upstream spans hang under it. */
function asyncPhase(name: string, wrapped: () => unknown): unknown {
  const span = tracer.startSpan(name, {}, context.active());
  const active: Context = trace.setSpan(context.active(), span);
  try {
    const result = context.with(active, wrapped);
    if (result instanceof Promise) {
      return result.then(
        (value) => (span.end(), value),
        (error: unknown) => {
          failed(span, error);
          span.end();
          throw error;
        },
      );
    }
    span.end();
    return result;
  } catch (error) {
    failed(span, error);
    span.end();
    throw error;
  }
}

function useTracing(): Plugin {
  return {
    instrumentation: {
      request({ request }, wrapped) {
        const parent = propagation.extract(ROOT_CONTEXT, request.headers, headerGetter);
        const span = tracer.startSpan(`graphql ${request.method}`, { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method } }, parent);
        requestSpans.set(request, span);
        const end = () => span.end();
        const result = context.with(trace.setSpan(parent, span), wrapped);
        if (result instanceof Promise) return result.then(end, (error: unknown) => (failed(span, error), end(), Promise.reject(error)));
        end();
        return result;
      },
      parse: (_payload, wrapped) => phase('graphql.parse', wrapped),
      validate: (_payload, wrapped) => phase('graphql.validate', wrapped),
      execute: (_payload, wrapped) => asyncPhase('graphql.execute', wrapped) as ReturnType<typeof wrapped>,
      subscribe: (_payload, wrapped) => asyncPhase('graphql.subscribe', wrapped) as ReturnType<typeof wrapped>,
    },
    onExecute({ args }) {
      const request = (args.contextValue as { request?: Request }).request;
      const span = request && requestSpans.get(request);
      if (!span) return;
      const { name, type } = operationOf(args.document, args.operationName);
      span.updateName(`${type} ${name}`);
      span.setAttributes({ 'graphql.operation.name': name, 'graphql.operation.type': type });
    },
    onResultProcess({ request, result, setResult }) {
      const traceId = traceIdOf(request);
      if (!traceId || Array.isArray(result) || !isResult(result) || !result.errors?.length) return;
      requestSpans.get(request)?.setStatus({ code: SpanStatusCode.ERROR, message: result.errors[0]!.message });
      setResult({ ...result, errors: result.errors.map((error) => withTraceId(error, traceId)) });
    },
  };
}

/** The error as it was, with the trace id an operator can look the request up by. */
function withTraceId(error: GraphQLError, traceId: string): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, traceId },
  });
}

function isResult(value: unknown): value is ExecutionResult {
  return typeof value === 'object' && value !== null && !(Symbol.asyncIterator in value);
}

function operationOf(document: DocumentNode, operationName: string | null | undefined): { name: string; type: string } {
  const operation = getOperationAST(document, operationName);
  return { name: operation?.name?.value ?? 'anonymous', type: operation?.operation ?? 'unknown' };
}
