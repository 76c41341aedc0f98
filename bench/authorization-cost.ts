/**
 * What authorization costs one operation at concurrency 1, in CPU time of this process: each screen's
 * scope checks (authorization-scopes.ts), who is calling and a mutation's audit record (authorization-identity.ts).
 */

import { inMemoryWorld } from './authorization-context.ts';
import { measurePerRequest, type IdentityCosts, type PerCall } from './authorization-identity.ts';
import { measureScreenScopes, scopeSchemas, type ScreenScopeCost } from './authorization-scopes.ts';
import { OPERATIONS } from './operations.ts';
import type { Settings } from './settings.ts';

export interface AuthorizationResult {
  /** Unmeasured runs of each schema per screen, then measured runs of each. */
  warmUpRuns: number;
  screens: ScreenScopeCost[];
  identity: IdentityCosts;
  /** One mutation's audit record. */
  audit: PerCall;
}

/** Timed batches of each of the identity and audit measures (as many again warm up). */
const BATCHES = 300;

export async function measureAuthorization(
  sandboxUrl: string,
  settings: Pick<Settings, 'authorizationRuns'>,
  progress: (message: string) => void = () => {},
): Promise<AuthorizationResult> {
  const world = inMemoryWorld(sandboxUrl);
  const warmUpRuns = Math.max(20, Math.round(settings.authorizationRuns / 5));
  try {
    const schemas = scopeSchemas();
    const screens: ScreenScopeCost[] = [];
    for (const operation of OPERATIONS) {
      progress(`authorization: ${operation.name}, ${settings.authorizationRuns} runs with the checks, without and with again`);
      screens.push(await measureScreenScopes(operation, schemas, world, { warmUpRuns, runs: settings.authorizationRuns }));
    }
    progress('authorization: identity (API key, JWT) and the audit record');
    return { warmUpRuns, screens, ...(await measurePerRequest(BATCHES)) };
  } finally {
    await world.close();
  }
}
