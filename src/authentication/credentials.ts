/**
 * What a caller presented, read from headers (HTTP, SSE) or graphql-ws connectionParams. API keys
 * travel in `x-api-key` only, JWTs and upstream tokens in `Authorization: Bearer`: one header per
 * kind of credential, so a request is never ambiguous about which one it meant.
 */

export const API_KEY_HEADER = 'x-api-key';

export type Presented =
  | { kind: 'none' }
  | { kind: 'bearer'; token: string }
  | { kind: 'api-key'; key: string }
  /** An Authorization header that is not `Bearer <token>` (e.g. Basic, or an empty bearer). */
  | { kind: 'malformed' }
  /** Both an API key and a bearer token: refused rather than guessing which one counts. */
  | { kind: 'both' };

/** `Authorization: Bearer <token>` → the token. */
export function bearerToken(header: string | null | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/** Reads the two credential headers, whatever carries them. */
export function presentedCredential(authorization: string | null | undefined, apiKey: string | null | undefined): Presented {
  const hasAuthorization = Boolean(authorization?.trim());
  const key = apiKey?.trim() || undefined;
  const token = bearerToken(authorization);
  if (hasAuthorization && key) return { kind: 'both' };
  if (key) return { kind: 'api-key', key };
  if (token) return { kind: 'bearer', token };
  return hasAuthorization ? { kind: 'malformed' } : { kind: 'none' };
}

/** From a fetch Request's headers. */
export function presentedInHeaders(headers: Headers): Presented {
  return presentedCredential(headers.get('authorization'), headers.get(API_KEY_HEADER));
}

/**
 * From graphql-ws connection_init: browsers cannot set WebSocket headers, so the credential comes in
 * connectionParams (`authorization`, `x-api-key`); non-browser clients may use upgrade headers.
 */
export function presentedOnSocket(
  params: Record<string, unknown> | undefined,
  upgradeHeaders: Record<string, string | string[] | undefined>,
): Presented {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const fromParams = presentedCredential(text(params?.authorization ?? params?.Authorization), text(params?.[API_KEY_HEADER]));
  if (fromParams.kind !== 'none') return fromParams;
  return presentedCredential(text(upgradeHeaders.authorization), text(upgradeHeaders[API_KEY_HEADER]));
}
