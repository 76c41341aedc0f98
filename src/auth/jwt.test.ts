import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWTVerifyGetKey } from 'jose';
import { describe, expect, it } from 'vitest';
import { createJwtVerifier, VERIFIED_TTL_MS } from './jwt.ts';

/** A verifier whose key lookups are counted: jose asks for the key once per signature it checks. */
async function setup() {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const publicJwk = await importJWK(await exportJWK(publicKey), 'RS256');
  let lookups = 0;
  const keys: JWTVerifyGetKey = async () => {
    lookups += 1;
    return publicJwk;
  };
  let clock = Date.now();
  const verify = createJwtVerifier({ jwksUrl: 'https://idp.test/jwks', issuer: 'https://idp.test', audience: 'gw', accessClaims: ['roles'] }, { keys, now: () => clock });
  const sign = (claims: Record<string, unknown>, expiresInSeconds: number) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'RS256' }).setIssuer('https://idp.test').setAudience('gw').setSubject('jane').setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds).sign(privateKey);
  return { verify, sign, lookups: () => lookups, advance: (ms: number) => (clock += ms) };
}

describe('JWT verification', () => {
  it('checks a token\u2019s signature once, then trusts it for at most a minute', async () => {
    const { verify, sign, lookups, advance } = await setup();
    const token = await sign({ roles: ['viewer'] }, 3600);
    const first = await verify(token);
    expect(first.subject).toBe('jane');
    expect([...first.access.permissions]).toContain('accounts:read');
    expect(await verify(token)).toBe(first);
    expect(lookups()).toBe(1);
    advance(VERIFIED_TTL_MS + 1);
    await verify(token);
    expect(lookups()).toBe(2);
  });

  it('never trusts a remembered token past its own expiry', async () => {
    const { verify, sign, lookups, advance } = await setup();
    const token = await sign({ roles: ['viewer'] }, 5);
    await verify(token);
    advance(5_001);
    await verify(token);
    expect(lookups()).toBe(2);
  });
});
