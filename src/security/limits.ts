import type { Plugin } from 'graphql-yoga';
import type { QueryLimitsConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import { armorPlugin } from './armor.ts';
import { useBodyLimit } from './body-size.ts';
import { useOperationLimits } from './operation-limits.ts';
import { useAutomaticPersistedQueries, type PersistedQueryStore } from './persisted-queries.ts';
import { loadTrustedDocuments, useTrustedDocuments } from './trusted-documents.ts';
import { useValidationPolicy } from './validation-policy.ts';

/**
 * What may be asked: every check here runs before execution, in the order a request meets them:
 * body size (before parsing), trusted documents (or else automatic persisted queries, which turn
 * a hash into its document and register a new one once it validates), tokens (while parsing), depth, aliases,
 * directives and introspection (validation), then page sizes, list sizes and cost (with the
 * variables, just before execution). Refusals are coded GraphQL errors (see refusal.ts). Batching
 * is off in yoga.ts; GraphiQL follows `limits.graphiql` there.
 */
export function queryLimitPlugins(limits: QueryLimitsConfig, logger: Logger, persistedQueries: PersistedQueryStore): Plugin[] {
  const trusted = limits.trustedDocuments ? loadTrustedDocuments(limits.trustedDocuments) : undefined;
  if (trusted) logger.info({ manifest: limits.trustedDocuments, documents: trusted.size }, 'only trusted documents are executed');
  return [
    useBodyLimit(limits.maxBodyBytes, limits.production),
    // With a manifest, its hashes are the only ones: nothing can register another.
    ...(trusted ? useTrustedDocuments(trusted) : useAutomaticPersistedQueries(persistedQueries)),
    armorPlugin(limits),
    useValidationPolicy({ introspection: limits.introspection, hideSuggestions: limits.production }),
    useOperationLimits({ maxCost: limits.maxCost, hideLimits: limits.production }),
  ];
}
