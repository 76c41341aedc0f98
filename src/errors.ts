import { GraphQLError } from 'graphql';
import { PothosValidationError } from '@pothos/core';
import { InputValidationError } from '@pothos/plugin-validation';
import { maskError as yogaMaskError } from 'graphql-yoga';
import type { Logger } from './logger.ts';
import {
  NoCredentialsError,
  ProgramNotSupportedError,
  UpstreamAuthError,
  UpstreamContractError,
  UpstreamError,
  UpstreamHttpError,
  UpstreamNetworkError,
  UpstreamNotFoundError,
  UpstreamServerError,
} from './upstream/errors.ts';

/**
 * How failures reach GraphQL clients: every known failure becomes a GraphQL error with an
 * `extensions.code`; anything else is masked (logged here, "Unexpected error." to the client).
 *
 * Codes: UNAUTHENTICATED, NOT_FOUND, BAD_USER_INPUT, UPSTREAM_ERROR (the bank refused),
 * PROGRAM_NOT_SUPPORTED (the client's program does not offer the operation),
 * UPSTREAM_UNAVAILABLE (no answer, 5xx, after retries), UPSTREAM_CONTRACT_ERROR (a payload that does
 * not match the documents), INTERNAL_SERVER_ERROR.
 */
export function describeError(error: unknown): { message: string; extensions: Record<string, unknown> } | undefined {
  if (error instanceof NoCredentialsError) return { message: error.message, extensions: { code: 'UNAUTHENTICATED' } };
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
  if (!(error instanceof UpstreamError)) return undefined;
  const trace = { endpoint: error.endpoint, requestId: error.requestId };
  if (error instanceof UpstreamContractError) {
    return { message: error.message, extensions: { code: 'UPSTREAM_CONTRACT_ERROR', ...trace, issues: error.issues } };
  }
  if (error instanceof UpstreamNetworkError || error instanceof UpstreamServerError) {
    const upstreamStatus = error instanceof UpstreamServerError ? error.status : undefined;
    return { message: `The bank is not answering: ${error.message}`, extensions: { code: 'UPSTREAM_UNAVAILABLE', upstreamStatus, ...trace } };
  }
  if (error instanceof ProgramNotSupportedError) {
    return { message: error.message, extensions: { code: 'PROGRAM_NOT_SUPPORTED', program: error.program, upstreamStatus: error.status, ...trace } };
  }
  if (error instanceof UpstreamHttpError) {
    const code =
      error instanceof UpstreamAuthError ? 'UNAUTHENTICATED' : error instanceof UpstreamNotFoundError ? 'NOT_FOUND' : 'UPSTREAM_ERROR';
    return { message: error.message, extensions: { code, upstreamStatus: error.status, upstreamMessage: error.upstreamMessage, ...trace } };
  }
  return undefined;
}

export function createMaskError(logger: Logger) {
  return (error: unknown, message: string, isDev?: boolean): Error => {
    const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
    const described = describeError(original);
    if (described) {
      const located = error instanceof GraphQLError ? error : undefined;
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
