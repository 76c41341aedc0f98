import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import type { RequestLogEntry } from '@banking-gateway/sandbox';
import { loadConfig } from '../src/settings/index.ts';
import { sandboxUpstreamConfig } from '../src/start/sandbox-upstream.ts';
import type { BareIdentity, BarePoolOptions, FloorStart } from './bank-reads.ts';
import { directToken } from './bank-client.ts';
import { ServerProcess } from './child-process.ts';
import { GatewayProcess } from './gateway-process.ts';
import { timedBesideItsFloor, type Floor } from './floor.ts';
import { graphqlTarget, LoadGenerator, timeOnce } from './load.ts';
import { peakRssMb } from './memory.ts';
import { measureScreensCpu, type CpuMeasureOptions, type ScreenCpu } from './screens-under-load.ts';
import { OPERATIONS, type BenchOperation } from './operations.ts';
import { directTarget, ONE_CALL_QUERY, type BareOneCall } from './overhead.ts';
import { roundsOf } from './rounds.ts';
import { readSettings } from './settings.ts';
import {
  graphql,
  prepareCardsScreen,
  startSandboxProcess,
  stopSandboxProcess,
  upstreamLog,
  waitForQuiet,
  type BenchWorld,
} from './setup.ts';
import { summarize } from './stats.ts';

/**
 * The bare Yoga floor: what a plain graphql-yoga server costs in CPU answering the benchmark's
 * screens from the same upstream calls as the gateway (bench/bare-yoga-child.ts, in its own
 * process). checkSameAnswers holds it to the gateway's answers (JSON shape, item counts) and calls
 * (the same requests in the sandbox's log); measureFloorCpu loads it with autocannon and reads its
 * process's CPU per operation. `npx node bench/bare-yoga.ts` runs both on a world of its own, with
 * the gateway measured the same way beside it.
 */

const CHILD_PATH = fileURLToPath(new URL('./bare-yoga-child.ts', import.meta.url));

/**
 * The pool the gateway's benchmark process opens to the sandbox (src/upstream/bank-connection.ts, with the
 * upstream config bench/gateway-child.ts builds): as many connections as the concurrency ceiling
 * (UPSTREAM_MAX_CONCURRENCY), its keep-alive and timeouts, undici's default pipelining (1).
 */
function gatewayPoolOptions(sandboxUrl: string, env: NodeJS.ProcessEnv = process.env): BarePoolOptions {
  const { timeoutMs } = sandboxUpstreamConfig({ url: sandboxUrl });
  return {
    connections: loadConfig(env).concurrency.max,
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 60_000,
    connectTimeout: Math.min(timeoutMs, 5_000),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  };
}

/** The headers' values and the service segment the gateway uses against the sandbox (sandboxUpstreamConfig). */
function sandboxIdentity(sandboxUrl: string): BareIdentity {
  const config = sandboxUpstreamConfig({ url: sandboxUrl });
  return {
    apiKey: config.apiKey,
    productId: config.productId,
    userId: config.userId,
    clientId: config.clientId ?? '',
    serviceSegment: config.serviceSegment,
  };
}

/** The bare Yoga server in its own process (bench/bare-yoga-child.ts), asked over IPC. */
export class BareYogaProcess extends ServerProcess {
  /**
   * Starts it against the sandbox at `sandboxUrl` with a bank token of its own (directToken in
   * bench/bank-client.ts), its process run with `nodeFlags` (give the gateway's, startHeapFlags, so
   * both run on the same heap); `defer` serves @defer as the gateway does (FloorStart).
   */
  static async start(sandboxUrl: string, token: string, nodeFlags: string[], options: { defer?: boolean } = {}): Promise<BareYogaProcess> {
    const start = { ...floorStart(sandboxUrl, token), ...options };
    const { child, port } = await ServerProcess.launch(CHILD_PATH, 'bare Yoga process', nodeFlags, start);
    return new BareYogaProcess(child, nodeFlags, port);
  }
}

/**
 * The start request of a floor's process (bench/bank-reads.ts): the sandbox at `sandboxUrl`, a bank
 * token of the floor's own, the gateway's identity and its pool's settings.
 */
export function floorStart(sandboxUrl: string, token: string): Omit<FloorStart, 'id'> {
  return { kind: 'start', sandboxUrl, token, identity: sandboxIdentity(sandboxUrl), pool: gatewayPoolOptions(sandboxUrl) };
}

