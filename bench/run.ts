/**
 * `npm run bench`: every measure in turn against the gateway over the sandbox on loopback, then
 * report/results.ts's rendering written to bench/RESULTS.md and printed. Progress goes to stderr.
 */

import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/settings/index.ts';
import { measureEstimateCost } from './bank-call-estimate.ts';
import { measureAuthorization } from './authorization-cost.ts';
import { directToken } from './bank-client.ts';
import { measureBareSequential } from './bare-yoga-floor.ts';
import { measureCache } from './cache.ts';
import { measureDefer } from './defer.ts';
import { measureFairness } from './fairness.ts';
import { BareYogaProcess, StackFloorProcess } from './floor-servers.ts';
import { LOADED_SCREENS, measureHeapConfigs } from './heap-sizing.ts';
import { measureIntakeFlood } from './intake-flood.ts';
import { INTERLEAVED_ROUNDS, measureBesideFloors } from './interleaved.ts';
import { measureRetainers } from './memory-retainers.ts';
import { measureLiveQueries } from './live-dashboards.ts';
import { measureOperation, type OperationResult } from './measure.ts';
import { MemorySampler } from './memory.ts';
import { OPERATIONS } from './operations.ts';
import { measureOverhead } from './overhead.ts';
import { FLOOD_CONNECTIONS, INTAKE_CONCURRENCY } from './parameters.ts';
import { perClientLimits, renderReport } from './report/results.ts';
import { checkSameAnswers } from './same-answers.ts';
import { readSettings } from './settings.ts';
import { prepareCardsScreen, startWorld, waitForQuiet, warmToken } from './setup.ts';
import { measureSubscriptions, type SubscriptionStage } from './subscriptions.ts';

/** The memory sampler's names for this process (timing loop, webhook posts, the floor's server) and the subscribers'. */
const BENCH_PROCESS = 'benchmark process';
const SUBSCRIBERS_CHILD = 'subscribers child';

const SUBSCRIPTION_PHASES: Record<SubscriptionStage, string> = {
  gateway: 'subscriptions: gateway',
  floor: "subscriptions: floor (bare ws server in the benchmark's process)",
  bare: 'subscriptions: bare Yoga with graphql-ws (its own process; this gateway idle)',
};

/** The memory phase of each stage of the subscription measure. */
const subscriptionPhase = (stage: SubscriptionStage, subscribers: number): string =>
  `${SUBSCRIPTION_PHASES[stage]}, ${subscribers} clients`;

const RESULTS_PATH = fileURLToPath(new URL('RESULTS.md', import.meta.url));
const progress = (message: string) => console.error(`[bench ${((performance.now() - t0) / 1000).toFixed(0).padStart(3)} s] ${message}`);

const t0 = performance.now();
const startedAt = new Date();
const settings = readSettings();
const world = await startWorld(settings.latencyMs);
const memory = new MemorySampler(
  world.gateway,
  [
    { name: BENCH_PROCESS, pid: 'self' },
    { name: 'sandbox child', pid: world.sandboxPid },
    { name: 'load generator child', pid: world.load.pid },
    { name: SUBSCRIBERS_CHILD, pid: world.subscribers.pid },
  ],
  'setup (token, 49 extra cards)',
);
memory.start();

