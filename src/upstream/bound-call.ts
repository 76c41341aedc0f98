import type { BankConnection, CallOptions, TokenSource } from './bank-connection.ts';
import type { Endpoint } from './endpoint.ts';
import { UpstreamNotFoundError, UpstreamRejectedError } from './errors.ts';
import type { OperationBounds } from './operation.ts';

/** An upstream call with its token source and request scope already chosen. */
export type BoundCall = <Data>(ep: Endpoint<Data>, options?: Omit<CallOptions, 'auth' | keyof CallScope>) => Promise<Data>;

/** What every upstream call of one GraphQL operation shares. */
export interface CallScope {
  /**
   * Epoch ms by which each call must be done, or where to read it at the time of the call, for calls
   * without `operation` (the readiness probe): each gets a deadline timer of its own.
   */
  deadline?: number | (() => number | undefined) | undefined;
  /**
   * Where to read, at the time of a call, what bounds the operation's calls (its deadline, its
   * client leaving): made when the operation starts executing or subscribing (yoga.ts).
   */
  operation?: (() => OperationBounds | undefined) | undefined;
  /** The gateway's request id: logged with each call and sent upstream as x-correlation-id. */
  correlationId?: string | undefined;
  /** Who the operation is for: clients take turns for the bank's slots (host-limit.ts). */
  client?: string | undefined;
  /** The bank user whose answers these are (record-cache.ts); reads without one are never kept. */
  cacheScope?: string | undefined;
  /** Every read goes to the bank, none is answered from the record cache (the readiness probe). */
  bypassCache?: boolean | undefined;
}

export function bindCall(connection: BankConnection, auth: TokenSource | undefined, scope: CallScope = {}): BoundCall {
  return (ep, options) => {
    const operation = scope.operation?.();
    const deadline = operation ? operation.deadline : typeof scope.deadline === 'function' ? scope.deadline() : scope.deadline;
    return connection.call(ep, {
      ...options,
      correlationId: scope.correlationId,
      client: scope.client,
      cacheScope: scope.bypassCache ? undefined : scope.cacheScope,
      deadline,
      operation,
      auth,
    });
  };
}

/**
 * For reads by id: the upstream answers an unknown id with a 400 whose message ends in "not found"
 * (Document 1 sends every failure as 400; see docs/sandbox.md), or a 404. Either means "no such record".
 */
export function orNullIfNotFound<T>(read: Promise<T>): Promise<T | null> {
  // One shared handler, not an async function: reads by id are most of a cards screen's calls.
  return read.catch(notFoundAsNull);
}

function notFoundAsNull(error: unknown): null {
  if (error instanceof UpstreamNotFoundError) return null;
  if (error instanceof UpstreamRejectedError && /not found\.?$/i.test(error.upstreamMessage ?? '')) return null;
  throw error;
}
