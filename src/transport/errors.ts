import { GraphQLError, type ExecutionResult, type FormattedExecutionResult } from 'graphql';
import { PothosValidationError } from '@pothos/core';
import { InputValidationError } from '@pothos/plugin-validation';
import { maskError as yogaMaskError, type Plugin } from 'graphql-yoga';
import { CursorExpiredError, EventLogUnavailableError, InvalidCursorError, SubscriberFellBehindError } from '../events/errors.ts';
import { createThrottledLog, type Logger } from '../platform/logger.ts';
import { PermissionDeniedError } from '../authorization/permissions.ts';
import {
  contractWhere,
  InvalidBankIdError,
  LinkedRecordNotFoundError,
  NoCredentialsError,
  ProgramNotSupportedError,
  UpstreamAuthError,
  UpstreamContractError,
  UpstreamError,
  UpstreamHttpError,
  UpstreamNetworkError,
  UpstreamNotFoundError,
  UpstreamRateLimitError,
  UpstreamServerError,
  UpstreamUnavailableError,
} from '../upstream/errors.ts';

/**
 * How failures reach GraphQL clients: every known failure becomes a GraphQL error with an
 * `extensions.code`; anything else is masked (logged here, "Unexpected error." to the client). The
 * codes, their extensions and when each is answered: docs/errors.md, which
 * test/static/errors-doc.test.ts holds to the code. Refusals before execution set their own codes
 * where they are made (in limits/ and authentication/; SHUTTING_DOWN in transport/server.ts).
 *
 * Nothing about the bank's side leaks: no upstream address, path, header or body. What stays is the
 * call's x-request-id (`upstreamRequestId`, for support to find the call in the logs, which do carry
 * the endpoint) and the bank's own message for a refusal (card numbers in it are masked).
 */
export function describeError(error: unknown): { message: string; extensions: Record<string, unknown> } | undefined {
  if (error instanceof NoCredentialsError) return { message: error.message, extensions: { code: 'UNAUTHENTICATED' } };
  if (error instanceof PermissionDeniedError)
    return { message: error.message, extensions: { code: 'FORBIDDEN', permission: error.permission } };
  if (error instanceof InputValidationError) {
    return {
      message: error.message,
      extensions: {
        code: 'BAD_USER_INPUT',
        issues: error.issues.map((issue) => ({
          path: issue.path?.map((p) => String(typeof p === 'object' ? p.key : p)) ?? [],
          message: issue.message,
        })),
      },
    };
  }
  if (error instanceof PothosValidationError) return { message: error.message, extensions: { code: 'BAD_USER_INPUT' } };
  if (error instanceof InvalidBankIdError) {
    return {
      message: error.message,
      extensions: { code: 'BAD_USER_INPUT', issues: [{ path: [error.parameter], message: error.message }] },
    };
  }
  if (error instanceof LinkedRecordNotFoundError) {
    return { message: error.message, extensions: { code: 'NOT_FOUND', type: error.typename, upstreamId: error.upstreamId } };
  }
  return error instanceof UpstreamError ? describeUpstreamError(error) : describeEventError(error);
}

function describeEventError(error: unknown): { message: string; extensions: Record<string, unknown> } | undefined {
  if (error instanceof InvalidCursorError) return { message: error.message, extensions: { code: 'BAD_USER_INPUT', argument: 'after' } };
  if (error instanceof CursorExpiredError)
    return { message: error.message, extensions: { code: 'CURSOR_EXPIRED', oldestCursor: error.oldestCursor } };
  if (error instanceof EventLogUnavailableError) return { message: error.message, extensions: { code: 'EVENT_LOG_UNAVAILABLE' } };
  if (error instanceof SubscriberFellBehindError)
    return { message: error.message, extensions: { code: 'SUBSCRIBER_FELL_BEHIND', resumeAfter: error.resumeAfter } };
  return undefined;
}

function describeUpstreamError(error: UpstreamError): { message: string; extensions: Record<string, unknown> } | undefined {
  const trace = { upstreamRequestId: error.requestId };
  const unavailable = describeUnavailable(error);
  if (unavailable)
    return { message: unavailable.message, extensions: { code: 'UPSTREAM_UNAVAILABLE', ...unavailable.extensions, ...trace } };
  if (error instanceof UpstreamContractError) {
    const message = `The bank's answer breaks its documented contract${contractWhere(error.issues)}`;
    return { message, extensions: { code: 'UPSTREAM_CONTRACT_ERROR', ...trace, issues: error.issues } };
  }
  if (error instanceof ProgramNotSupportedError) {
    return {
      message: error.message,
      extensions: { code: 'PROGRAM_NOT_SUPPORTED', program: error.program, upstreamStatus: error.status, ...trace },
    };
  }
  if (error instanceof UpstreamHttpError) {
    const code =
      error instanceof UpstreamAuthError ? 'UNAUTHENTICATED' : error instanceof UpstreamNotFoundError ? 'NOT_FOUND' : 'UPSTREAM_ERROR';
    return { message: error.message, extensions: { code, upstreamStatus: error.status, upstreamMessage: error.upstreamMessage, ...trace } };
  }
  return undefined;
}

