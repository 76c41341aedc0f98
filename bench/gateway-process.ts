import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BenchChild } from './child-process.ts';
import type { GatewayRequest, WatchResult } from './gateway-child.ts';

export type { WatchResult };

const CHILD_PATH = fileURLToPath(new URL('./gateway-child.ts', import.meta.url));
const PACKAGE_JSON = fileURLToPath(new URL('../package.json', import.meta.url));

/**
 * The NODE_OPTIONS `npm start` gives the gateway (its heap sized for a container), read from the
 * start script itself so the benchmark measures what ships. BENCH_GATEWAY_NODE_OPTIONS, for the
 * gateway's process alone, comes after them and wins, as a NODE_OPTIONS of one's own does with
 * `npm start`.
 */
export function startHeapFlags(): string[] {
  const scripts = (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { scripts: Record<string, string> }).scripts;
  const found = /NODE_OPTIONS="([^"$]*)/.exec(scripts.start ?? '');
  if (!found) throw new Error('package.json\'s start script sets no NODE_OPTIONS="..." for the benchmark to copy');
  return [found[1]!.trim(), process.env.BENCH_GATEWAY_NODE_OPTIONS ?? ''].join(' ').split(/\s+/).filter(Boolean);
}

/** The gateway in its own process (bench/gateway-child.ts), asked over IPC. */
export class GatewayProcess {
  readonly #child: BenchChild;
  readonly flags: string[];
  readonly port: number;

  private constructor(child: BenchChild, flags: string[], port: number) {
    this.#child = child;
    this.flags = flags;
    this.port = port;
  }

  /**
   * With `cache`, the record cache is on as `npm start` has it; without, every read goes to the bank.
   * `flags`: the Node flags of its process (default: `npm start`'s, see startHeapFlags).
   */
  static async start(sandboxUrl: string, webhooks: { apiKey: string; signingSecret: string }, cache = false, flags = startHeapFlags()): Promise<GatewayProcess> {
    const child = await BenchChild.start(CHILD_PATH, "gateway's process", { ...process.env, NODE_OPTIONS: flags.join(' ') });
    try {
      const port = await child.ask<number>('start', { kind: 'start', sandboxUrl, webhooks, cache } satisfies Omit<Extract<GatewayRequest, { kind: 'start' }>, 'id'>);
      return new GatewayProcess(child, flags, port);
    } catch (error) {
      await child.close();
      throw error;
    }
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  memory(): Promise<{ rssMb: number; heapUsedMb: number; heapTotalMb: number }> {
    return this.#child.ask('memory', { kind: 'memory' });
  }

  activeSubscriptions(): Promise<number> {
    return this.#child.ask('subscriptions', { kind: 'subscriptions' });
  }

  /** Starts sampling the event loop and the concurrency limit; `stopWatch` returns what was seen. */
  startWatch(): Promise<void> {
    return this.#child.ask('watch', { kind: 'watch-start' });
  }

  stopWatch(): Promise<WatchResult> {
    return this.#child.ask('watch', { kind: 'watch-stop' });
  }

  /** Records the gateway's CPU profile from now until `stopProfile`, which writes it (a .cpuprofile for DevTools). */
  startProfile(): Promise<void> {
    return this.#child.ask('profile', { kind: 'profile-start' });
  }

  stopProfile(path: string): Promise<string> {
    return this.#child.ask('profile', { kind: 'profile-stop', path });
  }

  /** Counts the bytes the gateway allocates from now until `stopAllocations`. */
  startAllocations(): Promise<void> {
    return this.#child.ask('allocations', { kind: 'alloc-start' });
  }

  stopAllocations(): Promise<number> {
    return this.#child.ask('allocations', { kind: 'alloc-stop' });
  }

  close(): Promise<void> {
    return this.#child.close();
  }
}
