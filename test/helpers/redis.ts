import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { until } from './wait.ts';

/**
 * Redis for tests: whether the shared one answers (127.0.0.1:6379, or REDIS_URL: tests use it with
 * key prefixes of their own and never stop it), and a redis-server of a test's own on a free port,
 * started and stopped by its PID, for the fault tests; and a primary with a replica watched by three
 * Sentinels (SentinelSet), for the failover test.
 */

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether redis-server is installed (the fault tests start their own). */
export const haveRedisServer = spawnSync('redis-server', ['--version']).status === 0;

export async function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) });
    socket.setTimeout(500);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts redis-server with `args` and resolves once its output shows `ready` (it is stopped by its PID). */
async function spawnRedis(args: string[], ready: string): Promise<ChildProcess> {
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(ready)) resolve();
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
  });
  // Past start-up its output is not read: drained, so a full pipe never stalls it.
  child.stdout.resume();
  return child;
}

async function kill(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(child.pid!, 'SIGKILL');
  await exited;
}

/** A redis-server of this test's own: started, stopped by PID, started again on the same port. */
export class OwnRedis {
  #process: ChildProcess | undefined;
  #directory: string | undefined;
  readonly port: number;
  constructor(port: number) {
    this.port = port;
  }
  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }
  /** `extra`: more redis-server arguments (`--replicaof 127.0.0.1 <port>` for a replica). */
  async start(extra: string[] = []): Promise<void> {
    // Its own directory: a replica writes the primary's snapshot to disk during a full sync, whatever `--save` says.
    this.#directory ??= mkdtempSync(join(tmpdir(), `redis-${this.port}-`));
    this.#process = await spawnRedis(
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.#directory, ...extra],
      'Ready to accept connections',
    );
  }
  /** Freezes the server: connections stay open, nothing is answered (a hung Redis). */
  pause(paused: boolean): void {
    if (this.#process?.pid) process.kill(this.#process.pid, paused ? 'SIGSTOP' : 'SIGCONT');
  }

  /** SIGKILL: no goodbye to clients or replicas, as a machine that dies. */
  async stop(): Promise<void> {
    this.pause(false);
    const child = this.#process;
    this.#process = undefined;
    await kill(child);
  }

  /** Stops it and removes its directory. */
  async remove(): Promise<void> {
    await this.stop();
    if (this.#directory) rmSync(this.#directory, { recursive: true, force: true });
    this.#directory = undefined;
  }
}

/** One command on a connection of its own that fails at once rather than retrying. */
export async function askRedis<T>(port: number, use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    connectTimeout: 1_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

/**
 * A primary and two replicas watched by three Sentinels, all on free loopback ports, each process
 * stopped by its PID (`stop`, in afterAll). Sentinels judge a silent primary down after a second and
 * promote a replica, and point the other at it: the new primary has a replica too, so events that
 * must be on one (REDIS_MIN_REPLICAS_ACK=1) are taken again. `sentinels` and `name` are what
 * REDIS_SENTINELS and REDIS_SENTINEL_NAME say.
 */
export class SentinelSet {
  readonly name = 'gateway-test';
  readonly primary: OwnRedis;
  readonly replicas: OwnRedis[];
  readonly sentinels: { host: string; port: number }[] = [];
  readonly #sentinelProcesses: ChildProcess[] = [];
  readonly #directory = mkdtempSync(join(tmpdir(), 'sentinels-'));

  private constructor(primary: number, replicas: number[]) {
    this.primary = new OwnRedis(primary);
    this.replicas = replicas.map((port) => new OwnRedis(port));
  }

  static async start(): Promise<SentinelSet> {
    const set = new SentinelSet(await freePort(), [await freePort(), await freePort()]);
    try {
      await set.primary.start();
      for (const replica of set.replicas) {
        await replica.start(['--replicaof', '127.0.0.1', String(set.primary.port)]);
        await until(
          'a replica to be in sync',
          () => askRedis(replica.port, async (r) => (await r.info('replication')).includes('master_link_status:up')),
          { intervalMs: 100 },
        );
      }
      for (let i = 0; i < 3; i++) await set.#startSentinel(await freePort());
      // A failover needs the Sentinels to know the replicas and each other (a majority elects the leader).
      await until(
        'the Sentinels to know the replicas and each other',
        () =>
          set.#allSentinels(async (r) => {
            const fields = (await r.call('SENTINEL', 'MASTER', set.name)) as string[];
            const field = (name: string) => Number(fields[fields.indexOf(name) + 1]);
            return field('num-slaves') === set.replicas.length && field('num-other-sentinels') === 2;
          }),
        { timeoutMs: 30_000, intervalMs: 100 },
      );
      return set;
    } catch (error) {
      await set.stop();
      throw error;
    }
  }

  async #startSentinel(port: number): Promise<void> {
    const conf = join(this.#directory, `sentinel-${port}.conf`);
    writeFileSync(
      conf,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `sentinel monitor ${this.name} 127.0.0.1 ${this.primary.port} 2`,
        `sentinel down-after-milliseconds ${this.name} 1000`,
        `sentinel failover-timeout ${this.name} 3000`,
        `sentinel parallel-syncs ${this.name} 1`,
        '',
      ].join('\n'),
    );
    this.#sentinelProcesses.push(await spawnRedis([conf, '--sentinel'], '+monitor master'));
    this.sentinels.push({ host: '127.0.0.1', port });
  }

  async #allSentinels(check: (redis: Redis) => Promise<boolean>): Promise<boolean> {
    for (const { port } of this.sentinels) if (!(await askRedis(port, check))) return false;
    return true;
  }

  /** The port the Sentinels name as the primary now. */
  async primaryPort(): Promise<number> {
    const [, port] = (await askRedis(this.sentinels[0]!.port, (r) => r.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', this.name))) as [
      string,
      string,
    ];
    return Number(port);
  }

  /** Waits until the Sentinels have promoted a replica and it answers as a primary with the other replica in sync; its port. */
  async promoted(timeoutMs = 20_000): Promise<number> {
    let port = 0;
    await until(
      'a replica to be promoted, with the other following it',
      async () => {
        port = await this.primaryPort();
        if (!this.replicas.some((replica) => replica.port === port)) return false;
        const info = await askRedis(port, (r) => r.info('replication'));
        return info.includes('role:master') && /slave\d+:.*state=online/.test(info);
      },
      { timeoutMs, intervalMs: 100 },
    );
    return port;
  }

  /** The primary and the replicas it started with, whichever role each has now. */
  get nodes(): OwnRedis[] {
    return [this.primary, ...this.replicas];
  }

  /** The node the Sentinels name as the primary now. */
  async currentPrimary(): Promise<OwnRedis> {
    const port = await this.primaryPort();
    return this.nodes.find((node) => node.port === port)!;
  }

  /**
   * Starts a stopped node again as a replica of the primary on `primaryPort`, and waits until the
   * primary has every node in sync and the Sentinels count them all as replicas no longer down: the
   * set is whole again, ready for another failover.
   */
  async rejoin(node: OwnRedis, primaryPort: number, timeoutMs = 30_000): Promise<void> {
    await node.start(['--replicaof', '127.0.0.1', String(primaryPort)]);
    await until(
      'the set to be whole again',
      async () => {
        const info = await askRedis(primaryPort, (r) => r.info('replication'));
        if ((info.match(/slave\d+:.*state=online/g) ?? []).length !== this.replicas.length) return false;
        return this.#allSentinels(async (r) => {
          const replicas = (await r.call('SENTINEL', 'REPLICAS', this.name)) as string[][];
          const flags = replicas.map((fields) => fields[fields.indexOf('flags') + 1] ?? '');
          return flags.length === this.replicas.length && flags.every((flag) => !/s_down|o_down|disconnected/.test(flag));
        });
      },
      { timeoutMs, intervalMs: 100 },
    );
  }

  /**
   * Counts the promotions the Sentinels make from now on (`+promoted-slave`, which only the Sentinel
   * that performs a failover announces): a starved machine may see the new primary judged down too.
   */
  async countPromotions(): Promise<{ count(): number; close(): void }> {
    let promoted = 0;
    // Every Sentinel announces each failover's +switch-master (old and new address alike): the
    // distinct ones count failovers too, where a loaded machine lost the leader's +promoted-slave.
    const switches = new Set<string>();
    const listeners = this.sentinels.map(({ host, port }) => new Redis({ host, port, maxRetriesPerRequest: 0 }));
    for (const listener of listeners) {
      listener.on('error', () => {});
      listener.on('message', (channel: string, message: string) =>
        channel === '+promoted-slave' ? (promoted += 1) : switches.add(message),
      );
      await listener.subscribe('+promoted-slave', '+switch-master');
    }
    return { count: () => Math.max(promoted, switches.size), close: () => listeners.forEach((listener) => listener.disconnect()) };
  }

  /** Stops the Sentinel at `index` (by its PID); the others carry on. */
  async stopSentinel(index: number): Promise<void> {
    await kill(this.#sentinelProcesses[index]);
  }

  async stop(): Promise<void> {
    for (const child of this.#sentinelProcesses.splice(0)) await kill(child);
    await this.primary.remove();
    for (const replica of this.replicas) await replica.remove();
    rmSync(this.#directory, { recursive: true, force: true });
  }
}
