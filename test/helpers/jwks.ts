import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';

/**
 * A local identity provider for tests: a JWKS served over HTTP with one RS256 key, and a signer for
 * JWTs with that key (or a stranger's key, to forge one).
 */

export const JWT_ISSUER = 'https://idp.test';
export const JWT_AUDIENCE = 'banking-gateway';
const KID = 'test-key-1';

interface SignOptions {
  issuer?: string;
  audience?: string;
  subject?: string | undefined;
  /** Seconds from now; negative = already expired. */
  expiresIn?: number;
  /** Sign with a key the JWKS does not hold, under the JWKS's kid (a forgery). */
  foreignKey?: boolean;
}

export interface Jwks {
  url: string;
  /** GET requests the JWKS endpoint answered. */
  fetches: number;
  sign(options?: SignOptions, claims?: JWTPayload): Promise<string>;
  close(): Promise<void>;
}

export async function startJwks(): Promise<Jwks> {
  const own = await generateKeyPair('RS256');
  const foreign = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(own.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
  const state = { fetches: 0 };
  const server: Server = createServer((_req, res) => {
    state.fetches += 1;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    get fetches() {
      return state.fetches;
    },
    sign: (options = {}, claims = {}) => signWith(options.foreignKey ? foreign.privateKey : own.privateKey, options, claims),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function signWith(key: CryptoKey, options: SignOptions, claims: JWTPayload): Promise<string> {
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: KID })
    .setIssuer(options.issuer ?? JWT_ISSUER)
    .setAudience(options.audience ?? JWT_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + (options.expiresIn ?? 300));
  if (options.subject !== undefined || !('subject' in options)) jwt.setSubject(options.subject ?? 'svc-reporting');
  return jwt.sign(key);
}

/** An unsigned JWT (`alg: none`) with otherwise valid claims. */
export function unsignedJwt(subject = 'svc-reporting'): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ iss: JWT_ISSUER, aud: JWT_AUDIENCE, sub: subject, iat: now, exp: now + 300 })}.`;
}
