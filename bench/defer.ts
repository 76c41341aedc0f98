import { request } from 'undici';
import { directToken } from './bank-client.ts';
import { floorReplay, timedBesideFloor, type Floor } from './floor.ts';
import { warmUp } from './load.ts';
import { multipartParts } from './multipart.ts';
import { DEFERRED_CARDS_SCREEN } from './operations.ts';
import type { Settings } from './settings.ts';
import { upstreamLog, waitForQuiet, type BenchWorld } from './setup.ts';
import { summarize, type Summary } from './stats.ts';

/**
 * @defer on the cards screen (bench/operations.ts, DEFERRED_CARDS_SCREEN), answered over
 * multipart/mixed: the time to its first payload (the list, after one round of calls) and to its
 * last (after the whole critical path), one run at a time from this process, each followed by a
 * replay of its floor.
 */

export interface DeferResult {
  name: string;
  minimumCalls: number;
  /** Upstream calls of one run on a quiet upstream. */
  calls: number;
  /** Rounds of calls before the first payload, and in all. */
  firstPayloadRounds: number;
  criticalPath: number;
  /** From the request to the first complete part, and to the end of the last, ms. */
  firstPayload: Summary;
  lastPayload: Summary;
  /** Parts per run (the first, then the deferred ones as they came). */
  parts: number;
  /** The same calls replayed bare (bench/floor.ts): its first round is the first payload's floor, its wall the last's. */
  floor: Floor;
}

interface PartsRun {
  first: number;
  last: number;
  parts: number;
}

/** One run: the time to the first complete part and to the end of the body; an error in any part, or a last part that says more follows, throws. */
async function timeParts(graphqlUrl: string, body: string): Promise<PartsRun> {
  const started = performance.now();
  const response = await request(graphqlUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'multipart/mixed' }, body });
  if (response.statusCode !== 200) throw new Error(`@defer run failed: HTTP ${response.statusCode} ${(await response.body.text()).slice(0, 500)}`);
  const decoder = new TextDecoder();
  let buffer = '';
  let first: number | undefined;
  let parts: string[] = [];
  for await (const chunk of response.body) {
    const found = multipartParts(buffer + decoder.decode(chunk as Uint8Array, { stream: true }));
    buffer = found.rest;
    if (found.parts.length > 0) first ??= performance.now() - started;
    parts = parts.concat(found.parts);
  }
  const last = performance.now() - started;
  const failed = parts.find((part) => part.includes('"errors"'));
  if (first === undefined || failed || !parts.at(-1)?.includes('"hasNext":false')) {
    throw new Error(`@defer run failed: ${failed?.slice(0, 500) ?? `${parts.length} parts, the last ${parts.at(-1)?.slice(0, 200)}`}`);
  }
  return { first, last, parts: parts.length };
}

export async function measureDefer(world: BenchWorld, settings: Settings): Promise<DeferResult> {
  const operation = DEFERRED_CARDS_SCREEN;
  const body = JSON.stringify({ query: operation.query, variables: operation.variables });
  await warmUp(() => timeParts(world.graphqlUrl, body));
  await waitForQuiet(world);
  const { parts } = await timeParts(world.graphqlUrl, body);
  const log = await upstreamLog(world);
  // Each run followed by its floor's (floor.ts), so the two share the host's state.
  const replay = floorReplay(world.sandboxUrl, await directToken(world.sandboxUrl), log);
  const { samples: runs, floor } = await timedBesideFloor(() => timeParts(world.graphqlUrl, body), replay, settings.sequentialRuns);
  return {
    name: operation.name,
    minimumCalls: operation.minimumCalls,
    calls: log.length,
    firstPayloadRounds: operation.firstPayloadRounds,
    criticalPath: operation.criticalPath,
    firstPayload: summarize(runs.map((r) => r.first)),
    lastPayload: summarize(runs.map((r) => r.last)),
    parts,
    floor,
  };
}
