import type { Plugin } from 'graphql-yoga';
import type { QueryLimitsConfig } from '../settings/index.ts';
import type { Logger } from '../platform/logger.ts';
import { apqSocketDocuments, useAutomaticPersistedQueries, type PersistedQueryStore, type SocketDocuments } from './persisted-queries.ts';
import type { RouterTraffic } from './router.ts';
import { loadTrustedDocuments, trustedSocketDocuments, useTrustedDocuments } from './trusted-documents.ts';

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
