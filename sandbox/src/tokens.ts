import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { SandboxClock } from './clock.ts';

interface IssuedToken {
  token: string;
  /** Unix epoch seconds. */
  expiresAt: number;
}

/**
 * JWT-form bearer tokens (HS256, base64url header.payload.signature) signed with a secret
 * that lives and dies with the sandbox. Expiry is judged by the sandbox clock, so
 * advancing the clock expires tokens. Issued tokens are remembered, so a reset revokes
 * every token handed out before it.
 */
export interface TokenService {
  issue(subject: string): IssuedToken;
  verify(token: string | undefined): boolean;
  revokeAll(): void;
}

interface Claims {
  sub: string;
  iat: number;
  exp: number;
  jti: string;
}

export function createTokenService(clock: SandboxClock, ttlSeconds: number): TokenService {
  const secret = randomBytes(32);
  // Every token the sandbox accepts is one it issued, so a verify is a lookup of the exact text:
  // a forged or altered token is simply absent. Checking the HMAC on each of thousands of calls a
  // second cost more of the sandbox's thread than any handler; it is computed once, on issue.
  const issued = new Map<string, Claims>();
  const sign = (data: string): string => createHmac('sha256', secret).update(data).digest('base64url');
  const nowSeconds = (): number => Math.floor(clock.now().getTime() / 1000);

  return {
    issue(subject) {
      const iat = nowSeconds();
      const claims: Claims = { sub: subject, iat, exp: iat + ttlSeconds, jti: randomUUID() };
      const data = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}`;
      const token = `${data}.${sign(data)}`;
      dropExpired(issued, iat);
      issued.set(token, claims);
      return { token, expiresAt: claims.exp };
    },
    verify(token) {
      const claims = token === undefined ? undefined : issued.get(token);
      return claims !== undefined && nowSeconds() < claims.exp;
    },
    revokeAll() {
      issued.clear();
    },
  };
}

/**
 * Forgets tokens past their expiry, so the map holds live ones. Tokens are kept in the order they
 * were issued with one lifetime, and the clock only moves forward, so the expired ones are first.
 */
function dropExpired(issued: Map<string, Claims>, nowSeconds: number): void {
  for (const [token, claims] of issued) {
    if (claims.exp > nowSeconds) return;
    issued.delete(token);
  }
}

function encode(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