// --- Same answers, same calls ---------------------------------------------------------------------

export interface AnswerCheck {
  name: string;
  /** Upstream calls of one run through the gateway and through the floor (equal, or checkSameAnswers threw). */
  calls: number;
  /** Rounds of those calls (bench/rounds.ts), for the record: read from arrival times, not asserted. */
  gatewayRounds: number;
  floorRounds: number;
}

/** Where the gateway's answer `a` and `floor`'s `b` differ in shape (keys, nulls, kinds, array lengths), or null where they do not. */
function shapeDifference(a: unknown, b: unknown, floor: string, path = 'data'): string | null {
  const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  if (kind(a) !== kind(b)) return `${path}: ${kind(a)} in the gateway's answer, ${kind(b)} in ${floor}'s`;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path}: ${a.length} items in the gateway's answer, ${b.length} in ${floor}'s`;
    for (let i = 0; i < a.length; i++) {
      const found = shapeDifference(a[i], b[i], floor, `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (kind(a) === 'object') {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    const keysA = Object.keys(x).sort().join(',');
    const keysB = Object.keys(y).sort().join(',');
    if (keysA !== keysB) return `${path}: keys {${keysA}} in the gateway's answer, {${keysB}} in ${floor}'s`;
    for (const key of Object.keys(x)) {
      const found = shapeDifference(x[key], y[key], floor, `${path}.${key}`);
      if (found) return found;
    }
  }
  return null;
}

async function post(graphqlUrl: string, operation: BenchOperation): Promise<unknown> {
  const target = graphqlTarget(graphqlUrl, operation.query, operation.variables);
  const response = await request(target.url, { method: 'POST', headers: target.headers, body: target.body! });
  const text = await response.body.text();
  const body = JSON.parse(text) as { data?: unknown; errors?: unknown };
  if (response.statusCode !== 200 || body.errors || !body.data) {
    throw new Error(`${operation.name} at ${graphqlUrl}: HTTP ${response.statusCode} ${text.slice(0, 500)}`);
  }
  return body.data;
}

/** A call as the sandbox logged it, without what differs from run to run (time, request id). */
const callKey = (entry: RequestLogEntry) =>
  `${entry.method} ${entry.path} ${new URLSearchParams(Object.entries(entry.query).sort()).toString()} ${JSON.stringify(Object.entries(entry.subject).sort())}`;

/** Calls in `a` missing from `b`, with their multiplicity, for the message. */
function missing(a: string[], b: string[]): string[] {
  const left = new Map<string, number>();
  for (const key of b) left.set(key, (left.get(key) ?? 0) + 1);
  const out: string[] = [];
  for (const key of a) {
    const n = left.get(key) ?? 0;
    if (n === 0) out.push(key);
    else left.set(key, n - 1);
  }
  return out;
}

/** One run on a quiet sandbox: the answer and the calls it made. */
async function runLogged(
  sandboxUrl: string,
  graphqlUrl: string,
  operation: BenchOperation,
): Promise<{ data: unknown; log: RequestLogEntry[] }> {
  await waitForQuiet({ sandboxUrl });
  const data = await post(graphqlUrl, operation);
  return { data, log: await upstreamLog({ sandboxUrl }) };
}

/**
 * For each operation (bench/operations.ts), one run through the gateway and one through a floor
 * (bare Yoga, or the stack floor of bench/stack-floor.ts, named `floorName` in the messages), each
 * on a quiet sandbox with its request log cleared: throws unless both answers have the same JSON
 * shape (keys, nulls, array lengths) and both made the same upstream calls (method, path, query and
 * subject headers, each as many times). Both are run once first, so the gateway's login is not
 * counted. `gatewayUrl` and `floorUrl` are GraphQL endpoints (…/graphql).
 */
