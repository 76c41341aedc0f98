/** `npx node bench/live-queries.ts`: the subscriptions, then the live dashboards beside their floor, printed as report/live-queries.ts renders them. */

import { measureLiveQueries } from './live-dashboards.ts';
import { liveQueriesLines, subscriptionsPacedLine } from './report/live-queries.ts';
import { readSettings } from './settings.ts';
import { startWorld } from './setup.ts';
import { measureSubscriptions } from './subscriptions.ts';

const settings = readSettings();
const world = await startWorld(settings.latencyMs);
try {
  console.error(`[live queries] subscriptions (gateway, then the floor): ${settings.subscribers} clients`);
  const subscriptions = await measureSubscriptions(world, settings);
  const paced = subscriptions.gateway.paced;
  if (paced) console.log(subscriptionsPacedLine(paced));
  console.error(`[live queries] ${settings.subscribers} live dashboards, ${settings.pacedEvents} deposits one at a time`);
  const live = await measureLiveQueries(world, settings);
  for (const line of liveQueriesLines(live, subscriptions.floor.paced)) console.log(line);
} finally {
  await world.close();
}
