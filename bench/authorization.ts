/**
 * `npx node bench/authorization.ts`: the cost of authorization alone, on a sandbox of its own with the
 * cards screen's cards issued, printed as its section of the report.
 */

import { randomBytes } from 'node:crypto';
import { execute, parse } from 'graphql';
import { buildSchema } from '../src/schema/index.ts';
import { inMemoryWorld } from './authorization-context.ts';
import { measureAuthorization } from './authorization-cost.ts';
import { CARDS_ON_SCREEN, extraCardMutation } from './operations.ts';
import { authorizationSection } from './report/authorization.ts';
import { readSettings } from './settings.ts';
import { startSandboxProcess, stopSandboxProcess } from './setup.ts';

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
