import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWTVerifyGetKey } from 'jose';
import { describe, expect, it } from 'vitest';
import { createJwtVerifier, VERIFIED_TTL_MS, type JwtSettings } from './jwt.ts';

/** A verifier whose key lookups are counted: jose asks for the key once per signature it checks. */
async function setup(
  claims: Pick<JwtSettings, 'roleClaims' | 'permissionClaims' | 'permissionClaimsGrantRoles'> = { roleClaims: ['roles'] },
) {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const publicJwk = await importJWK(await exportJWK(publicKey), 'RS256');
  let lookups = 0;
  const keys: JWTVerifyGetKey = async () => {
    lookups += 1;
    return publicJwk;
  };
  let clock = Date.now();
  const verify = createJwtVerifier(
    { jwksUrl: 'https://idp.test/jwks', issuer: 'https://idp.test', audience: 'gw', ...claims },
    { keys, now: () => clock },
  );
  const sign = (claims: Record<string, unknown>, expiresInSeconds: number) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer('https://idp.test')
      .setAudience('gw')
      .setSubject('jane')
      .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
      .sign(privateKey);
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

describe('JWT claims', () => {
  const rolesOf = async (claims: Record<string, unknown>, settings?: Parameters<typeof setup>[0]) => {
    const { verify, sign } = await setup(settings);
    const caller = await verify(await sign(claims, 60));
    return { roles: caller.access.roles, permissions: [...caller.access.permissions].sort(), ignored: caller.ignored };
  };

  it('takes roles from the role claims only: a role in scope or scp is ignored, its permissions kept', async () => {
    expect(await rolesOf({ scope: 'admin fx:read openid', scp: ['treasurer'], roles: ['viewer'] }, {})).toEqual({
      roles: ['viewer'],
      permissions: expect.arrayContaining(['fx:read', 'accounts:read']),
      ignored: [
        { value: 'openid', why: 'unknown' },
        { value: 'admin', why: 'role-in-permission-claim' },
        { value: 'treasurer', why: 'role-in-permission-claim' },
      ],
    });
  });

  it('lets a permission claim grant a role when the operator opts in', async () => {
    const optedIn = await rolesOf({ scope: 'admin' }, { permissionClaimsGrantRoles: true });
    expect(optedIn.roles).toEqual(['admin']);
    expect(optedIn.ignored).toEqual([]);
  });

  it('reads the claims the operator names', async () => {
    const named = await rolesOf(
      { groups: 'bookkeeper', permissions: ['payouts:read'], roles: ['admin'], scope: 'fx:read' },
      { roleClaims: ['groups'], permissionClaims: ['permissions'] },
    );
    expect(named.roles).toEqual(['bookkeeper']);
    expect(named.permissions).toContain('payouts:read');
    expect(named.permissions).not.toContain('webhooks:write');
  });

  it.each([['chd_demo_ava '], [42], [['chd_demo_ava']], ['chd_demo_ava/x'], [''], [null], [{ id: 'chd_demo_ava' }]])(
    'refuses a cardholder claim that is there but is not one cardholder id: %j',
    async (value) => {
      const { verify, sign } = await setup();
      await expect(verify(await sign({ roles: ['admin', 'cardholder'], cardholder_id: value }, 60))).rejects.toMatchObject({
        name: 'AuthRefusal',
        kind: 'invalid',
        message: 'The JWT was refused: its cardholder_id claim must be one cardholder id, a string of 1 to 128 letters, digits, . _ ~ or -',
      });
    },
  );

  it('caps a bound caller at the cardholder role, and reports that role alone', async () => {
    const { verify, sign } = await setup();
    const caller = await verify(await sign({ roles: ['admin', 'cardholder'], cardholder_id: 'chd_demo_ava' }, 60));
    expect(caller.access.roles).toEqual(['cardholder']);
    expect(caller.access.cardholderId).toBe('chd_demo_ava');
  });
});
