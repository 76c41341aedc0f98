import type { errors, JWTPayload, JWTVerifyGetKey } from 'jose';
import { LRUCache } from 'lru-cache';
import { entryBound } from '../platform/lru-bounds.ts';
import { onFirstUse } from '../platform/on-first-use.ts';
import {
  accessOf,
  CARDHOLDER_ID_RULE,
  DEFAULT_JWT_CARDHOLDER_CLAIM,
  DEFAULT_JWT_PERMISSION_CLAIMS,
  DEFAULT_JWT_ROLE_CLAIMS,
  grantsFromValues,
  isCardholderId,
  type Access,
} from '../authorization/permissions.ts';
import { sha256Hex } from './api-keys.ts';
import { AuthRefusal } from './refusal.ts';

/**
 * jose, loaded when a JWT is first read or a JWKS set up: only JWT callers (JWT_JWKS_URL) and
 * callers with a bank token need it, and once loaded its heap is held for the life of the process.
 */
export const jose = onFirstUse<typeof import('jose')>('jose');

/**
 * JWTs of an identity provider: signed by a key of its JWKS, with its issuer and our audience.
 * Asymmetric algorithms only (a shared-secret HS256 token could be minted by anyone holding the
 * secret; `none` is never accepted), `exp` and `sub` required, 30 seconds of clock skew tolerated.
 */
const JWT_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'];
const JWT_CLOCK_TOLERANCE_SECONDS = 30;

export interface JwtSettings {
  jwksUrl: string;
  issuer: string;
  audience: string;
  /** The claims whose values name roles (or permissions): the only claims a role comes from. */
  roleClaims?: string[] | undefined;
  /** The claims whose values name permissions (OAuth's `scope`, `scp`). */
  permissionClaims?: string[] | undefined;
  /** Whether a role named in a permission claim grants it; otherwise it is ignored. */
  permissionClaimsGrantRoles?: boolean | undefined;
  /** The claim that binds the caller to one cardholder. */
  cardholderClaim?: string | undefined;
}

/**
 * A claim value that granted nothing: it names no role or permission of this gateway, or it names
 * a role in a permission claim, which grants none unless the operator opted in.
 */
export interface IgnoredClaimValue {
  value: string;
  why: 'unknown' | 'role-in-permission-claim';
}

/** A verified caller: the JWT's subject and what its claims let it do. */
interface JwtCaller {
  subject: string;
  access: Access;
  ignored: IgnoredClaimValue[];
  /** Its `exp`, epoch ms: what ends a live query made with it (live/engine.ts). */
  expiresAt: number;
}

export type JwtVerifier = (token: string) => Promise<JwtCaller>;

/**
 * A verified token is remembered, by its hash, for at most VERIFIED_TTL_MS (never past its `exp`):
 * a frontend sends the same JWT with every request, and verifying its signature again costs about as
 * much CPU as everything else authorization does for a screen. A key dropped from the JWKS stops
 * being trusted within that bound (jose keeps the key set 10 minutes anyway); a refusal is not kept.
 */
export const VERIFIED_TTL_MS = 60_000;

export function createJwtVerifier(settings: JwtSettings, options: { now?: () => number; keys?: JWTVerifyGetKey } = {}): JwtVerifier {
  const now = options.now ?? Date.now;
  const keys = options.keys ?? remoteKeys(settings.jwksUrl);
  const verified = new LRUCache<string, JwtCaller>({ ...entryBound(10_000), ttlAutopurge: false, ttlResolution: 0, perf: { now } });
  const verify = verifier(settings, keys);
  return async (token) => {
    const key = sha256Hex(token);
    const known = verified.get(key);
    if (known) return known;
    const { caller, expiresAt } = await verify(token);
    const ttl = Math.min(VERIFIED_TTL_MS, expiresAt - now());
    if (ttl > 0) verified.set(key, caller, { ttl });
    return caller;
  };
}

function verifier(settings: JwtSettings, keys: JWTVerifyGetKey): (token: string) => Promise<{ caller: JwtCaller; expiresAt: number }> {
  return async (token) => {
    try {
      const { payload } = await jose().jwtVerify(token, keys, {
        issuer: settings.issuer,
        audience: settings.audience,
        algorithms: JWT_ALGORITHMS,
        clockTolerance: JWT_CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp', 'sub'],
      });
      const subject = payload.sub;
      if (!subject || subject.length > 200) throw new AuthRefusal('invalid', 'The JWT has no usable sub claim (1-200 characters)');
      const expiresAt = (payload.exp ?? 0) * 1000;
      return { caller: { subject, ...accessFromClaims(payload, settings), expiresAt }, expiresAt };
    } catch (error) {
      throw error instanceof AuthRefusal ? error : refusalFor(error);
    }
  };
}