export async function checkSameAnswers(
  gatewayUrl: string,
  floorUrl: string,
  sandboxUrl: string,
  operations: readonly BenchOperation[] = OPERATIONS,
  floorName = 'bare Yoga',
): Promise<AnswerCheck[]> {
  for (const operation of operations) {
    await post(gatewayUrl, operation);
    await post(floorUrl, operation);
  }
  const checks: AnswerCheck[] = [];
  for (const operation of operations) {
    const gateway = await runLogged(sandboxUrl, gatewayUrl, operation);
    const bare = await runLogged(sandboxUrl, floorUrl, operation);
    const shape = shapeDifference(gateway.data, bare.data, floorName);
    if (shape) throw new Error(`${floorName} answers ${operation.name} in another shape than the gateway: ${shape}`);
    const gatewayCalls = gateway.log.map(callKey);
    const bareCalls = bare.log.map(callKey);
    const onlyGateway = missing(gatewayCalls, bareCalls);
    const onlyBare = missing(bareCalls, gatewayCalls);
    if (gatewayCalls.length !== bareCalls.length || onlyGateway.length > 0 || onlyBare.length > 0) {
      throw new Error(
        `${floorName} makes other upstream calls than the gateway for ${operation.name}: ${bareCalls.length} against ${gatewayCalls.length}; ` +
          `only the gateway's: ${onlyGateway.slice(0, 5).join(' | ') || 'none'}; only ${floorName}'s: ${onlyBare.slice(0, 5).join(' | ') || 'none'}`,
      );
    }
    checks.push({
      name: operation.name,
      calls: gatewayCalls.length,
      gatewayRounds: roundsOf(gateway.log),
      floorRounds: roundsOf(bare.log),
    });
  }
  return checks;
}

/** A floor (bare Yoga, the stack floor): per screen its req/s, CPU and bytes per operation at c=50 (by default); its process's peak RSS over them all. */
export interface BareFloor {
  screens: ScreenCpu[];
  /** The kernel's high-water mark of the floor server's resident set over its screens (VmHWM), MB. */
  peakRssMb: number;
  /** Its JS heap right after a full collection taken mid-load at c=50, the largest over the screens, MB (where measured). */
  liveHeapMb?: number;
}

async function measureFloorCpu(floor: ServerProcess, load: LoadGenerator, options: CpuMeasureOptions): Promise<BareFloor> {
  const screens = await measureScreensCpu(floor, load, options);
  return { screens, peakRssMb: peakRssMb(floor.pid) };
}

/** One screen at concurrency 1 through bare Yoga, beside the floor of the same calls, run for run. */
export interface BareSequential {
  name: string;
  wall: Floor['wall'];
  floor: Floor;
}

/**
 * What graphql-yoga alone adds at concurrency 1: each screen timed `runs` times through bare Yoga
 * (after a second of unmeasured runs, as the gateway's are), each run followed by the same calls
 * replayed straight to the sandbox in the same rounds (bench/floor.ts), so the two share the
 * machine's state, as the gateway's runs and theirs do. The gateway's wall time over its floor has
 * this beside it.
 */
export async function measureBareSequential(
  bare: BareYogaProcess,
  sandboxUrl: string,
  operations: readonly BenchOperation[],
  runs: number,
): Promise<BareSequential[]> {
  const results: BareSequential[] = [];
  for (const operation of operations) {
    const target = graphqlTarget(bare.graphqlUrl, operation.query, operation.variables);
    const beside = await timedBesideItsFloor(sandboxUrl, () => timeOnce(target), runs);
    results.push({ name: operation.name, wall: summarize(beside.samples), floor: beside.floor });
  }
  return results;
}

/**
 * The gateway-overhead probe (bench/overhead.ts) through bare Yoga: the one-call query at
 * `connections` against GET balance called directly with a bank token, each warmed for 1 s at the
 * same concurrency and then measured, so the gateway's overhead has graphql-yoga's own beside it.
 */
async function measureBareOneCall(bare: BareYogaProcess, load: LoadGenerator, options: CpuMeasureOptions): Promise<BareOneCall> {
  const connections = options.connections ?? 50;
  const direct = directTarget(options.sandboxUrl, await directToken(options.sandboxUrl));
  const query = graphqlTarget(bare.graphqlUrl, ONE_CALL_QUERY);
  await load.runUnwatched(direct, connections, 1);
  await load.runUnwatched(query, connections, 1);
  await waitForQuiet({ sandboxUrl: options.sandboxUrl });
  const directRun = await load.runUnwatched(direct, connections, options.seconds);
  const bareRun = await load.runUnwatched(query, connections, options.seconds);
  await waitForQuiet({ sandboxUrl: options.sandboxUrl });
  return { connections, direct: directRun, bare: bareRun };
}

