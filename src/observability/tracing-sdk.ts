import { context, diag, DiagLogLevel, propagation, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { loggingErrorHandler, setGlobalErrorHandler, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { TracingConfig } from '../settings/index.ts';
import type { Logger } from '../platform/logger.ts';

/** The tracing SDK as the process runs it: the tracer the gateway's spans come from, and its stop. */
export interface Tracing {
  tracer: Tracer;
  /** Exports every span ended so far (tests read the collector right after an operation). */
  flush(): Promise<void>;
  /**
   * Exports what is left and stops, within `SHUTDOWN_MS` however the collector behaves, and takes
   * the SDK off the API's globals (its context manager, propagator and provider).
   */
  shutdown(): Promise<void>;
}

/** How long the stop waits for the last export: a collector that does not answer must not hold it. */
const SHUTDOWN_MS = 3_000;

/**
 * The OpenTelemetry SDK: a batch span processor exporting OTLP/HTTP with JSON bodies to
 * `<endpoint>/v1/traces` (the exporter adds OTEL_EXPORTER_OTLP_HEADERS itself), W3C trace context
 * propagation, and AsyncLocalStorage so a span started in an operation is the parent of what the
 * operation's code does later. main.ts imports this file only when OTEL_EXPORTER_OTLP_ENDPOINT is
 * set, so a gateway without it loads no SDK. Export failures never reach a request: the batch
 * processor exports in the background and drops what it cannot send, and the log says so.
 */
export function startTracing(config: TracingConfig, logger: Logger): Tracing {
  const exporter = new OTLPTraceExporter({ url: `${config.endpoint}/v1/traces` });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.serviceName }),
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  });
  const log = logger.child({ component: 'tracing' });
  const dropped = (reason: string) => log.warn({ reason }, 'trace export failed: spans dropped');
  setGlobalErrorHandler((error) => dropped(messageOf(error)));
  // The SDK's own warnings (a full queue dropping spans) go to the log, not to a console nobody reads.
  diag.setLogger({ error: sdkLine(log), warn: sdkLine(log), info: () => {}, debug: () => {}, verbose: () => {} }, DiagLogLevel.WARN);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  log.info({ endpoint: config.endpoint, serviceName: config.serviceName }, 'tracing on: spans exported over OTLP/HTTP');

  return {
    tracer: provider.getTracer('banking-gateway'),
    flush: () => provider.forceFlush(),
    shutdown: async () => {
      const stopped = provider.shutdown().then(
        () => true,
        (error: unknown) => (dropped(messageOf(error)), true),
      );
      const timer = new Promise<false>((resolve) => setTimeout(resolve, SHUTDOWN_MS, false).unref());
      if (!(await Promise.race([stopped, timer]))) dropped(`the collector had not taken them ${SHUTDOWN_MS} ms into the stop`);
      trace.disable();
      propagation.disable();
      context.disable();
      diag.disable();
      setGlobalErrorHandler(loggingErrorHandler());
    },
  };
}

function sdkLine(log: Logger) {
  return (message: string, ...args: unknown[]) =>
    log.warn({ detail: args.map(messageOf).join(' ') || undefined }, `OpenTelemetry: ${message}`);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
