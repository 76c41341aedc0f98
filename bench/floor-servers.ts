/** The floors' server processes, bare Yoga (bench/bare-yoga-child.ts) and the stack floor (bench/stack-floor-child.ts), started with the gateway's identity and pool. */

import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/settings/index.ts';
import { sandboxUpstreamConfig } from '../src/start/sandbox-upstream.ts';
import type { BareIdentity, BarePoolOptions, FloorStart } from './bank-reads.ts';
import { ServerProcess } from './child-process.ts';

const BARE_YOGA_CHILD = fileURLToPath(new URL('./bare-yoga-child.ts', import.meta.url));
const STACK_FLOOR_CHILD = fileURLToPath(new URL('./stack-floor-child.ts', import.meta.url));

/**
 * The pool the gateway's benchmark process opens to the sandbox (src/upstream/bank-connection.ts, with the
 * upstream config bench/gateway-child.ts builds): as many connections as the concurrency ceiling
 * (UPSTREAM_MAX_CONCURRENCY), its keep-alive and timeouts, undici's default pipelining (1).
 */
export function gatewayPoolOptions(sandboxUrl: string, env: NodeJS.ProcessEnv = process.env): BarePoolOptions {
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
    const { child, port } = await ServerProcess.launch(BARE_YOGA_CHILD, 'bare Yoga process', nodeFlags, start);
    return new BareYogaProcess(child, nodeFlags, port);
  }
}

/** The stack floor's server in its own process (bench/stack-floor-child.ts), asked over IPC. */
export class StackFloorProcess extends ServerProcess {
  /** Started as BareYogaProcess.start is: against `sandboxUrl`, with a bank token of its own, its process run with `nodeFlags`. */
  static async start(sandboxUrl: string, token: string, nodeFlags: string[]): Promise<StackFloorProcess> {
    const { child, port } = await ServerProcess.launch(STACK_FLOOR_CHILD, 'stack floor process', nodeFlags, floorStart(sandboxUrl, token));
    return new StackFloorProcess(child, nodeFlags, port);
  }
}

/**
 * The start request of a floor's process (bench/bank-reads.ts): the sandbox at `sandboxUrl`, a bank
 * token of the floor's own, the gateway's identity and its pool's settings.
 */
function floorStart(sandboxUrl: string, token: string): Omit<FloorStart, 'id'> {
  return { kind: 'start', sandboxUrl, token, identity: sandboxIdentity(sandboxUrl), pool: gatewayPoolOptions(sandboxUrl) };
}
