import type { GatewayContext } from '../context.ts';
import { outcomeOf, type ExecutionWatcher } from './operation-outcome.ts';
import { traceIdOf } from './tracing.ts';

/**
 * One JSON line per executed operation, on the request's logger (so it carries the request id the
 * upstream calls of that operation were sent with): who, what, how it ended and how long it took.
 * Variables are never logged; error messages are, as clients saw them. An operation answered in
 * parts (@defer, @stream) is logged once, when its last part has gone. With tracing on, the line
 * names the operation's trace (`traceId`).
 */
export function operationLog(): ExecutionWatcher {
  return ({ name, type, started, contextValue }) => {
    const context = contextValue as GatewayContext & { request?: Request };
    if (!context.logger.isLevelEnabled('info')) return undefined;
    return (result, ended) => {
      const errors = result.errors ?? [];
      const traceId = traceIdOf(context.request);
      context.logger.info(
        {
          operation: name,
          type,
          caller: context.caller.name,
          ms: Math.round(ended - started),
          outcome: outcomeOf(result),
          ...(errors.length > 0 ? { errors: errors.slice(0, 5).map((e) => ({ message: e.message, code: e.extensions?.code })) } : {}),
          ...(traceId ? { traceId } : {}),
        },
        'operation executed',
      );
    };
  };
}