/** The ways the bank can fail to give a usable answer, in words for the caller. */
function describeUnavailable(error: UpstreamError): { message: string; extensions: Record<string, unknown> } | undefined {
  if (error instanceof UpstreamUnavailableError) {
    return { message: error.message, extensions: { reason: error.reason, retryAfterSeconds: error.retryAfterSeconds } };
  }
  if (error instanceof UpstreamServerError) {
    return {
      message: `The bank is not answering: it failed with HTTP ${error.status}`,
      extensions: { reason: 'SERVER_ERROR', upstreamStatus: error.status },
    };
  }
  if (error instanceof UpstreamRateLimitError) {
    const retryAfterSeconds = error.retryAfterMs === undefined ? undefined : Math.ceil(error.retryAfterMs / 1000);
    return {
      message: 'The bank is rate-limiting the gateway: try again shortly',
      extensions: { reason: 'RATE_LIMITED', upstreamStatus: error.status, retryAfterSeconds },
    };
  }
  if (error instanceof UpstreamNetworkError) {
    // undici's own message is never shown: it names the bank's host and port.
    return error.timedOut
      ? { message: 'The bank is not answering: no answer in time', extensions: { reason: 'TIMEOUT' } }
      : { message: 'The bank is not answering: the connection failed', extensions: { reason: 'NETWORK' } };
  }
  return undefined;
}

/** Codes of the errors that are the caller's own mistake: logged within bounds, without a stack, and counted. */
const CLIENT_MISTAKES = new Set(['BAD_USER_INPUT', 'FORBIDDEN', 'CURSOR_EXPIRED', 'UNAUTHENTICATED']);

/**
 * Yoga's maskError. The known failures become their coded errors: a caller's mistake (a bad cursor,
 * a forbidden field) is logged at info, a kind at a time within bounds (createThrottledLog), with no
 * stack, and counted (`clientError`); the bank's failures were logged where the call failed. Anything
 * else is masked and logged with its stack.
 */
export function createMaskError(logger: Logger, clientError?: (code: string) => void) {
  const mistakes = createThrottledLog(logger);
  return (error: unknown, message: string, isDev?: boolean): Error => {
    const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
    const described = describeError(original);
    if (described) {
      const located = error instanceof GraphQLError ? error : undefined;
      const code = String(described.extensions.code);
      if (CLIENT_MISTAKES.has(code)) {
        clientError?.(code);
        mistakes(`${code}\n${described.message}`, 'info', { code, reason: described.message, path: located?.path }, "a caller's mistake");
      }
      return new GraphQLError(described.message, {
        nodes: located?.nodes,
        source: located?.source,
        positions: located?.positions,
        path: located?.path,
        extensions: described.extensions,
      });
    }
    // Request-level errors (syntax, validation, variable coercion) carry no path and say nothing secret.
    if (error instanceof GraphQLError && error.path === undefined) return error;
    logger.error({ err: original }, 'unexpected error while resolving');
    return yogaMaskError(error, message, isDev);
  };
}

/**
 * The logger Yoga is given. Yoga logs at error, with its stack, every error maskError changed; the
 * mask has already decided how each deserves to be logged (above), so here an Error is logged again
 * only at debug. Anything else Yoga reports goes through as it is.
 */
export function yogaLogging(logger: Logger): Pick<Logger, 'debug' | 'info' | 'warn' | 'error'> {
  const logError: (...args: unknown[]) => void = logger.error.bind(logger);
  return {
    debug: logger.debug.bind(logger),
    info: logger.info.bind(logger),
    warn: logger.warn.bind(logger),
    error: (first: unknown, ...rest: unknown[]) =>
      first instanceof Error
        ? logger.debug({ reason: first.message }, 'an error answered to a caller, logged where it was masked')
        : logError(first, ...rest),
  };
}

/**
 * Yoga answers two refusals with an empty body: 415 when no parser takes the request's
 * content-type, 406 when nothing the client accepts can carry the answer. Every failure a client
 * sees has a code and a message saying what to send instead, so those get one. (An Accept that
 * allows no answer at all is refused before anything runs: incremental-delivery.ts.)
 */
export function useCodedEmptyRefusals(): Plugin {
  return {
    onResponse({ request, response, setResponse }) {
      if ((response.status !== 415 && response.status !== 406) || response.body !== null) return;
      const error =
        response.status === 415
          ? {
              message: `A GraphQL request's body is JSON: send content-type: application/json (got ${request.headers.get('content-type') ?? 'none'}).`,
              extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' },
            }
          : {
              message: `The answer can be sent as ${response.headers.get('accept') ?? 'application/json'}, none of which Accept: ${request.headers.get('accept') ?? 'none'} allows.`,
              extensions: { code: 'NOT_ACCEPTABLE' },
            };
      const headers = new Headers(response.headers);
      headers.set('content-type', 'application/json; charset=utf-8');
      setResponse(new Response(JSON.stringify({ errors: [error] }), { status: response.status, headers }));
    },
  };
}

/**
 * A result without its errors' `extensions.http` (the status and headers a refusal gives on HTTP,
 * which Yoga leaves out of an HTTP body): a socket or an event stream has no status to give, and
 * the extensions say the rest. Undefined when no error has one.
 */
export function withoutHttp(result: ExecutionResult): FormattedExecutionResult | undefined {
  if (!result.errors?.some((error) => error.extensions?.http !== undefined)) return undefined;
  return {
    ...result,
    errors: result.errors.map((error) => {
      const { http: _http, ...extensions } = error.extensions ?? {};
      return { ...(typeof error.toJSON === 'function' ? error.toJSON() : error), extensions };
    }),
  };
}
