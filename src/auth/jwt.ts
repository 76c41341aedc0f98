import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { LRUCache } from 'lru-cache';
import { accessOf, DEFAULT_JWT_ACCESS_CLAIMS, DEFAULT_JWT_CARDHOLDER_CLAIM, grantsFromValues, type Access } from '../permissions.ts';
import { sha256Hex } from './api-keys.ts';
import { AuthRefusal } from './refusal.ts';

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
  /** The claims whose values name roles or permissions. */
  accessClaims?: string[] | undefined;
  /** The claim that binds the caller to one cardholder. */
  cardholderClaim?: string | undefined;
}


/** A verified caller: the JWT's subject and what its claims let it do. */
interface JwtCaller {
  subject: string;
  access: Access;
  /** Claim values that name no role or permission of this gateway (ignored). */
  unknown: string[];
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
  const verified = new LRUCache<string, JwtCaller>({ max: 10_000, ttlAutopurge: false, ttlResolution: 0, perf: { now } });
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
      const { payload } = await jwtVerify(token, keys, {
        issuer: settings.issuer,
        audience: settings.audience,
        algorithms: JWT_ALGORITHMS,
        clockTolerance: JWT_CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp', 'sub'],
      });
      const subject = payload.sub;
      if (!subject || subject.length > 200) throw new AuthRefusal('invalid', 'The JWT has no usable sub claim (1-200 characters)');
      return { caller: { subject, ...accessFromClaims(payload, settings) }, expiresAt: (payload.exp ?? 0) * 1000 };
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
  return createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 5_000, cooldownDuration: 30_000, cacheMaxAge: 600_000 });
}

/** jose's failures, told apart: the token's fault (401) or the JWKS's (503). */
function refusalFor(error: unknown): AuthRefusal {
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
  return new AuthRefusal('unavailable', 'JWTs cannot be checked right now: the identity provider\u2019s JWKS is unreachable', { cause: error });
}

function claimProblem(error: InstanceType<typeof errors.JWTClaimValidationFailed>): string {
  if (error.claim === 'iss') return 'its issuer (iss) is not the accepted one';
  if (error.claim === 'aud') return 'its audience (aud) is not this gateway';
  if (error.claim === 'nbf') return 'it is not valid yet (nbf)';
  if (error.reason === 'missing') return `it has no ${error.claim} claim`;
  return `its ${error.claim} claim is not acceptable`;
}

/**
 * What the claims grant: every value of the access claims (a space-separated string, as OAuth's
 * `scope`, or an array, as `scp` and `roles`) that names a role or a permission, and the cardholder
 * a caller is bound to. A cardholder claim that is not a plain id binds nothing and grants nothing
 * of the cardholder role.
 */
function accessFromClaims(payload: JWTPayload, settings: JwtSettings): Omit<JwtCaller, 'subject'> {
  const values = (settings.accessClaims ?? DEFAULT_JWT_ACCESS_CLAIMS).flatMap((claim) => claimValues(payload[claim]));
  const { roles, permissions, unknown } = grantsFromValues(values);
  const bound = payload[settings.cardholderClaim ?? DEFAULT_JWT_CARDHOLDER_CLAIM];
  const cardholderId = typeof bound === 'string' && /^[A-Za-z0-9._~-]{1,128}$/.test(bound) ? bound : null;
  return { access: accessOf({ roles, permissions, cardholderId }), unknown };
}

function claimValues(claim: unknown): string[] {
  if (typeof claim === 'string') return claim.split(' ').filter(Boolean);
  if (Array.isArray(claim)) return claim.filter((value): value is string => typeof value === 'string');
  return [];
}
