import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../context.ts';

/**
 * One JSON line per executed operation, on the request's logger (so it carries the request id the
 * upstream calls of that operation were sent with): who, what, how it ended and how long it took.
 * Variables are never logged; error messages are, as clients saw them.
 */
export function useOperationLog(): Plugin<GatewayContext> {
  return {
    onExecute: ({ args }) => {
      const started = performance.now();
      const operation = getOperationAST(args.document, args.operationName);
      return {
        onExecuteDone: ({ result }) => {
          if (!('errors' in result) && !('data' in result)) return;
          const context = args.contextValue as GatewayContext;
          if (!context.logger.isLevelEnabled('info')) return;
          const errors = result.errors ?? [];
          context.logger.info(
            {
              operation: operation?.name?.value ?? 'anonymous',
              type: operation?.operation,
              caller: context.caller.name,
              ms: Math.round(performance.now() - started),
              outcome: errors.length === 0 ? 'ok' : result.data ? 'partial' : 'error',
              ...(errors.length > 0 ? { errors: errors.slice(0, 5).map((e) => ({ message: e.message, code: e.extensions?.code })) } : {}),
            },
            'operation executed',
          );
        },
      };
    },
  };
}
