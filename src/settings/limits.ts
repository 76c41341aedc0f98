/**
 * What may be asked: the limits checked before execution, the trusted documents, and introspection
 * and GraphiQL, which production turns off unless they are switched on explicitly.
 */

import { flag, groupAs, int, setting, text } from '@banking-gateway/settings';
import type { z } from 'zod';

/** The shipped manifest of trusted documents (`TRUSTED_DOCUMENTS=true`). */
export const SHIPPED_TRUSTED_DOCUMENTS = new URL('../../schema/trusted-documents.json', import.meta.url).pathname;

/** Path of a persisted-documents manifest (TRUSTED_DOCUMENTS: `true` for the shipped one, or a path); with it, only those documents are executed. */
function trustedManifestOf(setting: string | undefined): string | undefined {
  const trusted = setting?.toLowerCase();
  if (trusted === undefined || ['false', '0', 'no', 'off'].includes(trusted)) return undefined;
  return ['true', '1', 'yes', 'on'].includes(trusted) ? SHIPPED_TRUSTED_DOCUMENTS : setting;
}

export const limitsGroup = groupAs(
  'What may be asked',
  'Limits checked before execution. The operations the project ships stay well inside the defaults: test/static/limits.test.ts runs every one of them against tighter limits.',
  {
    introspection: setting('INTROSPECTION', flag(), 'schema introspection', 'on, off in production'),
    graphiql: setting('GRAPHIQL', flag(), 'GraphiQL on GET /graphql', 'on, off in production'),
    trustedDocuments: setting(
      'TRUSTED_DOCUMENTS',
      text(),
      "`true` (the shipped manifest) or a manifest's path: only those documents run",
      'off',
    ),
    maxDepth: setting('MAX_DEPTH', int(1, 100, 12), 'deepest selection'),
    maxCost: setting('MAX_COST', int(1, 1_000_000, 50_000), 'highest cost (src/limits/operation-limits.ts)'),
    maxBankCalls: setting(
      'OPERATION_MAX_BANK_CALLS',
      int(1, 1_000_000, 2_500),
      "most bank calls one operation may cost, by its estimate before it runs (src/limits/bank-call-estimate.ts); above it the operation is refused with `OPERATION_TOO_EXPENSIVE`, which names what costs most. The default is about two and a half times the costliest shipped operation's estimate (docs/operations.md)",
    ),
    maxAliases: setting('MAX_ALIASES', int(0, 1_000, 15), 'most aliases'),
    maxDirectives: setting('MAX_DIRECTIVES', int(0, 1_000, 10), 'most directives'),
    maxTokens: setting('MAX_TOKENS', int(10, 100_000, 2_000), 'most tokens in a document'),
    documentCacheKb: setting(
      'DOCUMENT_CACHE_MAX_KB',
      int(0, 1_000_000, 256),
      'parsed and validated documents kept for their next request, bounded by the length of their text in KB (40 to 55 bytes of heap per character: the default holds at most about 14 MB); 0 keeps none',
    ),
    apqMaxKb: setting(
      'APQ_MAX_KB',
      int(1, 1_000_000, 5_120),
      'automatic persisted queries kept in this process (at most 1,000 documents), bounded by the length of their text in KB; with Redis, the rest are read back from it',
    ),
    maxBodyBytes: setting('MAX_BODY_BYTES', int(1_024, 10 * 1024 * 1024, 64 * 1024), 'largest request body and graphql-ws message'),
    maxOperationsInFlight: setting(
      'MAX_OPERATIONS_IN_FLIGHT',
      int(1, 1_000_000, 1_000),
      'queries and mutations one instance runs at once (subscriptions and live queries apart); the next is refused with `SERVER_BUSY` (503, Retry-After). Each holds its bank reads and its answer while it runs: it bounds that part of the memory (docs/operations.md, "Memory")',
    ),
    subscriptionMaxPerCaller: setting(
      'SUBSCRIPTION_MAX_PER_CALLER',
      int(1, 1_000_000, 10_000),
      'subscriptions one caller (API key, JWT subject, bank user, or anonymous address) may hold open on one instance; the next is refused with `SUBSCRIPTION_LIMIT`',
    ),
    subscriptionMaxPerConnection: setting(
      'SUBSCRIPTION_MAX_PER_CONNECTION',
      int(1, 100_000, 100),
      'subscriptions one connection (a WebSocket) may hold open; the next is refused with `SUBSCRIPTION_LIMIT`',
    ),
    clientRequestTimeoutMs: setting(
      'CLIENT_REQUEST_TIMEOUT_MS',
      int(1_000, 600_000, 30_000),
      'a client has this long to send a whole request, headers and body; then its connection is closed with 408 (a slow or stalled client holds a connection). The answer, a stream or a WebSocket after it are not bounded by it',
    ),
    // The gateway needs the manifest's path, whichever way TRUSTED_DOCUMENTS names it.
  },
  ({ trustedDocuments, ...limits }) => ({ ...limits, trustedDocuments: trustedManifestOf(trustedDocuments) }),
);

/** Production turns introspection and GraphiQL off unless they are switched on explicitly. */
export function withProductionDefaults(limits: z.output<typeof limitsGroup>, production: boolean) {
  return {
    ...limits,
    production,
    introspection: limits.introspection ?? !production,
    graphiql: limits.graphiql ?? !production,
  };
}

/** What may be asked: limits checked before execution, with production's defaults resolved. */
export type QueryLimitsConfig = ReturnType<typeof withProductionDefaults>;