// --- Standalone: npx node bench/bare-yoga.ts ------------------------------------------------------

function table(checks: AnswerCheck[], bare: ScreenCpu[], gateway: ScreenCpu[] | undefined): string {
  const header = [
    'screen',
    'calls',
    'rounds gw/bare',
    'bare req/s',
    'bare CPU ms/op',
    'bare KB/op',
    ...(gateway ? ['gateway req/s', 'gateway CPU ms/op', 'gateway KB/op', 'gateway/bare CPU'] : []),
    'errors',
  ];
  const rows = bare.map((b, i) => {
    const g = gateway?.[i];
    const c = checks[i];
    return [
      b.name,
      String(c?.calls ?? ''),
      c ? `${c.gatewayRounds}/${c.floorRounds}` : '',
      b.rps.toFixed(0),
      b.cpuMsPerOp.toFixed(2),
      b.allocatedKbPerOp.toFixed(0),
      ...(g
        ? [g.rps.toFixed(0), g.cpuMsPerOp.toFixed(2), g.allocatedKbPerOp.toFixed(0), (g.cpuMsPerOp / b.cpuMsPerOp).toFixed(1) + 'x']
        : []),
      g ? `${b.errors}/${g.errors}` : String(b.errors),
    ];
  });
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

async function main(): Promise<void> {
  const settings = readSettings();
  const progress = (message: string) => console.error(`[bare-yoga] ${message}`);
  const webhooks = { apiKey: randomBytes(16).toString('hex'), signingSecret: randomBytes(16).toString('hex') };
  const { child: sandbox, url: sandboxUrl } = await startSandboxProcess(settings.latencyMs, webhooks.signingSecret);
  let gateway: GatewayProcess | undefined;
  let bare: BareYogaProcess | undefined;
  let load: LoadGenerator | undefined;
  try {
    gateway = await GatewayProcess.start(sandboxUrl, webhooks);
    const { graphqlUrl } = gateway;
    // prepareCardsScreen and graphql read the world's graphqlUrl alone.
    const world = { graphqlUrl, sandboxUrl } as BenchWorld;
    await graphql(world, '{ balances { currency } }');
    progress(`sandbox ${sandboxUrl} (latency ${settings.latencyMs} ms), gateway pid ${gateway.pid}; issuing the cards screen's cards`);
    await prepareCardsScreen(world);
    bare = await BareYogaProcess.start(sandboxUrl, await directToken(sandboxUrl), gateway.flags);
    progress(
      `bare Yoga ${bare.graphqlUrl} (pid ${bare.pid}, ${bare.flags.join(' ')}, pool ${JSON.stringify(gatewayPoolOptions(sandboxUrl))})`,
    );
    const checks = await checkSameAnswers(graphqlUrl, bare.graphqlUrl, sandboxUrl);
    progress(`same answers and calls: ${checks.map((c) => `${c.name} ${c.calls} calls`).join(', ')}`);
    load = await LoadGenerator.start();
    const options = { sandboxUrl, seconds: settings.seconds, connections: settings.connections };
    progress(`bare Yoga under load: c=${options.connections}, 1 s warm-up + ${options.seconds} s per screen`);
    const bareFloor = await measureFloorCpu(bare, load, options);
    let gatewayCpu: ScreenCpu[] | undefined;
    if (process.env.BARE_YOGA_GATEWAY !== 'off') {
      progress('the gateway the same way, for comparison (BARE_YOGA_GATEWAY=off skips it)');
      gatewayCpu = await measureScreensCpu(gateway, load, options);
    }
    const oneCall = await measureBareOneCall(bare, load, options);
    console.log(table(checks, bareFloor.screens, gatewayCpu));
    console.log(
      `the one-call probe at c=${oneCall.connections}: direct p50 ${oneCall.direct.latency.p50.toFixed(2)} ms, bare Yoga ${oneCall.bare.latency.p50.toFixed(2)} ms`,
    );
    console.log(
      `peak RSS: bare Yoga ${bareFloor.peakRssMb.toFixed(0)} MB, gateway ${peakRssMb(gateway.pid).toFixed(0)} MB (the gateway's includes its setup and its own screens' runs)`,
    );
  } finally {
    await load?.close();
    await bare?.close();
    await gateway?.close();
    await stopSandboxProcess(sandbox);
  }
}

if (import.meta.main) await main();
