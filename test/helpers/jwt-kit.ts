import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { ApiKeyConfig, JwtConfig } from '../../src/settings/index.ts';
import { JWT_AUDIENCE, JWT_ISSUER, startJwks, type Jwks } from './jwks.ts';
import { startKit, type Kit, type KitOptions } from './kit.ts';
import { registerSecret } from './leak-scan.ts';

/**
 * A file's identity provider and its gateway: a local JWKS, and a kit in AUTH_MODE=service that
 * trusts it (and these API keys), started before the file's tests and closed after them.
 */
export interface JwtKit {
  /** The kit, once started (a stand-in before, as useKit's). */
  kit: Kit;
  /** `Authorization` headers of a JWT of `subject` with these claims, registered for the leak scan. */
  bearer(subject: string, claims: Record<string, unknown>): Promise<Record<string, string>>;
  /** The gateway's settings for this provider, for another kit of the file. */
  jwtConfig(): JwtConfig;
}

export function useJwtKit(options: KitOptions & { apiKeys?: ApiKeyConfig[]; freshEachTest?: boolean } = {}): JwtKit {
  const { apiKeys = [], freshEachTest = false, ...kitOptions } = options;
  let jwks: Jwks | undefined;
  let current: Kit | undefined;
  const jwtConfig = (): JwtConfig => ({ jwksUrl: jwks!.url, issuer: JWT_ISSUER, audience: JWT_AUDIENCE });
  beforeAll(async () => {
    jwks = await startJwks();
    current = await startKit({ ...kitOptions, auth: { mode: 'service', apiKeys, jwt: jwtConfig(), allowedOrigins: [] } });
  });
  afterAll(async () => {
    await current?.close();
    await jwks?.close();
  });
  if (freshEachTest) beforeEach(() => current?.fresh());
  return {
    kit: new Proxy({} as Kit, {
      get(_target, property: keyof Kit) {
        if (!current) throw new Error('the kit is used before beforeAll started it');
        return current[property];
      },
    }),
    bearer: async (subject, claims) => {
      const token = await jwks!.sign({ subject }, claims);
      registerSecret('a caller JWT', token);
      return { authorization: `Bearer ${token}` };
    },
    jwtConfig,
  };
}
