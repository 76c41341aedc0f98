/** A floor stands for the gateway's screens only while it answers them as the gateway does: the same JSON shape, the same upstream calls. */

import { request } from 'undici';
import type { RequestLogEntry } from '@banking-gateway/sandbox';
import { graphqlTarget } from './load.ts';
import { OPERATIONS, type BenchOperation } from './operations.ts';
import { roundsOf } from './rounds.ts';
import { upstreamLog, waitForQuiet } from './setup.ts';

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

/** A server's answer to one screen as it sent it: its status and its body's text. */
export async function answerOf(graphqlUrl: string, operation: BenchOperation): Promise<{ status: number; text: string }> {
  const target = graphqlTarget(graphqlUrl, operation.query, operation.variables);
  const response = await request(target.url, { method: 'POST', headers: target.headers, body: target.body! });
  return { status: response.statusCode, text: await response.body.text() };
}

async function post(graphqlUrl: string, operation: BenchOperation): Promise<unknown> {
  const { status, text } = await answerOf(graphqlUrl, operation);
  const body = JSON.parse(text) as { data?: unknown; errors?: unknown };
  if (status !== 200 || body.errors || !body.data) {
    throw new Error(`${operation.name} at ${graphqlUrl}: HTTP ${status} ${text.slice(0, 500)}`);
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
