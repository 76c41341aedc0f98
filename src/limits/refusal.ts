import { GraphQLError } from 'graphql';

/**
 * Codes of the refusals made before execution. Each is a GraphQL error with `extensions.code`, so
 * a client can tell "ask for less" from "you are not allowed"; when each is answered, with which
 * HTTP status and extensions: docs/errors.md. Any other invalid document, introspection while it
 * is off included, gets Yoga's GRAPHQL_VALIDATION_FAILED.
 */
export type RefusalCode =
  | 'QUERY_TOO_COMPLEX'
  | 'OPERATION_TOO_EXPENSIVE'
  | 'BAD_USER_INPUT'
  | 'PERSISTED_QUERY_NOT_IN_LIST'
  | 'PERSISTED_QUERY_ONLY'
  | 'PERSISTED_QUERY_ID_REQUIRED'
  | 'REQUEST_ENTITY_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'SERVER_BUSY'
  | 'SUBSCRIPTION_LIMIT'
  | 'ROUTER_ONLY';

/** The limit a QUERY_TOO_COMPLEX refusal is about. */
export type LimitName = 'depth' | 'cost' | 'aliases' | 'directives' | 'tokens';

/** What to do about each limit: the whole message in production, where the numbers are not told. */
export const LIMIT_HINTS: Record<LimitName, string> = {
  depth: 'use fewer levels of nesting.',
  cost: 'ask for fewer items, fewer fields or fewer nested lists.',
  aliases: 'use fewer aliases.',
  directives: 'use fewer directives.',
  tokens: 'send a shorter document.',
};

/** How HTTP answers a refusal; Yoga reads it from `extensions.http` and leaves it out of the body. */
export interface RefusalHttp {
  status: number;
  headers?: Record<string, string>;
}

export function refusal(
  code: RefusalCode,
  message: string,
  extensions: Record<string, unknown> = {},
  http: RefusalHttp = { status: 400 },
): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...extensions, http } });
}

/**
 * A refusal to try again later: Retry-After in whole seconds (at least 1) on the HTTP answer, and the
 * same as `retryAfterSeconds` in the extensions, for a client over graphql-ws or SSE, which has no
 * status. `message` is given the seconds to say them.
 */
export function retryLater(
  code: RefusalCode,
  retryAfterMs: number,
  message: (retryAfterSeconds: number) => string,
  extensions: Record<string, unknown> = {},
  status = 429,
): GraphQLError {
  const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return refusal(
    code,
    message(retryAfterSeconds),
    { retryAfterSeconds, ...extensions },
    { status, headers: { 'Retry-After': String(retryAfterSeconds) } },
  );
}

/**
 * graphql-armor words its messages as "Syntax Error: <limit message>" whatever the limit; the prefix
 * would send a client looking for a typo, so it goes.
 */
export function tooComplex(limit: LimitName, armorMessage: string): GraphQLError {
  const detail = armorMessage.replace(/^Syntax Error: /, '');
  return refusal('QUERY_TOO_COMPLEX', `The operation is too complex (${limit}): ${detail}`, { limit });
}
