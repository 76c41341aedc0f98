import type { ExecutionResult } from 'graphql';
import type { CallerIdentity } from '../authentication/identity.ts';
import type { AuditTrail } from './trail.ts';

/**
 * Access-denied records: every request refused before anything ran, observed from above as the
 * answer it got (one place for every refusal, wherever it was made): a credential refused (401) or
 * not checkable (503), the CSRF header missing, a mutation over GET, a document outside the trusted
 * ones, the client's operations per window spent, a passthrough caller not logged in. HTTP (and
 * server-sent events) as Yoga answers them; a graphql-ws operation as its execution ends. The trail
 * aggregates them (access-denied.ts).
 */

/** The codes of refusals that deny access; any other refusal (too complex, a bad document) is the caller's mistake, not an attempt. */
const DENIED = new Set([
  'UNAUTHENTICATED',
  'AUTH_UNAVAILABLE',
  'CSRF_HEADER_REQUIRED',
  'PERSISTED_QUERY_NOT_IN_LIST',
  'PERSISTED_QUERY_ONLY',
  'PERSISTED_QUERY_ID_REQUIRED',
  'RATE_LIMITED',
]);

/** Yoga's refusal of a mutation sent as a GET (a link could send one) has no code of its own: its 405 says it. */
const MUTATION_OVER_GET = 'MUTATION_OVER_GET';

export interface AccessDeniedAuditOptions {
  /** The gateway's own id of a request (yoga.ts). */
  requestIdOf: (request: Request) => string;
  /** Who authentication found the request's caller to be, if it got that far (authentication/index.ts). */
  knownCaller: (request: Request) => CallerIdentity | undefined;
}

interface DeniedContext {
  request?: Request;
  caller?: CallerIdentity;
  requestId?: string;
  req?: NodeRequest;
}

type NodeRequest = { socket?: { remoteAddress?: string }; headers?: Record<string, string | string[] | undefined> };

/**
 * The access-denied half of the audit's plugin (plugin.ts, useAuditTrail): what it does as an
 * operation starts, and as Yoga answers an HTTP request.
 */
export interface AccessDeniedWatch {
  /** A graphql-ws operation's refusal is seen in its result: the watcher of its result, none over HTTP. */
  ofSocket(contextValue: unknown): ((result: unknown) => void) | undefined;
  /** An HTTP answer (Yoga's onResultProcess): a refusal in it is recorded. */
  answered(payload: { request: Request; result: unknown; serverContext: unknown }): void;
}

export function accessDeniedWatch(trail: AuditTrail, { requestIdOf, knownCaller }: AccessDeniedAuditOptions): AccessDeniedWatch {
  return {
    ofSocket: (contextValue) => {
      const context = contextValue as DeniedContext;
      if (!isSocket(context.req)) return undefined;
      return (result) => {
        const reason = refusalOf(result);
        if (!reason) return;
        trail.denied({
          reason,
          transport: 'graphql-ws',
          caller: callerOf(context.caller),
          address: addressOf(context.req),
          requestId: context.requestId ?? null,
        });
      };
    },
    answered: ({ request, result, serverContext }) => {
      const reason = refusalOf(result);
      if (!reason) return;
      // Yoga builds an HTTP request's GraphQL context on its server context: the caller is there once
      // the context was made (a bank token proven by then), else authentication may have found it.
      const context = serverContext as DeniedContext | undefined;
      trail.denied({
        reason,
        transport: 'http',
        caller: callerOf(context?.caller ?? knownCaller(request)),
        address: addressOf(context?.req),
        requestId: requestIdOf(request),
      });
    },
  };
}

/** The refusal a result is, if it is one: no data, and an error of the whole request that denies access. */
function refusalOf(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null || Array.isArray(result) || Symbol.asyncIterator in result) return undefined;
  const { data, errors } = result as ExecutionResult;
  if (data != null || !errors) return undefined;
  for (const error of errors) {
    if (error.path !== undefined) continue;
    const code = error.extensions?.code;
    if (typeof code === 'string' && DENIED.has(code)) return code;
    if (error.extensions?.http?.status === 405) return MUTATION_OVER_GET;
  }
  return undefined;
}

function callerOf(caller: CallerIdentity | undefined) {
  return caller ? { kind: caller.kind, name: caller.name } : null;
}

function addressOf(req: NodeRequest | undefined): string | null {
  return req?.socket?.remoteAddress ?? null;
}

function isSocket(req: NodeRequest | undefined): boolean {
  const upgrade = req?.headers?.upgrade;
  return typeof upgrade === 'string' && upgrade.toLowerCase() === 'websocket';
}