/**
 * The JWKS is fetched on first use and cached 10 minutes; an unknown `kid` refetches it at most once
 * per 30 seconds (key rotation), and a fetch gives up after 5 seconds.
 */
function remoteKeys(jwksUrl: string): JWTVerifyGetKey {
  return jose().createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 5_000, cooldownDuration: 30_000, cacheMaxAge: 600_000 });
}

/** jose's failures, told apart: the token's fault (401) or the JWKS's (503). */
function refusalFor(error: unknown): AuthRefusal {
  const { errors } = jose();
  const invalid = (why: string) => new AuthRefusal('invalid', `The JWT was refused: ${why}`);
  if (error instanceof errors.JWTExpired) return invalid('it has expired');
  if (error instanceof errors.JWTClaimValidationFailed) return invalid(claimProblem(error));
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return invalid(`its algorithm is not accepted (accepted: ${JWT_ALGORITHMS.join(', ')})`);
  }
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return invalid('no key of the identity provider\u2019s JWKS matches its kid');
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return invalid('its signature does not verify');
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return invalid('it is not a well-formed signed JWT');
  // Timeout, connection refused, a non-200 answer or a malformed key set: not the caller's fault.
  return new AuthRefusal('unavailable', 'JWTs cannot be checked right now: the identity provider\u2019s JWKS is unreachable', {
    cause: error,
  });
}

function claimProblem(error: InstanceType<typeof errors.JWTClaimValidationFailed>): string {
  if (error.claim === 'iss') return 'its issuer (iss) is not the accepted one';
  if (error.claim === 'aud') return 'its audience (aud) is not this gateway';
  if (error.claim === 'nbf') return 'it is not valid yet (nbf)';
  if (error.reason === 'missing') return `it has no ${error.claim} claim`;
  return `its ${error.claim} claim is not acceptable`;
}

/**
 * What the claims grant: every value of the role claims that names a role or a permission, every
 * value of the permission claims that names a permission (a role only with
 * `permissionClaimsGrantRoles`), each claim a space-separated string (OAuth's `scope`) or an array
 * (`scp`, `roles`); and the cardholder the caller is bound to.
 */
function accessFromClaims(payload: JWTPayload, settings: JwtSettings): Omit<JwtCaller, 'subject' | 'expiresAt'> {
  const fromPermissionClaims = grantsFromValues(valuesOf(payload, settings.permissionClaims ?? DEFAULT_JWT_PERMISSION_CLAIMS));
  const fromRoleClaims = grantsFromValues(valuesOf(payload, settings.roleClaims ?? DEFAULT_JWT_ROLE_CLAIMS));
  const grantRoles = settings.permissionClaimsGrantRoles ?? false;
  const cardholderId = boundCardholder(payload, settings.cardholderClaim ?? DEFAULT_JWT_CARDHOLDER_CLAIM);
  const access = accessOf({
    roles: [...(grantRoles ? fromPermissionClaims.roles : []), ...fromRoleClaims.roles],
    permissions: [...fromPermissionClaims.permissions, ...fromRoleClaims.permissions],
    cardholderId,
  });
  const ignored: IgnoredClaimValue[] = [
    ...[...fromPermissionClaims.unknown, ...fromRoleClaims.unknown].map((value) => ({ value, why: 'unknown' as const })),
    ...(grantRoles ? [] : fromPermissionClaims.roles.map((value) => ({ value, why: 'role-in-permission-claim' as const }))),
  ];
  return { access, ignored };
}

function valuesOf(payload: JWTPayload, claims: readonly string[]): string[] {
  return claims.flatMap((claim) => claimValues(payload[claim]));
}

function claimValues(claim: unknown): string[] {
  if (typeof claim === 'string') return claim.split(' ').filter(Boolean);
  if (Array.isArray(claim)) return claim.filter((value): value is string => typeof value === 'string');
  return [];
}

/**
 * The cardholder the claim binds the caller to; none when the claim is absent. A claim that is
 * there but is not one cardholder id (a number, an array, a padded or empty string, null) refuses
 * the caller: read as "not bound", it would lift the cap its identity provider meant to set.
 */
function boundCardholder(payload: JWTPayload, claim: string): string | null {
  if (!Object.hasOwn(payload, claim)) return null;
  const value = payload[claim];
  if (isCardholderId(value)) return value;
  throw new AuthRefusal('invalid', `The JWT was refused: its ${claim} claim must be one cardholder id, ${CARDHOLDER_ID_RULE}`);
}
