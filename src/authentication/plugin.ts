import type { ExecutionArgs, ExecutionResult, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Authenticator } from './authenticate.ts';
import { presentedInHeaders } from './credentials.ts';
import type { CallerIdentity } from './identity.ts';
import { anonymousMayRun } from '../authorization/anonymous-operations.ts';
import { AuthRefusal, refusalError } from './refusal.ts';

/** What the operation hooks read of the GraphQL context (context.ts builds it; auth sits below it). */
interface CallerContext {
  caller: CallerIdentity;
  requestId: string;
}

export interface AuthPluginOptions {
  authenticator: Authenticator;
  /** The identity of each request that passed, for the context factory. */
  identities: WeakMap<Request, CallerIdentity>;
  /** Passthrough only: the checks made once the operation is known. */
  passthrough?:
    | {
        /** Resolves when the bank accepts the token; rejects with an AuthRefusal when not. */
        proveToken(token: string, correlationId?: string): Promise<void>;
      }
    | undefined;
  /** Logs (within bounds) and counts a refused caller. */
  logRefusal: (refusal: AuthRefusal, transport: string) => void;
}

/**
 * A subscription's events, each delivered only after the caller's token is proven again (the
 * verdict is remembered for a minute, so this is one bank call per token per minute at most). A
 * refused token ends the subscription with an UNAUTHENTICATED error; a bank that cannot say right
 * now does not: the token was proven when the subscription started.
 */
function whileAccepted(
  source: AsyncIterable<ExecutionResult>,
  prove: () => Promise<void>,
  refused: (refusal: AuthRefusal) => GraphQLError,
): AsyncIterableIterator<ExecutionResult> {
  const iterator = source[Symbol.asyncIterator]();
  let ended = false;
  // Not an async generator: its return() would wait for the pending next(), i.e. for the next event.
  const end = async (): Promise<IteratorReturnResult<undefined>> => {
    ended = true;
    await iterator.return?.();
    return { done: true, value: undefined };
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      if (ended) return { done: true, value: undefined };
      const next = await iterator.next();
      if (next.done) return next;
      try {
        await prove();
      } catch (error) {
        if (!(error instanceof AuthRefusal) || error.kind === 'unavailable') return next;
        await end();
        return { done: false, value: { errors: [refused(error)] } };
      }
      return next;
    },
    return: end,
    throw: async (error: unknown) => {
      await end();
      throw error;
    },
  };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<ExecutionResult> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/**
 * HTTP and SSE (both through Yoga): the credential is checked in onRequestParse, before the body is
 * read, so a refused request is never parsed or executed. graphql-ws checks it at connection_init
 * (ws.ts) and shares the operation rules below, which run before execution on every transport.
 */
export function useAuthentication(options: AuthPluginOptions): Plugin {
  const { authenticator, identities, passthrough, logRefusal } = options;
  const refuse = (refusal: AuthRefusal, transport: string) => {
    logRefusal(refusal, transport);
    return refusalError(refusal, authenticator.challenge);
  };
  /** Passthrough's rules once the operation is known: undefined = go ahead. */
  const operationRefusal = async (args: ExecutionArgs, subscription: boolean): Promise<AuthRefusal | undefined> => {
    if (!passthrough) return undefined;
    const context = args.contextValue as CallerContext;
    const token = context.caller.upstreamToken;
    if (!token) {
      return subscription || !anonymousMayRun(args.document, args.operationName)
        ? new AuthRefusal(
            'missing',
            'Log in first: run the accessTokenCreate mutation, then send its token as "Authorization: Bearer <token>"',
          )
        : undefined;
    }
    if (!subscription) return undefined;
    // Events are not fetched with the caller's token: prove it before the first one is sent.
    try {
      await passthrough.proveToken(token, context.requestId);
      return undefined;
    } catch (error) {
      if (error instanceof AuthRefusal) return error;
      throw error;
    }
  };
  // Passthrough alone has rules that need the operation; other modes add no per-operation hook.
  const operationHooks: Plugin = passthrough
    ? {
        async onExecute({ args, setResultAndStopExecution }) {
          const refusal = await operationRefusal(args, false);
          if (refusal) setResultAndStopExecution({ errors: [refuse(refusal, 'operation')] });
        },
        async onSubscribe({ args, setResultAndStopExecution }) {
          const refusal = await operationRefusal(args, true);
          if (refusal) return setResultAndStopExecution({ errors: [refuse(refusal, 'subscription')] });
          const { caller, requestId } = args.contextValue as unknown as CallerContext;
          const token = caller.upstreamToken;
          if (!token) return undefined;
          // The token was proven at the start; an expired or revoked one must not keep receiving events.
          return {
            onSubscribeResult: ({ result, setResult }) => {
              if (!isAsyncIterable(result)) return;
              setResult(
                whileAccepted(
                  result,
                  () => passthrough.proveToken(token, requestId),
                  (r) => refuse(r, 'subscription'),
                ),
              );
            },
          };
        },
      }
    : {};
  return {
    ...operationHooks,
    async onRequestParse({ request }) {
      try {
        identities.set(request, await authenticator.authenticate(presentedInHeaders(request.headers)));
      } catch (error) {
        throw error instanceof AuthRefusal ? refuse(error, 'http') : error;
      }
    },
  };
}
