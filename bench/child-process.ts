import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import { writeHeapSnapshot } from 'node:v8';
import { AllocationCounter } from './allocations.ts';
import { collectGarbage } from './collect-garbage.ts';
import { RunProfiler } from './profiler.ts';

/**
 * A helper process of the benchmark (the gateway, the load generator, the subscribers): forked on this Node with
 * `advanced` IPC serialisation (typed arrays and NaN travel as they are), asked one request at a
 * time by id, and stopped politely (disconnect, then SIGKILL after 5 s).
 */

export type ChildReply<Result> = { id: number; result: Result; error?: undefined } | { id: number; error: string; result?: undefined };

export class BenchChild {
  readonly #child: ChildProcess;
  readonly #name: string;
  #nextId = 1;

  private constructor(child: ChildProcess, name: string) {
    this.#child = child;
    this.#name = name;
  }

  static async start(path: string, name: string, env: NodeJS.ProcessEnv = process.env): Promise<BenchChild> {
    const child = fork(path, [], {
      execPath: process.execPath,
      env,
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await once(child, 'spawn');
    return new BenchChild(child, name);
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Sends `request` with an id of its own; resolves with the child's result for that id. */
  ask<Result>(what: string, request: object): Promise<Result> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the ${this.#name} exited (${code}) during "${what}"`));
      const onMessage = (message: ChildReply<Result>) => {
        if (message.id !== id) return;
        this.#child.off('message', onMessage);
        this.#child.off('exit', onExit);
        if (message.error !== undefined) reject(new Error(`${this.#name}: "${what}" failed: ${message.error}`));
        else resolve(message.result);
      };
      this.#child.on('message', onMessage);
      this.#child.once('exit', onExit);
      this.#child.send({ id, ...request });
    });
  }

  async close(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    const exited = once(this.#child, 'exit');
    this.#child.disconnect();
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}

/**
 * A GraphQL server the benchmark loads, in a child process of its own started with `flags` (the
 * gateway, the bare Yoga floor): its port, its memory and the bytes it allocates, asked over IPC.
 * Each child answers `start` with its port, and `memory`, `live-heap`, `heap-snapshot`, `profile-start`,
 * `profile-stop`, `alloc-start` and `alloc-stop`.
 */
export class ServerProcess {
  protected readonly child: BenchChild;
  readonly flags: string[];
  readonly port: number;

  protected constructor(child: BenchChild, flags: string[], port: number) {
    this.child = child;
    this.flags = flags;
    this.port = port;
  }

  /** Forks `path` with `flags` as its NODE_OPTIONS and asks it to `start`; a child that fails to start is closed. */
  protected static async launch(path: string, name: string, flags: string[], start: object): Promise<{ child: BenchChild; port: number }> {
    const child = await BenchChild.start(path, name, { ...process.env, NODE_OPTIONS: flags.join(' ') });
    try {
      return { child, port: await child.ask<number>('start', start) };
    } catch (error) {
      await child.close();
      throw error;
    }
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get graphqlUrl(): string {
    return `http://127.0.0.1:${this.port}/graphql`;
  }

  memory(): Promise<{ rssMb: number; heapUsedMb: number; heapTotalMb: number }> {
    return this.child.ask('memory', { kind: 'memory' });
  }

  /**
   * The server's JS heap in use right after a full collection, MB: what it holds live now, without
   * the garbage V8 lets pile up between collections (which its RSS also holds). The collection
   * stops the server for a moment: ask it only where no figure is being taken.
   */
  liveHeapMb(): Promise<number> {
    return this.child.ask('live-heap', { kind: 'live-heap' });
  }

  /**
   * Writes the server's heap snapshot to `path` (a .heapsnapshot, bench/heap-snapshot.ts reads it)
   * right after a full collection, so it holds what is live; resolves with the path written. Like
   * `liveHeapMb`, it stops the server meanwhile (seconds, for a heap of 100 MB).
   */
  heapSnapshot(path: string): Promise<string> {
    return this.child.ask('heap snapshot', { kind: 'heap-snapshot', path });
  }

  /** Records the server's profiles (bench/profiler.ts) from now until `stopProfile`, which writes them. */
  startProfile(): Promise<void> {
    return this.child.ask('profile', { kind: 'profile-start' });
  }

  /** Writes `path` (.cpuprofile) and the .heapprofile beside it. */
  stopProfile(path: string): Promise<string> {
    return this.child.ask('profile', { kind: 'profile-stop', path });
  }

  /** Counts the bytes the server allocates from now until `stopAllocations`. */
  startAllocations(): Promise<void> {
    return this.child.ask('allocations', { kind: 'alloc-start' });
  }

  /** Bytes allocated since `startAllocations`. */
  stopAllocations(): Promise<number> {
    return this.child.ask('allocations', { kind: 'alloc-stop' });
  }

  close(): Promise<void> {
    return this.child.close();
  }
}

/**
 * The child's side: each request from the benchmark answered with its id (the result, or the
 * error's message), and `onDisconnect` once the benchmark goes away, after which the process exits.
 */
export function answerRequests<Request extends { id: number }>(
  answer: (request: Request) => unknown,
  onDisconnect: () => unknown = () => undefined,
): void {
  process.on('message', (request: Request) => {
    Promise.resolve()
      .then(() => answer(request))
      .then(
        (result) => process.send!({ id: request.id, result } satisfies ChildReply<unknown>),
        (error: unknown) => process.send!({ id: request.id, error: String(error) } satisfies ChildReply<unknown>),
      );
  });
  process.on('disconnect', () => {
    void Promise.resolve()
      .then(onDisconnect)
      .finally(() => process.exit(0));
  });
}

/** What a server process answers besides its `start` (ServerProcess asks them). */
type ServerChildRequest =
  | { id: number; kind: 'memory' }
  | { id: number; kind: 'live-heap' }
  | { id: number; kind: 'heap-snapshot'; path: string }
  | { id: number; kind: 'profile-start' }
  | { id: number; kind: 'profile-stop'; path: string }
  | { id: number; kind: 'alloc-start' }
  | { id: number; kind: 'alloc-stop' };

const MB = 1024 * 1024;

/**
 * The child's side of a ServerProcess that answers only what ServerProcess asks (the floors' processes):
 * `start` through `start`, which resolves with the port; its memory, its live heap and its heap snapshot; its profiles (bench/profiler.ts)
 * and its bytes allocated (bench/allocations.ts), each from its start to its stop. `onDisconnect`
 * closes what `start` opened.
 */
export function answerServerRequests<Start extends { id: number; kind: 'start' }, Other extends { id: number; kind: string } = never>(
  start: (request: Start) => Promise<number>,
  onDisconnect: () => unknown,
  other?: (request: Other) => unknown,
): void {
  const allocations = new AllocationCounter();
  const profiler = new RunProfiler();
  answerRequests(async (asked: Start | ServerChildRequest | Other): Promise<unknown> => {
    const request = asked as Start | ServerChildRequest;
    switch (request.kind) {
      case 'start':
        return start(request);
      case 'memory': {
        const usage = process.memoryUsage();
        return { rssMb: usage.rss / MB, heapUsedMb: usage.heapUsed / MB, heapTotalMb: usage.heapTotal / MB };
      }
      case 'live-heap':
        collectGarbage();
        return process.memoryUsage().heapUsed / MB;
      case 'heap-snapshot':
        collectGarbage();
        return writeHeapSnapshot(request.path);
      case 'profile-start':
        await profiler.start();
        return null;
      case 'profile-stop':
        return profiler.stop(request.path);
      case 'alloc-start':
        allocations.start();
        return null;
      case 'alloc-stop':
        return allocations.stop();
      default:
        return other?.(asked as Other);
    }
  }, onDisconnect);
}

/**
 * A floor's process (bare Yoga, the stack floor): the handler `start` makes answers HTTP on a
 * loopback port of its own, and the rest of what a ServerProcess asks is answered as
 * answerServerRequests answers it. The benchmark going away closes the server, then `close()`s
 * what `start` opened (its pool to the sandbox).
 */
export function serveOnLoopback<Start extends { id: number; kind: 'start' }>(
  start: (request: Start) => RequestListener,
  close: () => unknown,
): void {
  let server: Server | undefined;
  const listen = (request: Start) =>
    new Promise<number>((resolve, reject) => {
      const listening = createServer(start(request));
      server = listening;
      listening.once('error', reject);
      listening.listen(0, '127.0.0.1', () => {
        const address = listening.address();
        resolve(typeof address === 'object' && address ? address.port : 0);
      });
    });
  answerServerRequests(listen, () => {
    const closed = server ? new Promise<void>((resolve) => server!.close(() => resolve())) : Promise.resolve();
    server?.closeAllConnections();
    return closed.then(close);
  });
}
