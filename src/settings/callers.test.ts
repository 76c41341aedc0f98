/** loadConfig and the caller settings: who may call, with what, and the configurations it refuses. */

import { describe, expect, it } from 'vitest';
import { callerCredentialProblems, loadConfig } from './index.ts';
import { readConfig } from './load.ts';

describe('loadConfig: who may call', () => {
  const REAL = { UPSTREAM_BASE_URL: 'https://bank.example', UPSTREAM_API_KEY: 'k', UPSTREAM_PRODUCT_ID: 'p', UPSTREAM_USER_ID: 'u' };
  const CLIENT = { UPSTREAM_CLIENT_KEY: 'ck', UPSTREAM_CLIENT_SECRET: 'cs', UPSTREAM_EMAIL: 'ops@bank.example' };
  const HASH = 'a'.repeat(64);
  const JWT = { AUTH_MODE: 'service', JWT_JWKS_URL: 'https://idp.example/jwks', JWT_ISSUER: 'i', JWT_AUDIENCE: 'a' };
  /** What loadConfig says is wrong with `env`, every problem at once; none when it loads. */
  const problemsOf = (env: NodeJS.ProcessEnv): string[] => {
    const read = readConfig(env);
    return read.ok ? [] : read.problems;
  };

  it('defaults to mode none with the embedded sandbox, and reads keys, JWT settings and origins', () => {
    // The embedded sandbox lets the example web app's dev server (Vite, port 5173) call it.
    expect(loadConfig({}).auth).toEqual({
      mode: 'none',
      apiKeys: [],
      jwt: undefined,
      passthrough: undefined,
      allowedOrigins: ['http://localhost:5173', 'http://127.0.0.1:5173'],
    });
    const config = loadConfig({
      AUTH_MODE: 'service',
      GATEWAY_API_KEY_HASHES: `reporting:${HASH.toUpperCase()}:viewer, treasury:${'b'.repeat(64)}:bookkeeper+treasurer,ava-phone:${'c'.repeat(64)}:cardholder@chd_demo_ava`,
      JWT_JWKS_URL: 'https://idp.example/.well-known/jwks.json',
      JWT_ISSUER: 'https://idp.example',
      JWT_AUDIENCE: 'gateway',
      ALLOWED_ORIGINS: 'https://app.example/, https://ops.example',
    });
    expect(config.auth).toEqual({
      mode: 'service',
      apiKeys: [
        { name: 'reporting', sha256: HASH, roles: ['viewer'], cardholderId: null },
        { name: 'treasury', sha256: 'b'.repeat(64), roles: ['bookkeeper', 'treasurer'], cardholderId: null },
        { name: 'ava-phone', sha256: 'c'.repeat(64), roles: ['cardholder'], cardholderId: 'chd_demo_ava' },
      ],
      jwt: {
        jwksUrl: 'https://idp.example/.well-known/jwks.json',
        issuer: 'https://idp.example',
        audience: 'gateway',
        roleClaims: ['roles'],
        permissionClaims: ['scope', 'scp'],
        permissionClaimsGrantRoles: false,
        cardholderClaim: 'cardholder_id',
      },
      passthrough: undefined,
      allowedOrigins: ['https://app.example', 'https://ops.example'],
    });
  });

  it('refuses a real upstream without caller authentication', () => {
    expect(problemsOf(REAL)).toContain('AUTH_MODE is required with a real upstream (passthrough or service)');
    expect(problemsOf({ ...REAL, AUTH_MODE: 'none' })).toContain(
      'AUTH_MODE none is allowed only with the embedded sandbox (leave UPSTREAM_BASE_URL unset)',
    );
    expect(problemsOf({ ...REAL, AUTH_MODE: 'passthrough' })).toEqual([]);
  });

  it('refuses service mode without a credential to check, or without its own login', () => {
    expect(problemsOf({ AUTH_MODE: 'service' })).toEqual([
      'AUTH_MODE service needs GATEWAY_API_KEY_HASHES or JWT_JWKS_URL, JWT_ISSUER and JWT_AUDIENCE',
    ]);
    expect(problemsOf({ ...REAL, AUTH_MODE: 'service', GATEWAY_API_KEY_HASHES: `a:${HASH}:viewer` })).toContain(
      'AUTH_MODE service needs UPSTREAM_CLIENT_KEY, UPSTREAM_CLIENT_SECRET and UPSTREAM_EMAIL (the gateway logs in itself)',
    );
    expect(problemsOf({ ...REAL, ...CLIENT, AUTH_MODE: 'service', GATEWAY_API_KEY_HASHES: `a:${HASH}:viewer` })).toEqual([]);
  });

  it('holds a caller configuration built without the environment to the same rule (createCallerAuth)', () => {
    expect(callerCredentialProblems({ mode: 'service', apiKeys: [], jwt: undefined })).toEqual([
      'AUTH_MODE service needs GATEWAY_API_KEY_HASHES or JWT_JWKS_URL, JWT_ISSUER and JWT_AUDIENCE',
    ]);
    const jwt = { jwksUrl: 'https://idp.example/jwks', issuer: 'i', audience: 'a' };
    expect(callerCredentialProblems({ mode: 'service', apiKeys: [], jwt })).toEqual([]);
    expect(callerCredentialProblems({ mode: 'passthrough', apiKeys: [], jwt: undefined })).toEqual([]);
  });

  it('refuses half a JWT configuration, naming what is missing', () => {
    expect(problemsOf({ AUTH_MODE: 'service', JWT_JWKS_URL: 'https://idp.example/jwks' })).toEqual([
      'JWT_ISSUER is required with JWT_JWKS_URL (JWTs are checked for issuer and audience)',
      'JWT_AUDIENCE is required with JWT_JWKS_URL (JWTs are checked for issuer and audience)',
    ]);
  });

  it('refuses keys or a JWKS that another mode would silently ignore', () => {
    expect(problemsOf({ GATEWAY_API_KEY_HASHES: `a:${HASH}:viewer` })).toEqual([
      'GATEWAY_API_KEY_HASHES is used only with AUTH_MODE service (AUTH_MODE is not set)',
    ]);
    expect(problemsOf({ AUTH_MODE: 'service', GATEWAY_API_KEY_HASHES: `a:${HASH}:viewer`, PASSTHROUGH_ROLES: 'viewer' })).toEqual([
      'PASSTHROUGH_ROLES is used only with AUTH_MODE passthrough (AUTH_MODE is service)',
    ]);
    expect(problemsOf({ AUTH_MODE: 'passthrough', JWT_JWKS_URL: 'https://idp.example/jwks', JWT_ISSUER: 'i', JWT_AUDIENCE: 'a' })).toEqual([
      'JWT_JWKS_URL is used only with AUTH_MODE service (AUTH_MODE is passthrough)',
      'JWT_ISSUER is used only with AUTH_MODE service (AUTH_MODE is passthrough)',
      'JWT_AUDIENCE is used only with AUTH_MODE service (AUTH_MODE is passthrough)',
    ]);
  });

  it('refuses malformed key entries, repeated names and origins that are not origins', () => {
    const problems = problemsOf({
      AUTH_MODE: 'service',
      GATEWAY_API_KEY_HASHES: `a:${HASH}:viewer,a:${'b'.repeat(64)}:admin,b:not-a-hash:viewer`,
      ALLOWED_ORIGINS: 'https://app.example/path',
    });
    expect(problems).toContain('GATEWAY_API_KEY_HASHES.2 entries must be name:sha256-hex:roles (see `npm run api-key`)');
    expect(problems).toContain('GATEWAY_API_KEY_HASHES names the key "a" twice');
    expect(problems).toContain('ALLOWED_ORIGINS.0 entries must be origins like https://app.example.com (or *)');
  });

  it('refuses a key without roles at start, saying how to give it some', () => {
    const problems = problemsOf({ AUTH_MODE: 'service', GATEWAY_API_KEY_HASHES: `dashboard:${HASH}` });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('the key "dashboard" has no roles, so it could do nothing: write it dashboard:');
    expect(problems[0]).toContain(
      ':role+role (roles: viewer, bookkeeper, treasurer, card-manager, admin, cardholder; cardholder@<cardholder id>',
    );
  });

  it('refuses unknown roles, an unbound cardholder role and a binding shared with other roles', () => {
    const problems = problemsOf({
      AUTH_MODE: 'service',
      GATEWAY_API_KEY_HASHES: `a:${HASH}:viewer+root,b:${'b'.repeat(64)}:cardholder,c:${'c'.repeat(64)}:cardholder@chd_1+viewer`,
    });
    expect(problems).toEqual([
      'GATEWAY_API_KEY_HASHES.0 the key "a": unknown role "root" (roles: viewer, bookkeeper, treasurer, card-manager, admin, cardholder)',
      'GATEWAY_API_KEY_HASHES.1 the key "b": the cardholder role is bound to one cardholder: write cardholder@<cardholder id>',
      'GATEWAY_API_KEY_HASHES.2 the key "c": a caller bound to a cardholder holds the cardholder role alone (cardholder@<cardholder id>)',
    ]);
  });

  it('reads passthrough roles for every bank user and for some, and JWT claim names', () => {
    const config = loadConfig({
      AUTH_MODE: 'passthrough',
      PASSTHROUGH_ROLES: 'viewer',
      PASSTHROUGH_USER_ROLES: 'ops-user:treasurer,ava:cardholder@chd_demo_ava',
    });
    expect(config.auth.passthrough).toEqual({
      roles: ['viewer'],
      users: [
        { user: 'ops-user', roles: ['treasurer'], cardholderId: null },
        { user: 'ava', roles: ['cardholder'], cardholderId: 'chd_demo_ava' },
      ],
    });
    expect(loadConfig({ AUTH_MODE: 'passthrough' }).auth.passthrough).toEqual({ roles: ['admin'], users: [] });
    expect(problemsOf({ AUTH_MODE: 'passthrough', PASSTHROUGH_ROLES: 'cardholder@chd_1' })).toEqual([
      'PASSTHROUGH_ROLES PASSTHROUGH_ROLES cannot bind every bank user to one cardholder: bind users one by one in PASSTHROUGH_USER_ROLES',
    ]);
    const jwt = loadConfig({
      ...JWT,
      JWT_ROLE_CLAIMS: 'groups, roles',
      JWT_PERMISSION_CLAIMS: 'permissions',
      JWT_PERMISSION_CLAIMS_GRANT_ROLES: 'true',
      JWT_CARDHOLDER_CLAIM: 'https://acme.example/cardholder',
    });
    expect(jwt.auth.jwt).toMatchObject({
      roleClaims: ['groups', 'roles'],
      permissionClaims: ['permissions'],
      permissionClaimsGrantRoles: true,
      cardholderClaim: 'https://acme.example/cardholder',
    });
  });

  it('refuses the retired JWT_ACCESS_CLAIMS, naming the settings that replace it', () => {
    expect(problemsOf({ ...JWT, JWT_ACCESS_CLAIMS: 'scope,roles' })).toEqual([
      'JWT_ACCESS_CLAIMS is no longer read: name the claims that grant roles in JWT_ROLE_CLAIMS (default roles) and those that grant permissions in JWT_PERMISSION_CLAIMS (default scope,scp); a role named in a permission claim grants nothing unless JWT_PERMISSION_CLAIMS_GRANT_ROLES=true',
    ]);
  });

  it('refuses claim settings that would be ignored, and a grant-roles switch that is not a boolean', () => {
    expect(problemsOf({ AUTH_MODE: 'service', GATEWAY_API_KEY_HASHES: `a:${HASH}:viewer`, JWT_ROLE_CLAIMS: 'groups' })).toEqual([
      'JWT_ROLE_CLAIMS is used only with JWT_JWKS_URL, JWT_ISSUER and JWT_AUDIENCE (no JWT is accepted without them)',
    ]);
    expect(problemsOf({ ...JWT, JWT_PERMISSION_CLAIMS_GRANT_ROLES: 'maybe' })).toEqual([
      'JWT_PERMISSION_CLAIMS_GRANT_ROLES must be true or false',
    ]);
  });

  it('refuses a claim named twice, in one list or across the role, permission and cardholder claims', () => {
    expect(problemsOf({ ...JWT, JWT_ROLE_CLAIMS: 'roles,groups,roles' })).toEqual(['JWT_ROLE_CLAIMS names the claim "roles" twice']);
    expect(problemsOf({ ...JWT, JWT_PERMISSION_CLAIMS: 'scp, scp' })).toEqual(['JWT_PERMISSION_CLAIMS names the claim "scp" twice']);
    expect(problemsOf({ ...JWT, JWT_ROLE_CLAIMS: 'roles,scope' })).toEqual([
      'JWT_ROLE_CLAIMS and JWT_PERMISSION_CLAIMS both name the claim "scope": a claim grants roles or permissions, not both',
    ]);
    expect(problemsOf({ ...JWT, JWT_CARDHOLDER_CLAIM: 'roles' })).toEqual([
      'JWT_CARDHOLDER_CLAIM "roles" is also in JWT_ROLE_CLAIMS: the claim that binds a cardholder grants nothing else',
    ]);
  });

  it('refuses every other entry written twice, naming it', () => {
    expect(
      problemsOf({ AUTH_MODE: 'passthrough', PASSTHROUGH_USER_ROLES: 'ops-user:viewer,ava:cardholder@chd_demo_ava,ops-user:admin' }),
    ).toEqual(['PASSTHROUGH_USER_ROLES names the bank user "ops-user" twice']);
    expect(problemsOf({ AUTH_MODE: 'passthrough', PASSTHROUGH_ROLES: 'viewer+viewer' })).toEqual([
      'PASSTHROUGH_ROLES PASSTHROUGH_ROLES: the role "viewer" is written twice',
    ]);
    expect(problemsOf({ AUTH_MODE: 'service', GATEWAY_API_KEY_HASHES: `a:${HASH}:viewer+admin+viewer` })).toEqual([
      'GATEWAY_API_KEY_HASHES.0 the key "a": the role "viewer" is written twice',
    ]);
    expect(problemsOf({ AUTH_MODE: 'service', GATEWAY_API_KEY_HASHES: `a:${HASH}:viewer,b:${HASH.toUpperCase()}:admin` })).toEqual([
      'GATEWAY_API_KEY_HASHES gives the keys "a" and "b" the same hash: one key is one caller',
    ]);
    expect(
      problemsOf({
        AUTH_MODE: 'service',
        GATEWAY_API_KEY_HASHES: `a:${HASH}:viewer`,
        ALLOWED_ORIGINS: 'https://app.example, https://ops.example, https://App.example/',
      }),
    ).toEqual(['ALLOWED_ORIGINS names the origin "https://App.example" twice']);
  });

  it("reads the audit trail's destination: stdout by default, off, or a file", () => {
    expect(loadConfig({}).audit).toEqual({ destination: { kind: 'stdout' }, redisMaxLen: 1_000_000 });
    expect(loadConfig({ AUDIT_LOG: 'off' }).audit.destination).toEqual({ kind: 'off' });
    expect(loadConfig({ AUDIT_LOG: '/var/log/gateway/audit.jsonl' }).audit.destination).toEqual({
      kind: 'file',
      path: '/var/log/gateway/audit.jsonl',
    });
  });
});
