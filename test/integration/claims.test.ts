import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql } from '../helpers/http.ts';
import { useJwtKit } from '../helpers/jwt-kit.ts';
import { startKit, type Kit } from '../helpers/kit.ts';

/**
 * A JWT's claims fail closed: a cardholder claim that is there but is not one cardholder id refuses
 * the caller at the door (it never lifts the cap), roles come only from the role claims, and a
 * role named in `scope`/`scp` grants nothing unless the operator opts in.
 */

// These tests count the bank calls of a refusal: the record cache stays off.
const { kit, bearer, jwtConfig } = useJwtKit({ cache: false, listen: true });

const ME = '{ me { roles permissions mutations cardholderUpstreamId } }';
const OPEN_ACCOUNT =
  'mutation { accountCreate(input: {country: "SG", currency: "SGD", requiredFeatures: [{currency: "SGD", transferMethod: LOCAL}]}) { __typename ... on Forbidden { permission } } }';

describe('a cardholder claim that is not one cardholder id', () => {
  const malformed: [string, unknown][] = [
    ['a trailing space', 'chd_demo_ava '],
    ['a number', 42],
    ['an array', ['chd_demo_ava']],
    ['a path', 'chd_demo_ava/x'],
    ['an empty string', ''],
    ['null', null],
  ];

  it.each(malformed)('refuses the caller with 401 naming the claim (%s), before any bank call', async (_what, value) => {
    await kit.resetCounts();
    const answer = await postGraphql(
      `${kit.baseUrl}/graphql`,
      { query: `${ME.slice(0, -1)} balances { currency } }` },
      await bearer('ava-phone', { roles: ['admin', 'cardholder'], cardholder_id: value }),
    );
    expect(answer.status).toBe(401);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors).toEqual([
      {
        message: 'The JWT was refused: its cardholder_id claim must be one cardholder id, a string of 1 to 128 letters, digits, . _ ~ or -',
        extensions: { code: 'UNAUTHENTICATED' },
      },
    ]);
    expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(kit.calls()).toEqual([]);
  });

  it('binds the caller when the claim is one id, and leaves it unbound when the claim is absent', async () => {
    const bound = await postGraphql(
      `${kit.baseUrl}/graphql`,
      { query: ME },
      await bearer('ava-phone', { roles: ['cardholder'], cardholder_id: 'chd_demo_ava' }),
    );
    expect(bound.body.data.me.cardholderUpstreamId).toBe('chd_demo_ava');
    const unbound = await postGraphql(`${kit.baseUrl}/graphql`, { query: ME }, await bearer('ops', { roles: ['viewer'] }));
    expect(unbound.body.data.me).toMatchObject({ roles: ['viewer'], cardholderUpstreamId: null });
  });
});

describe('roles come from the role claims only', () => {
  it.each([['admin'], ['accounts:read admin']])(
    'scope "%s" grants no role: admin\u2019s mutations are Forbidden, with no bank call',
    async (scope) => {
      const headers = await bearer('oauth-client', { scope, scp: ['admin'] });
      const me = await postGraphql(`${kit.baseUrl}/graphql`, { query: ME }, headers);
      expect(me.body.data.me.roles).toEqual([]);
      expect(me.body.data.me.permissions).toEqual(scope.includes('accounts:read') ? ['accounts:read'] : []);
      await kit.resetCounts();
      const open = await postGraphql(`${kit.baseUrl}/graphql`, { query: OPEN_ACCOUNT }, headers);
      expect(open.body.data).toEqual({ accountCreate: { __typename: 'Forbidden', permission: 'accounts:write' } });
      expect(kit.calls()).toEqual([]);
    },
  );

  it('grants the permissions scope names, and lists them as the caller\u2019s, with no role', async () => {
    const me = await postGraphql(
      `${kit.baseUrl}/graphql`,
      { query: ME },
      await bearer('reporting', { scope: 'payouts:write accounts:read' }),
    );
    expect(me.body.data.me).toMatchObject({ roles: [], permissions: ['accounts:read', 'payouts:read', 'payouts:write'] });
  });

  it('grants a role named in the roles claim', async () => {
    const me = await postGraphql(`${kit.baseUrl}/graphql`, { query: ME }, await bearer('ops-admin', { roles: ['admin'] }));
    expect(me.body.data.me.roles).toEqual(['admin']);
    expect(me.body.data.me.mutations).toContain('accountCreate');
  });
});

describe('with JWT_PERMISSION_CLAIMS_GRANT_ROLES=true', () => {
  let optedIn: Kit;
  beforeAll(async () => {
    optedIn = await startKit({
      cache: false,
      listen: true,
      auth: { mode: 'service', apiKeys: [], jwt: { ...jwtConfig(), permissionClaimsGrantRoles: true }, allowedOrigins: [] },
    });
  });
  afterAll(() => optedIn?.close());

  it('a role named in scope grants it', async () => {
    const headers = await bearer('oauth-client', { scope: 'accounts:read admin' });
    const me = await postGraphql(`${optedIn.baseUrl}/graphql`, { query: ME }, headers);
    expect(me.body.data.me.roles).toEqual(['admin']);
    const open = await postGraphql(`${optedIn.baseUrl}/graphql`, { query: OPEN_ACCOUNT }, headers);
    expect(open.body.data.accountCreate.__typename).toBe('AccountCreateSuccess');
  });
});

describe('a caller bound to a cardholder', () => {
  it('reports the roles it acts with: the cardholder role only, however many it claims', async () => {
    const me = await postGraphql(
      `${kit.baseUrl}/graphql`,
      { query: ME },
      await bearer('ava-phone', { roles: ['admin', 'cardholder'], cardholder_id: 'chd_demo_ava' }),
    );
    expect(me.body.data.me).toEqual({
      roles: ['cardholder'],
      permissions: ['cards:read', 'cards:control', 'cardholders:read', 'wallets:read'],
      mutations: ['cardActivate', 'cardPinReset', 'cardUpdate'],
      cardholderUpstreamId: 'chd_demo_ava',
    });
  });

  it('is audited with those roles', async () => {
    await kit.resetCounts();
    const open = await postGraphql(
      `${kit.baseUrl}/graphql`,
      { query: OPEN_ACCOUNT },
      await bearer('ava-phone', { roles: ['admin', 'cardholder'], cardholder_id: 'chd_demo_ava' }),
    );
    expect(open.body.data).toEqual({ accountCreate: { __typename: 'Forbidden', permission: 'accounts:write' } });
    expect(kit.audit()).toEqual([expect.objectContaining({ field: 'accountCreate', roles: ['cardholder'], cardholder: 'chd_demo_ava' })]);
  });
});
