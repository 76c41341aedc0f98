import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../bench/operations.ts';
import { useKit } from '../helpers/kit.ts';
import { until } from '../helpers/wait.ts';

/**
 * Issue 39: a burst of clients that all leave before their calls are sent, as an attacker (or 200
 * people closing a slow page) would, costs the bank nothing more: it receives the calls already on
 * the wire when they left and none after, however far each operation had got (queued for a slot,
 * between rounds). The clients run in a process of their own (burst-clients.ts) and leave as real
 * ones do, one connection after another while the gateway works, not all between two of its turns:
 * the reads cut for the first to go free slots while the others' leaving still waits unread on
 * their sockets, and those slots must not carry the calls of clients already gone (fair-queue.ts).
 * Read from the sandbox's request log: every call arrived before the last client left.
 */
const kit = useKit({
  listen: true,
  // Each screen makes its own calls (none joins another's on its way): the limit's worth on the
  // wire, the rest queued behind them.
  cache: false,
});

const CLIENTS = 200;
/**
 * How late the in-process sandbox may stamp a call's arrival: it stamps when its handler runs, on
 * the event loop it shares with the gateway, so a call sent before the clients left is stamped as
 * late as the loop was blocked meanwhile (seen: 16 ms, and 56 ms in a full suite). The least allowed;
 * the loop's longest delay while the clients leave is added to it. A call sent for a client already
 * gone waits for a slot behind calls that take LATENCY_MS, so it lands seconds later, not within it.
 */
const STAMP_LAG_MS = 50;
const LATENCY_MS = 3_000;
const LEAVE_AFTER_MS = 1_000;
const DASHBOARD = OPERATIONS.find((operation) => operation.operationName === 'Dashboard')!;

/** Operations the gateway has seen abandoned by their clients. */
const abandoned = async () =>
  Number(/ (\d+)$/m.exec(await kit.gateway.metrics.registry.getSingleMetricAsString('gateway_operations_abandoned_total'))?.[1] ?? 0);

const bankInFlight = async () => ((await kit.control('GET', 'capacity')) as { inFlight: number }).inFlight;
const hostLimit = () => Object.values(kit.gateway.upstream.concurrencyLimits())[0]!;
/** Nothing on its way to the bank: none in the gateway's slots or queue, none at the bank. */
const quiet = async () => hostLimit().inFlight === 0 && hostLimit().queued === 0 && (await bankInFlight()) === 0;

interface Left {
  /** Epoch ms once the last client had aborted its request. */
  leftAt: number;
  answered: number;
}

/** The burst's clients, in a process of their own; `leave()` aborts them all. */
function burst(body: unknown) {
  const script = new URL('../helpers/burst-clients.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, [script, `${kit.baseUrl}/graphql`, String(CLIENTS), JSON.stringify(body)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const report = createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
  return {
    async leave(): Promise<Left> {
      child.stdin.end('leave\n');
      const { value } = await report;
      await once(child, 'exit');
      return JSON.parse(value as string) as Left;
    },
  };
}

describe('a burst of clients that leave before their calls are sent', () => {
  it('costs the bank no call sent after the last of them left', async () => {
    await kit.control('PUT', 'latency', { ms: LATENCY_MS });
    let left: Left;
    let gatewaySawAll: number;
    const loopDelay = monitorEventLoopDelay({ resolution: 5 });
    try {
      const clients = burst({ query: DASHBOARD.query });
      await until('the burst under way, calls on the wire and queued', async () => (await bankInFlight()) > 0 && hostLimit().queued > 0, {
        timeoutMs: 30_000,
      });
      await sleep(LEAVE_AFTER_MS);
      loopDelay.enable();
      const leaving = clients.leave();
      // When the gateway had seen every client go: a client's leaving reaches it a turn after the
      // connection closes, later still on a loaded machine; what it sends after that is the waste.
      await until('the gateway to see every client go', async () => (await abandoned()) >= CLIENTS, { timeoutMs: 30_000, intervalMs: 1 });
      gatewaySawAll = Date.now();
      left = await leaving;
      loopDelay.disable();
      // Whatever the gateway still sends reaches the bank within a round trip; then all is quiet.
      await until('the gateway and the bank quiet', quiet, { timeoutMs: 30_000 });
      await sleep(LATENCY_MS);
      await until('the gateway and the bank still quiet', quiet, { timeoutMs: 30_000 });
    } finally {
      await kit.control('PUT', 'latency', { ms: 0 });
    }
    expect(left.answered).toBe(0);
    // The request log's times are the sandbox's clock: the machine's, moved by what the tests set.
    // Measured from the later of the last client leaving and the gateway having seen it.
    const lastLeft = Math.max(left.leftAt, gatewaySawAll) + (kit.sandbox.clock.now().getTime() - Date.now());
    const calls = kit.sandbox.requests();
    expect(calls.length).toBeGreaterThan(0);
    // The sandbox, in this process, stamps a call when its handler runs, which a loaded event loop
    // delays past the moment the gateway sent it: a stamp within STAMP_LAG_MS may be of a call sent before.
    const allowedLag = STAMP_LAG_MS + loopDelay.max / 1e6;
    const sentAfter = calls.filter((call) => Date.parse(call.time) > lastLeft + allowedLag);
    expect(sentAfter.map((call) => `${call.method} ${call.path}, ${Date.parse(call.time) - lastLeft} ms after`)).toEqual([]);
  });
});
