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
 * Who an operation is for when clients take turns for the bank's slots (src/upstream/fair-queue.ts):
 * the API key's name, the JWT subject, or the bank user behind a caller's own token. Kept in memory
 * only, never logged.
 */
export function fairShareKey(caller: CallerIdentity): string {
  return caller.upstreamToken === undefined ? `${caller.kind}:${caller.name}` : `bank-token:${caller.upstreamToken}`;
}
