import { accessOf, NO_ACCESS, type Access } from '../authorization/permissions.ts';

/**
 * Who is calling: what the gateway knows of a caller once authentication passed. One identity
 * serves everything that asks "who is this": authorization (`access`), the audit trail and the
 * logs (`kind`, `name`), and the limits and fair share per client (fairShareKey).
 */
export interface CallerIdentity {
  /**
   * `anonymous`: no credential (mode none, or passthrough before login); `api-key` and `jwt`: a
   * gateway credential (mode service); `upstream-token`: a caller's own bank token (passthrough,
   * or a bearer sent in mode none).
   */
  kind: 'anonymous' | 'api-key' | 'jwt' | 'upstream-token';
  /**
   * For logs, metrics and the audit trail, never a secret: the API key's name, the JWT subject, the
   * bank user a token was proven to belong to (`bank-token:<hash prefix>` for a token that names
   * none), or `anonymous`.
   */
  name: string;
  /** The caller's bank token, forwarded as is (passthrough, or a bearer sent in mode none). */
  upstreamToken?: string | undefined;
  /**
   * An upstream token the bank has not yet been asked about: its bank user is unknown until the
   * token is proven (authentication/bank-users.ts), which happens before the operation runs.
   */
  unproven?: true | undefined;
  /** What the caller may do. */
  access: Access;
  /** When its credential stops being good, epoch ms (a JWT's `exp`): a live query made with it ends then. */
  expiresAt?: number | undefined;
}

/** No credential: what a mode lets such a caller do is its `access`. */
export function anonymous(access: Access): CallerIdentity {
  return { kind: 'anonymous', name: 'anonymous', access };
}

/** Passthrough before login: the login mutation (and introspection) only. */
export const ANONYMOUS_PASSTHROUGH: CallerIdentity = anonymous(accessOf({ permissions: ['session:create'] }));

/** A bank token as presented, before the bank said whose it is. */
export function unprovenToken(token: string): CallerIdentity {
  return { kind: 'upstream-token', name: 'unproven', upstreamToken: token, unproven: true, access: NO_ACCESS };
}

/**
 * Who an operation is for, for its fair share of the bank (src/upstream/fair-queue.ts) and the
 * operations per window (src/limits/client-rate-limit.ts): the API key's name, the JWT subject,
 * or the bank user a caller's own token was proven to belong to; an anonymous caller (mode none, or
 * passthrough before login) by the remote address it connects from, and so is a token not proven
 * yet. X-Forwarded-For is not read: any caller could write one and take another's share. Kept in
 * memory only (Redis keys hold a hash of it).
 */
export function fairShareKey(caller: CallerIdentity, remoteAddress?: string): string {
  if (caller.kind === 'anonymous' || caller.unproven) return addressKey(remoteAddress);
  return `${caller.kind}:${caller.name}`;
}

/** An anonymous caller's share: the address it connects from. */
export function addressKey(remoteAddress: string | undefined): string {
  return `address:${remoteAddress ?? 'unknown'}`;
}
