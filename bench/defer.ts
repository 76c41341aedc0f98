import { request } from 'undici';
import type { ServerProcess } from './child-process.ts';
import { timedBesideItsFloor, type Floor } from './floor.ts';
import { multipartParts } from './multipart.ts';
import { DEFERRED_CARDS_SCREEN } from './operations.ts';
import type { Settings } from './settings.ts';
import type { BenchWorld } from './setup.ts';
import { summarize, type Summary } from './stats.ts';

/**
 * @defer on the cards screen (bench/operations.ts, DEFERRED_CARDS_SCREEN), answered over
 * multipart/mixed: the time to its first payload (the list, after one round of calls) and to its
 * last (after the whole critical path), one run at a time from this process, each followed by a
 * replay of its floor; bare Yoga's the same way, where it is given.
 */

/** One server's runs of the deferred screen, each beside the floor of its own calls. */
export interface DeferRuns {
  /** Upstream calls of one run on a quiet upstream. */
  calls: number;
  /** From the request to the first complete part, and to the end of the last, ms. */
  firstPayload: Summary;
  lastPayload: Summary;
  /** Parts per run (the first, then the deferred ones as they came). */
  parts: number;
  /** The same calls replayed bare (bench/floor.ts): its first round is the first payload's floor, its wall the last's. */
  floor: Floor;
}

export interface DeferResult extends DeferRuns {
  name: string;
  minimumCalls: number;
  /** Rounds of calls before the first payload, and in all. */
  firstPayloadRounds: number;
  criticalPath: number;
  /** The same screen through bare Yoga with graphql-yoga's @defer plugin, beside its own floor: what Yoga alone adds. */
  bare?: DeferRuns;
}

interface PartsRun {
  first: number;
  last: number;
  parts: number;
}

/** One run: the time to the first complete part and to the end of the body; an error in any part, or a last part that says more follows, throws. */
async function timeParts(graphqlUrl: string, body: string): Promise<PartsRun> {
  const started = performance.now();
  const response = await request(graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'multipart/mixed' },
    body,
  });
  if (response.statusCode !== 200)
    throw new Error(`@defer run failed: HTTP ${response.statusCode} ${(await response.body.text()).slice(0, 500)}`);
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

/**
 * The gateway's runs, and bare Yoga's when given (started with `defer`), each on its own floor.
 * Bare Yoga must make as many calls as the gateway, or its figure would not be the same screen's.
 */
export async function measureDefer(world: BenchWorld, settings: Settings, bare?: ServerProcess): Promise<DeferResult> {
  const operation = DEFERRED_CARDS_SCREEN;
  const body = JSON.stringify({ query: operation.query, variables: operation.variables });
  const gateway = await timedDefer(world.graphqlUrl, world.sandboxUrl, body, settings.sequentialRuns);
  const bareRuns = bare ? await timedDefer(bare.graphqlUrl, world.sandboxUrl, body, settings.sequentialRuns) : undefined;
  if (bareRuns && bareRuns.calls !== gateway.calls)
    throw new Error(`bare Yoga made ${bareRuns.calls} calls on ${operation.name}, the gateway ${gateway.calls}`);
  return {
    name: operation.name,
    minimumCalls: operation.minimumCalls,
    firstPayloadRounds: operation.firstPayloadRounds,
    criticalPath: operation.criticalPath,
    ...gateway,
    ...(bareRuns ? { bare: bareRuns } : {}),
  };
}

/** Runs through the server at `graphqlUrl`, each beside the floor of its calls (floor.ts). */
async function timedDefer(graphqlUrl: string, sandboxUrl: string, body: string, runs: number): Promise<DeferRuns> {
  const { logged, log, samples, floor } = await timedBesideItsFloor(sandboxUrl, () => timeParts(graphqlUrl, body), runs);
  return {
    calls: log.length,
    firstPayload: summarize(samples.map((r) => r.first)),
    lastPayload: summarize(samples.map((r) => r.last)),
    parts: logged.parts,
    floor,
  };
}
