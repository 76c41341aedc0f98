import { GraphQLError } from 'graphql';

/**
 * Codes of the refusals made before execution. Each is a GraphQL error with `extensions.code`, so
 * a client can tell "ask for less" from "you are not allowed":
 *
 * - QUERY_TOO_COMPLEX: over a limit of depth, cost, aliases, directives or tokens
 *   (`extensions.limit` says which; the numbers only outside production).
 * - BAD_USER_INPUT: an argument over its bound (page size, ids), naming the argument and the rule.
 * - PERSISTED_QUERY_NOT_IN_LIST, PERSISTED_QUERY_ONLY, PERSISTED_QUERY_ID_REQUIRED: trusted documents.
 * - REQUEST_ENTITY_TOO_LARGE (HTTP 413): the body is over limits.maxBodyBytes.
 * - RATE_LIMITED (HTTP 429 with Retry-After): the client's operations per window are spent
 *   (client-limits.ts).
 * - SUBSCRIPTION_LIMIT (HTTP 429): the caller or the connection holds its most open subscriptions
 *   (subscription-limits.ts).
 * - ROUTER_ONLY (HTTP 403): `_entities` or `_service` from anything but the supergraph's router
 *   (router.ts).
 * Any other invalid document, introspection while it is off included, gets Yoga's
 * GRAPHQL_VALIDATION_FAILED. All but the 413 and the 429s answer HTTP 400.
 */
export type RefusalCode =
  | 'QUERY_TOO_COMPLEX'
  | 'BAD_USER_INPUT'
  | 'PERSISTED_QUERY_NOT_IN_LIST'
  | 'PERSISTED_QUERY_ONLY'
  | 'PERSISTED_QUERY_ID_REQUIRED'
  | 'REQUEST_ENTITY_TOO_LARGE'
  | 'RATE_LIMITED'
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
 * graphql-armor words its messages as "Syntax Error: <limit message>" whatever the limit; the prefix
 * would send a client looking for a typo, so it goes.
 */
export function tooComplex(limit: LimitName, armorMessage: string): GraphQLError {
  const detail = armorMessage.replace(/^Syntax Error: /, '');
  return refusal('QUERY_TOO_COMPLEX', `The operation is too complex (${limit}): ${detail}`, { limit });
}
