import { directToken } from './bank-client.ts';
import { BareYogaProcess, StackFloorProcess } from './floor-servers.ts';
import type { ServerProcess } from './child-process.ts';
import { graphqlTarget, LoadGenerator } from './load.ts';
import { ONE_CALL_BALANCES, OPERATIONS } from './operations.ts';
import { readSettings } from './settings.ts';
import { prepareCardsScreen, startWorld, waitForQuiet, warmToken } from './setup.ts';

/**
 * `node bench/profile-screen.ts "<screen>" <dir>`: one screen (or "one call", the overhead probe's
 * query) at c=50, or at PROFILE_CONNECTIONS (1 shows the time between rounds), through a gateway
 * with the flags of `npm start` (or BENCH_GATEWAY_NODE_OPTIONS), profiled: <dir>/<screen>.cpuprofile
 * (where the time goes) and .heapprofile (where the bytes go, freed ones included), for DevTools.
 * What the issues' profiles were taken with, kept so the next one is taken the same way.
 * PROFILE_SERVER=bare profiles the bare Yoga floor (bench/bare-yoga-child.ts) on the same screen
 * instead, with the gateway's flags: where the floor's own time and bytes go, to set beside them;
 * PROFILE_SERVER=stack the stack floor (bench/stack-floor-child.ts) the same way.
 */
const [screenName = 'cards screen (50 cards)', dir = '/tmp'] = process.argv.slice(2);
const oneCall = { name: 'one call', query: ONE_CALL_BALANCES, variables: undefined };
const screen = screenName === oneCall.name ? oneCall : OPERATIONS.find((operation) => operation.name === screenName);
if (!screen) throw new Error(`no screen "${screenName}": ${OPERATIONS.map((o) => o.name).join(', ')}`);
const settings = readSettings();
const world = await startWorld(settings.latencyMs);
try {
  await warmToken(world);
  if (screen.name.startsWith('cards screen')) await prepareCardsScreen(world);
  const floor =
    process.env.PROFILE_SERVER === 'bare' ? BareYogaProcess : process.env.PROFILE_SERVER === 'stack' ? StackFloorProcess : undefined;
  const server: ServerProcess = floor
    ? await floor.start(world.sandboxUrl, await directToken(world.sandboxUrl), world.gateway.flags)
    : world.gateway;
  const target = graphqlTarget(server.graphqlUrl, screen.query, screen.variables);
  const load: LoadGenerator = world.load;
  const connections = Number(process.env.PROFILE_CONNECTIONS ?? settings.connections);
  const warmUp = await load.runUnwatched(target, connections, 2);
  await waitForQuiet(world);
  // A count of requests, every one answered, as the CPU and bytes per operation are measured
  // (screens-under-load.ts): a timed run's end abandons the requests in flight, whose errors are no
  // operation's cost.
  const amount = Math.max(connections * 4, Math.round(warmUp.rps * settings.seconds));
  await server.startProfile();
  const run = await load.runCount(target, connections, amount);
  const path = await server.stopProfile(
    `${dir}/${floor ? `${process.env.PROFILE_SERVER}-` : ''}${screen.name.replace(/\W+/g, '-')}.cpuprofile`,
  );
  console.log(`${run.rps.toFixed(0)} req/s, ${amount} operations (per-operation figures divide by this); profile: ${path}`);
  if (server !== world.gateway) await server.close();
} finally {
  await world.close();
}
