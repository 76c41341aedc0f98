/** Seeing it run: who may read `/metrics` (METRICS_TOKEN), and where OpenTelemetry traces go (OTEL_*). */

import { group, groupAs, httpUrl, setting, text, textOr, unsetIfEmpty } from '@banking-gateway/settings';
import { z } from 'zod';

/** OTEL_EXPORTER_OTLP_HEADERS as the OTLP exporter reads it (the OpenTelemetry SDK's format). */
const otlpHeaders = z
  .preprocess(
    unsetIfEmpty,
    z
      .string()
      .regex(/^\s*[^\s=,]+\s*=[^,]*(,\s*[^\s=,]+\s*=[^,]*)*$/, { error: 'must be key=value pairs, comma-separated' })
      .optional(),
  )
  .meta({ rule: 'key=value pairs, comma-separated' });

export const metricsGroup = group('Seeing it run', 'See [operations.md](operations.md).', {
  token: setting('METRICS_TOKEN', text(), 'with it, `/metrics` needs `Authorization: Bearer <token>`'),
});

export const tracingGroup = groupAs(
  'Tracing',
  "OpenTelemetry traces, exported over OTLP/HTTP with JSON bodies; off, at no cost, unless `OTEL_EXPORTER_OTLP_ENDPOINT` is set. The standard variables, so a collector sidecar's settings apply as they are. See [operations.md](operations.md#tracing).",
  {
    endpoint: setting(
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      httpUrl(),
      "the collector's OTLP/HTTP base address: spans go to `<endpoint>/v1/traces`",
      'unset: tracing off',
    ),
    serviceName: setting('OTEL_SERVICE_NAME', textOr('banking-gateway'), '`service.name` of the exported spans'),
    headers: setting(
      'OTEL_EXPORTER_OTLP_HEADERS',
      otlpHeaders,
      "headers of each export, such as a collector's API key (read by the exporter itself)",
      'none',
    ),
  },
  // Absent: tracing is off. The exporter reads its headers from the environment itself.
  ({ endpoint, serviceName }) => (endpoint ? { endpoint, serviceName } : undefined),
);

/** Where spans are exported, and as which service; absent from the configuration, tracing is off. */
export type TracingConfig = NonNullable<z.output<typeof tracingGroup>>;
