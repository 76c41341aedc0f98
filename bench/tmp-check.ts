import { graphqlTarget } from './load.ts';
import { OPERATIONS } from './operations.ts';
import { prepareCardsScreen, startWorld, warmToken, graphql, waitForQuiet } from './setup.ts';
const screen = OPERATIONS.find((o) => o.name.startsWith('cards screen'))!;
const world = await startWorld(20);
try {
  await warmToken(world); await prepareCardsScreen(world);
  const one = await graphql(world, screen.query, screen.variables);
  console.log('errors once:', JSON.stringify((one as any).errors)?.slice(0, 300));
  const r = await world.load.run(graphqlTarget(world.graphqlUrl, screen.query, screen.variables), 50, 3);
  console.log('rps', r.rps, 'errors', (r as any).errors);
  await waitForQuiet(world);
  const m = await (await fetch(world.baseUrl + '/metrics')).text();
  console.log(m.split('\n').filter((l) => /abandon|graphql_errors|operation_errors/.test(l) && !l.startsWith('#')).join('\n'));
} finally { await world.close(); }
