import type { GraphQLError } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';

/**
 * Why a caller was not let in. Messages say what was missing or wrong, never echo the credential.
 *
 * - `missing`: no credential (HTTP 401; graphql-ws close 4401 Unauthorized);
 * - `invalid`: a credential that is wrong, expired or not accepted here (HTTP 401 with
 *   `error="invalid_token"`; graphql-ws close 4403 Forbidden, as graphql-ws closes a refused
 *   connection_init);
 * - `unavailable`: the credential could not be checked now (JWKS or bank unreachable): HTTP 503
 *   with Retry-After, graphql-ws close 1013 Try Again Later. The caller did nothing wrong.
 */
export type RefusalKind = 'missing' | 'invalid' | 'unavailable';

export class AuthRefusal extends Error {
  readonly kind: RefusalKind;
  constructor(kind: RefusalKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AuthRefusal';
    this.kind = kind;
  }
}

/** Seconds a caller should wait before retrying when a credential could not be checked. */
const RETRY_AFTER_SECONDS = 5;

const AUTH_UNAVAILABLE = 'AUTH_UNAVAILABLE';

/**
 * The GraphQL error Yoga answers with: extensions.code for clients, extensions.http for the status
 * and headers (Yoga strips `http` from the body). `challenge` is the WWW-Authenticate value.
 */
export function refusalError(refusal: AuthRefusal, challenge: string): GraphQLError {
  if (refusal.kind === 'unavailable') {
    return createGraphQLError(refusal.message, {
      extensions: { code: AUTH_UNAVAILABLE, http: { status: 503, headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } } },
    });
  }
  const header = refusal.kind === 'invalid' ? `${challenge}, error="invalid_token"` : challenge;
  return createGraphQLError(refusal.message, {
    extensions: { code: 'UNAUTHENTICATED', http: { status: 401, headers: { 'WWW-Authenticate': header } } },
  });
}

/** graphql-ws close codes for a refused connection_init. */
export const SOCKET_CLOSE = { missing: 4401, invalid: 4403, unavailable: 1013 } as const satisfies Record<RefusalKind, number>;

/** A close reason must fit in 123 bytes (RFC 6455, 5.5): long messages are cut. */
export function closeReason(message: string): string {
  const limit = 123;
  if (Buffer.byteLength(message) <= limit) return message;
  let cut = message.slice(0, limit - 1);
  while (Buffer.byteLength(`${cut}…`) > limit) cut = cut.slice(0, -1);
  return `${cut}…`;
}
