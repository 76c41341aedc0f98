import { randomBytes } from 'node:crypto';
import { execute, parse } from 'graphql';
import { buildSchema } from '../src/schema/index.ts';
import { inMemoryWorld } from './authorization-context.ts';
import { measurePerRequest, type IdentityCosts, type PerCall } from './authorization-identity.ts';
import { measureScreenScopes, scopeSchemas, type ScreenScopeCost } from './authorization-scopes.ts';
import { CARDS_ON_SCREEN, extraCardMutation, OPERATIONS } from './operations.ts';
import { authorizationSection } from './report.ts';
import { readSettings, type Settings } from './settings.ts';
import { startSandboxProcess, stopSandboxProcess } from './setup.ts';

/**
 * What authorization costs one operation at concurrency 1, in CPU time of this process: the scope
 * checks of each screen of bench/operations.ts (authorization-scopes.ts: with and without them,
 * interleaved, every read from memory), who is calling (an API key, a JWT) and a mutation's audit
 * record (authorization-identity.ts). `npm run bench` runs it after the operations, on its sandbox;
 * `npx node bench/authorization.ts` runs it alone, on a sandbox of its own with the cards screen's
 * cards issued, and prints its section of the report.
 */

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

/** The cards screen's cards, issued as bench/setup.ts issues them, through the schema with its checks. */
async function issueCards(sandboxUrl: string): Promise<void> {
  const world = inMemoryWorld(sandboxUrl);
  const schema = buildSchema();
  try {
    for (let i = 1; i < CARDS_ON_SCREEN; i++) {
      const { query, variables } = extraCardMutation(i);
      const result = await execute({ schema, document: parse(query), contextValue: world.context(), variableValues: variables });
      const typename = (result.data?.cardCreate as { __typename?: string } | undefined)?.__typename;
      if (!typename?.endsWith('Success')) throw new Error(`card ${i} was not issued: ${JSON.stringify(result)}`);
    }
  } finally {
    await world.close();
  }
}

if (import.meta.main) {
  const t0 = performance.now();
  const progress = (message: string) =>
    console.error(`[authorization ${((performance.now() - t0) / 1000).toFixed(0).padStart(3)} s] ${message}`);
  const { child, url } = await startSandboxProcess(0, randomBytes(16).toString('hex'));
  try {
    progress(`sandbox ${url} (pid ${child.pid}), issuing ${CARDS_ON_SCREEN - 1} cards`);
    await issueCards(url);
    console.log(authorizationSection(await measureAuthorization(url, readSettings(), progress)));
  } finally {
    await stopSandboxProcess(child);
  }
}
