import type { Tracer } from '@opentelemetry/api';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { useCORS } from '@whatwg-node/server';
import type { Plugin } from 'graphql-yoga';
import { useCsrfPrevention } from '../authentication/csrf.ts';
import type { CallerAuth } from '../authentication/index.ts';
import type { QueryLimitsConfig } from '../settings/index.ts';
import { useSharedSubscriptionExecution, type SharedExecutionOptions } from '../events/shared-execution.ts';
import { armorPlugin } from '../limits/armor.ts';
import { BANK_COST_HEADER, useBankCallAccounting, useBankCallCeiling } from '../limits/bank-call-pricing.ts';
import { useBodyLimit } from '../limits/body-size.ts';
import type { BankCallMetrics, InFlightMetrics } from '../limits/metrics.ts';
import { useOperationsInFlight } from '../limits/operations-in-flight.ts';
import type { ClientRateLimit } from '../limits/client-limits.ts';
import type { PersistedDocuments } from '../limits/documents.ts';
import { useOperationLimits } from '../limits/operation-limits.ts';
import type { PlaceRefusal } from '../limits/open-counts.ts';
import { useRouterOnlyFields, type RouterTraffic } from '../limits/router.ts';
import { useSubscriptionLimits } from '../limits/subscription-limits.ts';
import { useValidationPolicy } from '../limits/validation-policy.ts';
import { liveOperation, type LiveQueryEngine } from '../live/engine.ts';
import type { GatewayMetrics } from '../observability/metrics.ts';
import { operationLog } from '../observability/operation-log.ts';
import { useExecutionWatchers } from '../observability/operation-outcome.ts';
import { useTracing } from '../observability/tracing.ts';
import type { UpstreamRuntime } from '../upstream/index.ts';
import { useResponseCompression } from './compression.ts';
import { useConditionalGet } from './conditional-get.ts';
import { useCodedEmptyRefusals } from './errors.ts';
import { incrementalDelivery } from './incremental-delivery.ts';
import { knownStateOf, useOperationBounds, useRequestId } from './request-state.ts';
import { asRoute, graphqlOnly } from './routes-first.ts';

/**
 * The request path: every Yoga plugin of the gateway, in the order Yoga calls their hooks
 * (docs/architecture.md, "A query", lists it and test/static/docs-map.test.ts holds the list to this file).
 * gateway.ts makes the parts once; each plugin here is one concern.
 */

/** What the plugins are made of: the parts gateway.ts makes, each owning its own state. */
export interface RequestPathParts {
  /** With it (OTEL_EXPORTER_OTLP_ENDPOINT set), each operation is a trace. */
  tracer: Tracer | undefined;
  /** The answers outside GraphQL (routes/index.ts), in order. */
  routes: Plugin[];
  auth: CallerAuth;
  upstream: UpstreamRuntime;
  /** The audit trail's watcher (audit/plugin.ts). */
  audit: Plugin;
  metrics: Pick<GatewayMetrics, 'plugin' | 'executed'>;
  limits: QueryLimitsConfig;
  persisted: PersistedDocuments;
  /** The supergraph's router, told from the clients it forwards: only with the subgraph on. */
  fromRouter: RouterTraffic | undefined;
  perClient: Pick<ClientRateLimit, 'plugin' | 'budget'>;
  /** The price of operations in bank calls, for the metrics; without it (a test's list), not counted. */
  bankCalls?: BankCallMetrics | undefined;
  /** Told of the operations in flight and of those refused for their number; without it (a test's list), not counted. */
  inFlight?: InFlightMetrics | undefined;
  live: Pick<LiveQueryEngine, 'plugin'>;
  /** What makes two subscribers' results of one event the same. */
  subscriptionScope: SharedExecutionOptions['scopeOf'];
  /** Told of each subscription refused for the places it would take. */
  subscriptionRefused: (reason: PlaceRefusal) => void;
  /** Plugins of the embedder's own (createGateway's `plugins`), after the gateway's. */
  added: Plugin[];
}

export function requestPath(parts: RequestPathParts): Plugin[] {
  const delivery = incrementalDelivery({ eventStreamOf: (request) => knownStateOf(request)?.eventStream });
  const afterRoutes: Plugin[] = [
    ...(parts.auth.cors === false ? [] : [useCORS(parts.auth.cors) as Plugin]),
    useRequestId(),
    useCodedEmptyRefusals(),
    useOperationBounds(parts.upstream),
    delivery.answerableAcceptOnly,
    useDeferStream(),
    delivery.streamFormAccepted,
    delivery.streamAnswers,
    // Before authentication and the limits: it records what they refuse.
    parts.audit,
    useCsrfPrevention(),
    parts.auth.plugin,
    parts.metrics.plugin,
    // Metrics' durations and the operation log: one description of each operation for both.
    useExecutionWatchers([parts.metrics.executed, operationLog()]),
    ...whatMayBeAsked(parts),
    // After the limits (a refused document takes no place), before the client's window (a shed operation costs it nothing).
    useOperationsInFlight({
      max: parts.limits.maxOperationsInFlight,
      isLong: (args) => liveOperation(args.document, args.operationName, args.variableValues) !== undefined,
      observer: parts.inFlight,
    }),
    // After the limits: an operation they refuse costs its client nothing.
    ...(parts.perClient.plugin ? [parts.perClient.plugin] : []),
    // After it too: charged to the client's budget, its price settled when it ends.
    useBankCallAccounting({
      budget: parts.perClient.budget,
      wantsCost: (request) => request.headers.has(BANK_COST_HEADER),
      onRefused: parts.bankCalls?.refused,
      onPriced: parts.bankCalls?.priced,
    }),
    parts.live.plugin,
    useSharedSubscriptionExecution({ scopeOf: parts.subscriptionScope }),
    // After it: the place a subscription takes is held around what runs it.
    useSubscriptionLimits(parts.limits, parts.subscriptionRefused),
    useConditionalGet(),
    // Last of the gateway's: every other plugin has set its headers by then (the ETag names the JSON).
    useResponseCompression(),
    ...parts.added,
  ];
  return [
    // First: its span is the parent of all the others'.
    ...(parts.tracer ? [useTracing(parts.tracer, (request) => knownStateOf(request)?.id)] : []),
    // Before anything of GraphQL sees their requests; the plugins after them leave their answers alone.
    ...parts.routes.map(asRoute),
    ...afterRoutes.map(graphqlOnly),
  ];
}

/**
 * The limits on what an operation may ask, each before execution, in the order a request meets them:
 * the router's own fields, the body size (before parsing), the document by its id or hash, tokens
 * (while parsing), depth, aliases, directives and introspection (validation), then cost, page and
 * list sizes with the variables.
 */
export function whatMayBeAsked(parts: Pick<RequestPathParts, 'limits' | 'persisted' | 'fromRouter' | 'bankCalls'>): Plugin[] {
  const { limits } = parts;
  return [
    ...(parts.fromRouter ? [useRouterOnlyFields(parts.fromRouter)] : []),
    useBodyLimit(limits.maxBodyBytes, limits.production),
    ...parts.persisted.plugins,
    armorPlugin(limits),
    useValidationPolicy({ introspection: limits.introspection, hideSuggestions: limits.production }),
    useOperationLimits({ maxCost: limits.maxCost, hideLimits: limits.production }),
    useBankCallCeiling({ maxBankCalls: limits.maxBankCalls, hideLimits: limits.production, onRefused: parts.bankCalls?.refused }),
  ];
}
