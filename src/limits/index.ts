import type { Plugin } from 'graphql-yoga';
import type { QueryLimitsConfig } from '../settings/index.ts';
import type { Logger } from '../platform/logger.ts';
import { armorPlugin } from './armor.ts';
import { useBodyLimit } from './body-size.ts';
import { useOperationLimits } from './operation-limits.ts';
import { apqSocketDocuments, useAutomaticPersistedQueries, type PersistedQueryStore, type SocketDocuments } from './persisted-queries.ts';
import type { RouterTraffic } from './router.ts';
import { loadTrustedDocuments, trustedSocketDocuments, useTrustedDocuments } from './trusted-documents.ts';
import { useValidationPolicy } from './validation-policy.ts';

/**
 * What may be asked: every check here runs before execution, in the order a request meets them:
 * body size (before parsing), trusted documents (or else automatic persisted queries, which turn
 * a hash into its document and register a new one once it validates), tokens (while parsing), depth, aliases,
 * directives and introspection (validation), then page sizes, list sizes and cost (with the
 * variables, just before execution). Refusals are coded GraphQL errors (see refusal.ts). Batching
 * is off in yoga.ts; GraphiQL follows `limits.graphiql` there.
 */
export function queryLimitPlugins(limits: QueryLimitsConfig, persisted: PersistedDocuments): Plugin[] {
  return [
    useBodyLimit(limits.maxBodyBytes, limits.production),
    ...persisted.plugins,
    armorPlugin(limits),
    useValidationPolicy({ introspection: limits.introspection, hideSuggestions: limits.production }),
    useOperationLimits({ maxCost: limits.maxCost, hideLimits: limits.production }),
  ];
}

/** How documents are named by id or hash: the Yoga plugins for HTTP, and the same rule for a WebSocket's operations. */
export interface PersistedDocuments {
  plugins: Plugin[];
  forSocket: SocketDocuments;
}

/**
 * Trusted documents with a manifest (its hashes are the only ones: nothing can register another),
 * or else automatic persisted queries kept in `store`.
 */
export function persistedDocuments(
  limits: Pick<QueryLimitsConfig, 'trustedDocuments'>,
  logger: Logger,
  store: PersistedQueryStore,
  fromRouter?: RouterTraffic,
): PersistedDocuments {
  const trusted = limits.trustedDocuments ? loadTrustedDocuments(limits.trustedDocuments) : undefined;
  if (!trusted) return { plugins: useAutomaticPersistedQueries(store), forSocket: apqSocketDocuments(store) };
  logger.info(
    { manifest: limits.trustedDocuments, documents: trusted.size, routerMaySendText: fromRouter !== undefined },
    'only trusted documents are executed',
  );
  return { plugins: useTrustedDocuments(trusted, fromRouter), forSocket: trustedSocketDocuments(fromRouter) };
}
