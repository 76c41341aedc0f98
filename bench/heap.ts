/** `npx node bench/heap.ts`: the heap sizing sweep alone, on a world of its own, printed as report/heap.ts renders it. */

import { LOADED_SCREENS, measureHeapConfigs } from './heap-sizing.ts';
import { OPERATIONS } from './operations.ts';
import { heapLines } from './report/heap.ts';
import { readSettings } from './settings.ts';
import { prepareCardsScreen, startWorld, warmToken } from './setup.ts';

const settings = readSettings();
const world = await startWorld(settings.latencyMs);
try {
  await warmToken(world);
  await prepareCardsScreen(world);
  const screens = OPERATIONS.filter((operation) => LOADED_SCREENS.includes(operation.name));
  const results = await measureHeapConfigs(world, screens, {
    connections: settings.connections,
    seconds: settings.seconds,
    progress: (m) => console.error(m),
  });
  for (const line of heapLines(results)) console.log(line);
} finally {
  await world.close();
}