try {
  progress(
    `gateway ${world.baseUrl} (pid ${world.gateway.pid}, ${world.gateway.flags.join(' ')}), sandbox ${world.sandboxUrl} (pid ${world.sandboxPid}), latency ${settings.latencyMs} ms`,
  );
  await warmToken(world);
  await prepareCardsScreen(world);

  const operations: OperationResult[] = [];
  for (const operation of OPERATIONS) {
    memory.phase(`operation: ${operation.name}`);
    progress(`operation ${operation.name}`);
    operations.push(await measureOperation(world, operation, settings));
  }

  // In this process alone, between load phases: the gateway's process is idle, and no bank call is timed.
  memory.phase('authorization cost (in the benchmark process, reads from memory)');
  progress('authorization cost per operation');
  await waitForQuiet(world);
  const authorization = await measureAuthorization(world.sandboxUrl, settings, progress);
  progress('the bank-call estimate per operation');
  const estimateCost = measureEstimateCost();

  memory.phase('operation: cards screen, details @defer (multipart)');
  progress('cards screen, details @defer (bare Yoga beside it)');
  // Bare Yoga with graphql-yoga's @defer plugin, in this phase alone: Yoga's own cost on the same screen.
  const deferBare = await BareYogaProcess.start(world.sandboxUrl, await directToken(world.sandboxUrl), world.gateway.flags, {
    defer: true,
  });
  const deferred = await measureDefer(world, settings, deferBare).finally(() => deferBare.close());

  memory.phase(`operation: fair share, one client flooding at c=${FLOOD_CONNECTIONS}`);
  progress(`fair share: one client flooding at c=${FLOOD_CONNECTIONS}, another timing its dashboard`);
  const fairness = await measureFairness(world, settings);

  memory.phase('gateway overhead (one-call query vs direct)');
  progress('gateway overhead (bare Yoga beside it)');
  // Bare Yoga takes turns with the gateway on the probe: graphql-yoga's own cost in the same minutes.
  const overheadBare = await BareYogaProcess.start(world.sandboxUrl, await directToken(world.sandboxUrl), world.gateway.flags);
  const overhead = await measureOverhead(world, settings, overheadBare).finally(() => overheadBare.close());

  memory.phase('record cache (a second gateway with the cache on)');
  progress('record cache');
  await waitForQuiet(world);
  const cache = await measureCache(world, settings);

  progress(`subscriptions: ${settings.subscribers} clients`);
  await waitForQuiet(world);
  const subscriptions = await measureSubscriptions(world, settings, (stage) => {
    memory.phase(subscriptionPhase(stage, settings.subscribers));
    progress(`subscriptions: ${stage}`);
  });

  memory.phase(`live queries: a second gateway with the record cache on, ${settings.subscribers} clients (this one idle)`);
  progress(`live queries: ${settings.subscribers} live dashboards, ${settings.pacedEvents} deposits one at a time`);
  const liveQueries = await measureLiveQueries(world, settings);

  memory.phase('webhook intake flood (a second gateway with Redis; this one idle)');
  progress(`webhook intake: ${INTAKE_CONCURRENCY} deliveries at once with Redis, ${settings.subscribers} subscribers`);
  const intake = await measureIntakeFlood(world, { subscribers: settings.subscribers }).catch((error: unknown) => {
    progress(`webhook intake not measured: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  });

  // Last, each in processes of its own: this gateway is idle from here on. The heap sweep, then the
  // floors (bare Yoga's, the stack floor's) and a fresh gateway with the shipped flags in interleaved
  // rounds (interleaved.ts): the figures set against the CPU, bytes and peak RSS targets are measured
  // in the same minutes, each process doing the same screens as many times.
  const screens = OPERATIONS.filter((operation) => LOADED_SCREENS.includes(operation.name));
  memory.phase('bare Yoga floor and stack floor (their own processes; this gateway idle)');
  progress('bare Yoga floor and stack floor: the same screens from the same calls');
  await waitForQuiet(world);
  const token = await directToken(world.sandboxUrl);
  const bare = await BareYogaProcess.start(world.sandboxUrl, token, world.gateway.flags);
  const stack = await StackFloorProcess.start(world.sandboxUrl, token, world.gateway.flags).catch(async (error: unknown) => {
    await bare.close();
    throw error;
  });
  let heap;
  let beside;
  let bareSequential;
  let retainers;
  try {
    await checkSameAnswers(world.graphqlUrl, bare.graphqlUrl, world.sandboxUrl, screens);
    await checkSameAnswers(world.graphqlUrl, stack.graphqlUrl, world.sandboxUrl, screens, 'the stack floor');

    memory.phase('heap sizing (a gateway process per configuration; this one idle)');
    await waitForQuiet(world);
    heap = await measureHeapConfigs(world, screens, { connections: settings.connections, seconds: settings.seconds, progress });

    memory.phase('bare Yoga, the stack floor and the gateway as shipped, interleaved (their own processes; this gateway idle)');
    progress(`bare Yoga, the stack floor and a gateway as shipped: ${INTERLEAVED_ROUNDS} interleaved rounds`);
    await waitForQuiet(world);
    beside = await measureBesideFloors(
      world,
      { bare, stack },
      { sandboxUrl: world.sandboxUrl, seconds: settings.seconds, connections: settings.connections, operations: screens, progress },
    );
    bareSequential = await measureBareSequential(bare, world.sandboxUrl, screens, settings.sequentialRuns);

    // The benchmark's gateway, as every phase above left it, and bare Yoga: what each heap holds, by retainer.
    memory.phase('memory by retainer (heap snapshots of this gateway and of bare Yoga, idle and under each screen)');
    progress('memory by retainer: heap snapshots of the gateway and of bare Yoga');
    await waitForQuiet(world);
    const retainerOptions = { operations: screens, connections: settings.connections, progress };
    retainers = {
      gateway: await measureRetainers(world.gateway, world.load, { ...retainerOptions, name: 'gateway' }),
      bare: await measureRetainers(bare, world.load, { ...retainerOptions, name: 'bare Yoga' }),
    };
  } finally {
    await stack.close();
    await bare.close();
  }

  const config = loadConfig(process.env);
  const { concurrency } = config;
  const report = renderReport({
    settings,
    gatewayFlags: world.gateway.flags,
    concurrency: `adaptive ${concurrency.adaptive ? 'on' : 'off'}, from ${concurrency.initial} within ${concurrency.min}..${concurrency.max} (UPSTREAM_*_CONCURRENCY)`,
    perClient: perClientLimits(concurrency.perClient, config.clientRateLimit),
    startedAt,
    elapsedSeconds: (performance.now() - t0) / 1000,
    operations,
    deferred,
    fairness,
    overhead,
    cache,
    authorization,
    estimateCost,
    subscriptions,
    liveQueries,
    intake,
    heap,
    bareYoga: beside.bare,
    stackFloor: beside.stack,
    shipped: { ...beside.gateway, flags: world.gateway.flags },
    compiled: beside.compiled,
    retainers,
    bareOneCall: overhead.bareOneCall,
    bareSequential,
    memory: await memory.stop(),
  });
  await writeFile(RESULTS_PATH, report);
  console.log(report);
  progress(`written to ${RESULTS_PATH}`);
} finally {
  await world.close();
}
