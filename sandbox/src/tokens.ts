import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { SandboxClock } from './clock.ts';

export interface IssuedToken {
  token: string;
  /** Unix epoch seconds. */
  expiresAt: number;
}

/**
 * JWT-form bearer tokens (HS256, base64url header.payload.signature) signed with a secret
 * that lives and dies with the sandbox. Expiry is judged by the sandbox clock, so
 * advancing the clock expires tokens. Issued token ids are remembered so a reset revokes
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
  const issued = new Set<string>();
  const sign = (data: string): Buffer => createHmac('sha256', secret).update(data).digest();
  const nowSeconds = (): number => Math.floor(clock.now().getTime() / 1000);

  return {
    issue(subject) {
      const iat = nowSeconds();
      const claims: Claims = { sub: subject, iat, exp: iat + ttlSeconds, jti: randomUUID() };
      const data = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}`;
      issued.add(claims.jti);
      return { token: `${data}.${sign(data).toString('base64url')}`, expiresAt: claims.exp };
    },
    verify(token) {
      const parts = token?.split('.');
      if (parts?.length !== 3) return false;
      const [header, payload, signature] = parts as [string, string, string];
      const expected = sign(`${header}.${payload}`);
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
      const claims = decode(payload);
      return claims !== null && issued.has(claims.jti) && nowSeconds() < claims.exp;
    },
    revokeAll() {
      issued.clear();
    },
  };
}

function encode(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function decode(payload: string): Claims | null {
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<Claims>;
    return typeof claims.exp === 'number' && typeof claims.jti === 'string' ? (claims as Claims) : null;
  } catch {
    return null;
  }
}
