/** Who is calling: what the gateway knows of a caller once authentication passed. */
export interface CallerIdentity {
  /**
   * `anonymous`: no credential (mode none, or passthrough before login); `api-key` and `jwt`: a
   * gateway credential (mode service); `upstream-token`: a caller's own bank token (passthrough).
   */
  kind: 'anonymous' | 'api-key' | 'jwt' | 'upstream-token';
  /** For logs and metrics, never a secret: the API key's name, the JWT subject, or `anonymous`. */
  name: string;
  /** The caller's bank token, forwarded as is (passthrough, or a bearer sent in mode none). */
  upstreamToken?: string | undefined;
}

export const ANONYMOUS: CallerIdentity = { kind: 'anonymous', name: 'anonymous' };

/**
 * Who an operation is for, for its fair share of the bank (src/upstream/fair-queue.ts) and the
 * operations per window (src/security/client-rate-limit.ts): the API key's name, the JWT subject,
 * or the bank user behind a caller's own token; an anonymous caller (mode none, or passthrough
 * before login) by the remote address it connects from. X-Forwarded-For is not read: any caller
 * could write one and take another's share. Kept in memory only, never logged (it may hold a token).
 */
export function fairShareKey(caller: CallerIdentity, remoteAddress?: string): string {
  if (caller.upstreamToken !== undefined) return `bank-token:${caller.upstreamToken}`;
  if (caller.kind === 'anonymous') return `address:${remoteAddress ?? 'unknown'}`;
  return `${caller.kind}:${caller.name}`;
}
