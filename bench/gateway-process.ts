import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LiveQueryConfig } from '../src/settings/index.ts';
import { ServerProcess } from './child-process.ts';
import type { CompiledDocument } from './compiled-execution.ts';
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
export class GatewayProcess extends ServerProcess {
  /**
   * With `cache`, the record cache is on as `npm start` has it; without, every read goes to the bank.
   * `flags`: the Node flags of its process (default: `npm start`'s, see startHeapFlags). `liveQueries`:
   * what differs from the LIVE_QUERY_* settings in force (by default, none).
   */
  static async start(
    sandboxUrl: string,
    webhooks: { apiKey: string; signingSecret: string },
    cache = false,
    flags = startHeapFlags(),
    liveQueries?: Partial<LiveQueryConfig>,
  ): Promise<GatewayProcess> {
    const start = { kind: 'start', sandboxUrl, webhooks, cache, ...(liveQueries ? { liveQueries } : {}) } satisfies Omit<
      Extract<GatewayRequest, { kind: 'start' }>,
      'id'
    >;
    const { child, port } = await ServerProcess.launch(CHILD_PATH, "gateway's process", flags, start);
    return new GatewayProcess(child, flags, port);
  }

  /**
   * A gateway that runs graphql-jit where it applies (bench/compiled-execution.ts), record cache off,
   * with `flags`: the benchmark's trial of compiled execution beside the gateway as shipped.
   */
  static async startCompiled(
    sandboxUrl: string,
    webhooks: { apiKey: string; signingSecret: string },
    flags: string[],
  ): Promise<GatewayProcess> {
    const start = { kind: 'start', sandboxUrl, webhooks, compiled: true } satisfies Omit<Extract<GatewayRequest, { kind: 'start' }>, 'id'>;
    const { child, port } = await ServerProcess.launch(CHILD_PATH, "compiled gateway's process", flags, start);
    return new GatewayProcess(child, flags, port);
  }

  /** The documents a compiled gateway compiled, each with what compiling cost its first request. */
  compiledDocuments(): Promise<CompiledDocument[]> {
    return this.child.ask('compiled documents', { kind: 'compiled-documents' });
  }

  activeSubscriptions(): Promise<number> {
    return this.child.ask('subscriptions', { kind: 'subscriptions' });
  }

  /** Live queries open on it (counted from the limits' check, before the first result). */
  openLiveQueries(): Promise<number> {
    return this.child.ask('live queries', { kind: 'live-queries' });
  }

  /** Starts sampling the event loop and the concurrency limit; `stopWatch` returns what was seen. */
  startWatch(): Promise<void> {
    return this.child.ask('watch', { kind: 'watch-start' });
  }

  stopWatch(): Promise<WatchResult> {
    return this.child.ask('watch', { kind: 'watch-stop' });
  }
}
