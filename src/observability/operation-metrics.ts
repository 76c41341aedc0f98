import type { Plugin } from 'graphql-yoga';
import { Counter, Gauge, type Registry } from 'prom-client';
import { LabelledHistogram } from '../platform/labelled-metrics.ts';
import { LATENCY_BUCKETS } from '../platform/metrics-registry.ts';
import { describeOperation, outcomeOf, type ExecutionWatcher } from './operation-outcome.ts';

/**
 * What GraphQL answered: operations by name, type and outcome, refusals, HTTP answers,
 * subscriptions, and the errors that are the caller's own mistake.
 *
 * Hand-made rather than @graphql-yoga/plugin-prometheus (6.19, on @envelop/prometheus 14): its
 * histograms take their labels from the operation alone (fillLabelsFn gets the document, name and
 * type, never the result), so the `outcome` that docs/operations.md documents on
 * gateway_operation_duration_seconds (ok, partial or error, over every part of a @defer answer)
 * could not be one; and its HTTP metric is a histogram labelled by method, URL and operation, not
 * gateway_http_responses_total{status}.
 */

/** Operation names come from callers: only the first this many distinct names get their own series, the rest count as `other`. */
const MAX_OPERATION_NAMES = 200;

/** The codes of client mistakes that get a series of their own; any other counts as `other`. */
const CLIENT_ERROR_CODES = new Set([
  'FORBIDDEN',
  'BAD_USER_INPUT',
  'CURSOR_EXPIRED',
  'NOT_FOUND',
  'UNAUTHENTICATED',
  'RATE_LIMITED',
  'QUERY_TOO_COMPLEX',
  'GRAPHQL_VALIDATION_FAILED',
  'PERSISTED_QUERY_NOT_IN_LIST',
  'PERSISTED_QUERY_ONLY',
]);

export interface OperationMetrics {
  /** Refusals, subscriptions started and HTTP answers. */
  plugin: Plugin;
  /** Operations executed, by name, type and outcome (useExecutionWatchers). */
  executed: ExecutionWatcher;
  /** A caller's own mistake answered with this code (a bad cursor, a forbidden field...). */
  clientError(code: string): void;
}

/** `openSubscriptions`: the subscriptions open right now (the event bus counts them). */
export function operationMetrics(registry: Registry, openSubscriptions: () => number): OperationMetrics {
  // Observed on every operation: not prom-client's Histogram, whose observe costs far more (labelled-metrics.ts).
  const operations = new LabelledHistogram({
    name: 'gateway_operation_duration_seconds',
    help: 'GraphQL operations executed, by operation name, type and outcome (ok, partial, error).',
    labelNames: ['operation', 'type', 'outcome'],
    buckets: LATENCY_BUCKETS,
    registry,
  });
  const refused = new Counter({
    name: 'gateway_operations_refused_total',
    help: 'Operations refused before execution because the document failed validation (including the query limits).',
    registers: [registry],
  });
  const responses = new Counter({
    name: 'gateway_http_responses_total',
    help: 'Answers of the GraphQL endpoint by HTTP status (401: unauthenticated, 413: too large, 400: refused).',
    labelNames: ['status'] as const,
    registers: [registry],
  });
  const subscriptionsStarted = new Counter({
    name: 'gateway_subscriptions_started_total',
    help: 'Subscriptions started, by operation name.',
    labelNames: ['operation'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'gateway_subscriptions_open',
    help: 'Subscriptions open on this instance (graphql-ws and SSE).',
    registers: [registry],
    collect() {
      this.set(openSubscriptions());
    },
  });
  const clientErrors = new Counter({
    name: 'gateway_client_errors_total',
    help: "Errors that are the caller's own mistake (a forbidden field, a bad cursor, a bad argument...), by code.",
    labelNames: ['code'] as const,
    registers: [registry],
  });
  const names = boundedNames(MAX_OPERATION_NAMES);

  const plugin: Plugin = {
    onValidate:
      () =>
      ({ result }) => {
        if (result.length > 0) refused.inc();
      },
    onSubscribe: ({ args }) => {
      subscriptionsStarted.inc({ operation: names(describeOperation(args.document, args.operationName).name) });
    },
    onResponse: ({ response }) => {
      responses.inc({ status: String(response.status) });
    },
  };
  const executed: ExecutionWatcher =
    ({ name, type, started }) =>
    (result, ended) => {
      operations.series(names(name), type, outcomeOf(result)).observe((ended - started) / 1000);
    };
  return { plugin, executed, clientError: (code) => clientErrors.inc({ code: CLIENT_ERROR_CODES.has(code) ? code : 'other' }) };
}

/** Caller-chosen names as label values, without letting a caller grow the series without end. */
function boundedNames(max: number): (name: string) => string {
  const seen = new Set<string>();
  return (name) => {
    const label = name.slice(0, 64);
    if (seen.has(label)) return label;
    if (seen.size >= max) return 'other';
    seen.add(label);
    return label;
  };
}
