import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createConnection, createServer } from 'node:net';

/**
 * Redis for tests: whether the shared one answers (127.0.0.1:6379, or REDIS_URL: tests use it with
 * key prefixes of their own and never stop it), and a redis-server of a test's own on a free port,
 * started and stopped by its PID, for the fault tests.
 */

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether redis-server is installed (the fault tests start their own). */
export const haveRedisServer = spawnSync('redis-server', ['--version']).status === 0;

export async function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) });
    socket.setTimeout(500);
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => { socket.destroy(); resolve(false); });
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

/** A redis-server of this test's own: started, stopped by PID, started again on the same port. */
export class OwnRedis {
  #process: ChildProcess | undefined;
  readonly port: number;
  constructor(port: number) {
    this.port = port;
  }
  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }
  async start(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
    this.#process = child;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
    });
  }
  /** Freezes the server: connections stay open, nothing is answered (a hung Redis). */
  pause(paused: boolean): void {
    if (this.#process?.pid) process.kill(this.#process.pid, paused ? 'SIGSTOP' : 'SIGCONT');
  }

  async stop(): Promise<void> {
    this.pause(false);
    const child = this.#process;
    this.#process = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(child.pid!, 'SIGKILL');
    await exited;
  }
}
