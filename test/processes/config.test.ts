import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bareEnv } from '../helpers/bare-env.ts';

const main = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

describe('starting with a bad configuration', () => {
  it('exits 1 and lists every problem', () => {
    const run = spawnSync(process.execPath, [main], {
      env: bareEnv({ PORT: '99999', LOG_LEVEL: 'chatty', UPSTREAM_BASE_URL: 'https://bank.example' }),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Invalid configuration');
    for (const problem of [
      'PORT must be at most 65535',
      'LOG_LEVEL must be one of',
      'UPSTREAM_API_KEY is required when UPSTREAM_BASE_URL is set',
      'UPSTREAM_PRODUCT_ID is required when UPSTREAM_BASE_URL is set',
      'UPSTREAM_USER_ID is required when UPSTREAM_BASE_URL is set',
    ]) {
      expect(run.stderr).toContain(problem);
    }
  });
});

describe('starting without caller authentication', () => {
  const REAL = { UPSTREAM_BASE_URL: 'https://bank.example', UPSTREAM_API_KEY: 'k', UPSTREAM_PRODUCT_ID: 'p', UPSTREAM_USER_ID: 'u' };
  const start = (env: Record<string, string>) =>
    spawnSync(process.execPath, [main], { env: bareEnv(env), encoding: 'utf8', timeout: 20_000 });

  it('refuses AUTH_MODE none against a real upstream: exit 1 with the reason', () => {
    const run = start({ ...REAL, AUTH_MODE: 'none' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('AUTH_MODE none is allowed only with the embedded sandbox (leave UPSTREAM_BASE_URL unset)');
  });

  it('refuses a real upstream with no AUTH_MODE at all', () => {
    const run = start(REAL);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('AUTH_MODE is required with a real upstream (passthrough or service)');
  });

  it('refuses the retired JWT_ACCESS_CLAIMS and a bank user written twice, naming each', () => {
    const jwt = start({
      AUTH_MODE: 'service',
      JWT_JWKS_URL: 'https://idp.example/jwks',
      JWT_ISSUER: 'i',
      JWT_AUDIENCE: 'a',
      JWT_ACCESS_CLAIMS: 'scope',
    });
    expect(jwt.status).toBe(1);
    expect(jwt.stderr).toContain('JWT_ACCESS_CLAIMS is no longer read: name the claims that grant roles in JWT_ROLE_CLAIMS');
    const users = start({ AUTH_MODE: 'passthrough', PASSTHROUGH_USER_ROLES: 'ops-user:viewer,ops-user:admin' });
    expect(users.status).toBe(1);
    expect(users.stderr).toContain('PASSTHROUGH_USER_ROLES names the bank user "ops-user" twice');
  });

  it('refuses AUTH_MODE service with neither API keys nor a JWKS', () => {
    const run = start({ AUTH_MODE: 'service' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('AUTH_MODE service needs GATEWAY_API_KEY_HASHES or JWT_JWKS_URL, JWT_ISSUER and JWT_AUDIENCE');
  });
});
