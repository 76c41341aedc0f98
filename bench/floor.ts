import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { DEMO_CREDENTIALS, type RequestLogEntry } from '@banking-gateway/sandbox';
import { directHeaders, directToken } from './bank-client.ts';
import { warmUp } from './load.ts';
import { roundsIn } from './rounds.ts';
import { upstreamLog, waitForQuiet } from './setup.ts';
import { summarize, type Summary } from './stats.ts';

/**
 * The bare floor of a screen at concurrency 1: the calls one run of it made, as the sandbox logged
 * them, sent straight to the sandbox from the benchmark's process in the same rounds, with a bank
 * token of the benchmark's own. No GraphQL, no hop through the gateway, nothing done with the
 * answers but reading them: what the sandbox's latency, its one thread and this machine's loopback
 * cost by themselves. A round starts as soon as one call of the one before has answered, where the
 * gateway starts a dependent call when the answer it needs is in (which may be a later one): the
 * floor is a lower bound, no gateway could beat it on this machine.
 */
export interface Floor {
  /** Until every call has answered. */
  wall: Summary;
  /** Until every call of the first round has answered: the floor of a first payload that needs that round alone (@defer). */
  firstRound: Summary;
  rounds: number;
}

interface Replay {
  wall: number;
  firstRound: number;
}

/** One replayed call; throws when the sandbox answers anything but what it answered the gateway. */
async function replay(sandboxUrl: string, headers: Record<string, string>, call: RequestLogEntry): Promise<void> {
  if (call.method !== 'GET') throw new Error(`the floor replays reads only; the screen made ${call.method} ${call.path}`);
  const query = new URLSearchParams(call.query).toString();
  const response = await request(`${sandboxUrl}${call.path}${query ? `?${query}` : ''}`, {
    method: 'GET',
    headers: { ...headers, ...call.subject },
  });
  const body = await response.body.text();
  if (response.statusCode !== call.status) {
    throw new Error(
      `floor: GET ${call.path} answered HTTP ${response.statusCode} where the gateway's call got ${call.status}: ${body.slice(0, 300)}`,
    );
  }
}

/**
 * One replay: each round's calls at once; the next round as soon as one call of this one has
 * answered (the least a dependent call can wait for); done when every call has answered.
 */
async function replayOnce(sandboxUrl: string, headers: Record<string, string>, rounds: RequestLogEntry[][]): Promise<Replay> {
  const started = performance.now();
  // Settled to the error or null, so a failed call is reported once, after the others, never unhandled.
  const calls: Promise<Error | null>[] = [];
  let firstRound: Promise<number> | undefined;
  for (const round of rounds) {
    const sent = round.map((call) =>
      replay(sandboxUrl, headers, call).then(
        () => null,
        (error: unknown) => (error instanceof Error ? error : new Error('replay failed', { cause: error })),
      ),
    );
    firstRound ??= Promise.all(sent).then(() => performance.now() - started);
    calls.push(...sent);
    await Promise.race(sent);
  }
  const failure = (await Promise.all(calls)).find((outcome) => outcome !== null);
  if (failure) throw failure;
  return { wall: performance.now() - started, firstRound: (await firstRound) ?? 0 };
}

/** A screen's floor, replayed one run at a time: by measureFloor alone, or run for run beside the screen (timedBesideFloor). */
export interface FloorReplay {
  once(): Promise<Replay>;
  rounds: number;
}

/** The floor of `log` (one run of a screen): its calls in their rounds, with a bank token of the benchmark's own. */
export function floorReplay(sandboxUrl: string, token: string, log: readonly RequestLogEntry[]): FloorReplay {
  const rounds = roundsIn(log);
  // The standard family's headers and the issuing family's x-client-id: every family's reads are answered.
  const headers = { ...directHeaders(token), 'x-client-id': DEMO_CREDENTIALS.clientKey };
  return { once: () => replayOnce(sandboxUrl, headers, rounds), rounds: rounds.length };
}

function floorOf(samples: readonly Replay[], rounds: number): Floor {
  return { wall: summarize(samples.map((r) => r.wall)), firstRound: summarize(samples.map((r) => r.firstRound)), rounds };
}

/** `runs` sequential replays of `log` (one run of a screen), after `warmUpMs` (a second) of unmeasured ones, three at the least. */
export async function measureFloor(
  sandboxUrl: string,
  token: string,
  log: readonly RequestLogEntry[],
  runs: number,
  warmUpMs?: number,
): Promise<Floor> {
  const floor = floorReplay(sandboxUrl, token, log);
  await warmUp(() => floor.once(), warmUpMs);
  const samples: Replay[] = [];
  for (let i = 0; i < runs; i++) samples.push(await floor.once());
  return floorOf(samples, floor.rounds);
}

/**
 * `runs` timed runs of a screen (`timed`) and as many of its floor, alternately, each warmed for a
 * second first: a run and its floor's are seconds apart, not a minute, so what the host does
 * meanwhile (this machine's speed drifts by tens of percent over minutes) falls on both alike, and
 * "over the floor" is the gateway's, not the drift's.
 */
export async function timedBesideFloor<T>(
  timed: () => Promise<T>,
  floor: FloorReplay,
  runs: number,
  warmUpMs?: number,
): Promise<{ samples: T[]; floor: Floor }> {
  await warmUp(timed, warmUpMs);
  await warmUp(() => floor.once(), warmUpMs);
  const samples: T[] = [];
  const replays: Replay[] = [];
  for (let i = 0; i < runs; i++) {
    samples.push(await timed());
    replays.push(await floor.once());
  }
  return { samples, floor: floorOf(replays, floor.rounds) };
}

/**
 * A screen timed beside the floor of its own calls: after a second of unmeasured runs, one run on a
 * quiet sandbox (`logged`) gives the calls, as the sandbox's log has them (`log`); then `runs` runs,
 * each followed by a replay of those calls (timedBesideFloor).
 */
export async function timedBesideItsFloor<T>(
  sandboxUrl: string,
  timed: () => Promise<T>,
  runs: number,
): Promise<{ logged: T; log: RequestLogEntry[]; samples: T[]; floor: Floor }> {
  await warmUp(timed);
  await waitForQuiet({ sandboxUrl });
  const logged = await timed();
  const log = await upstreamLog({ sandboxUrl });
  const beside = await timedBesideFloor(timed, floorReplay(sandboxUrl, await directToken(sandboxUrl), log), runs);
  return { logged, log, ...beside };
}
