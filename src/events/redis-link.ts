import type { Redis } from 'ioredis';
import type { RedisTarget } from '../settings/index.ts';
import type { Logger } from '../platform/logger.ts';
import { connectRedis, describeRedisTarget, primaryAddress } from '../platform/redis-options.ts';

/**
 * The bus's two Redis connections (commands, and the blocking stream reader) and one verdict on
 * the intake's: up or down. The verdict follows the commands connection alone, the one every event
 * needs (its append, its replicas' acknowledgement): the reader reconnecting, which only delays
 * this instance's subscribers (they resume where it stopped), never turns events away, and says so
 * in lines of its own. ioredis reconnects by itself and reports every failed attempt; this turns
 * those into one warning when Redis goes away and one line when it is back, instead of a stack
 * trace per retry. Commands never wait for a connection (no offline queue) and never take longer
 * than COMMAND_TIMEOUT_MS, so nothing that depends on Redis can hang on it.
 */

export const COMMAND_TIMEOUT_MS = 500;
/** ioredis's error for a command past its commandTimeout. */
const TIMED_OUT = /^Command timed out/;
/** How long one stream read blocks waiting for new entries. */
export const READ_BLOCK_MS = 5_000;

/**
 * A connection failure in words fit for /readyz, which may be reachable from outside: ioredis's
 * messages name Redis's address (`connect ECONNREFUSED 10.0.0.5:6379`), which stays in the log only.
 */
export function withoutAddress(reason: string): string {
  return reason
    .replace(/\b(ENOTFOUND|EAI_AGAIN) \S+/g, '$1 <redis>')
    .replace(/\[[0-9a-f:.]+\](:\d+)?|(\d{1,3}\.){3}\d{1,3}(:\d+)?|[a-z0-9][\w.-]*:\d{2,5}\b/gi, '<redis>');
}

export interface RedisLink {
  readonly commands: Redis;
  readonly reader: Redis;
  /** Whether the intake's Redis answers (the commands connection is ready and its last command did not fail). */
  readonly up: boolean;
  /** Why Redis is down, and since when (epoch ms); null while up. */
  readonly down: { reason: string; since: number } | null;
  /** Resolves once both connections are ready (a command may then be tried), or the link is closed. */
  connected(): Promise<void>;
  /** A command succeeded: Redis answers. When that ends an outage, the log names the primary it answered from. */
  succeeded(): void;
  /** A command failed: Redis does not answer (for now). */
  failed(error: unknown): void;
  /** Told of every change between up and down. */
  onChange(listener: (up: boolean) => void): void;
  /** Whether the reader's connection closed since this was last asked: reading then resumes from where the stream stands. */
  readerReconnected(): boolean;
  /** The reader read: said once after reads failed. */
  readSucceeded(): void;
  /** A read (or finding where to resume) failed: said once per outage of the reader. */
  readFailed(error: unknown): void;
  close(): Promise<void>;
}

/**
 * `waitMs`: the longest a command may block on purpose (the replicas' acknowledgement, WAIT), on top
 * of COMMAND_TIMEOUT_MS. With Sentinels, both connections follow a failover: the log says which
 * primary answers when Redis is back.
 */
export function createRedisLink(target: RedisTarget, logger: Logger, waitMs = 0): RedisLink {
  const commands = connectRedis(target, { commandTimeout: COMMAND_TIMEOUT_MS + waitMs });
  // The reader's blocking read must be allowed to block; a dead connection still shows within seconds.
  const reader = connectRedis(target, { commandTimeout: READ_BLOCK_MS + 3_000 });
  const where = describeRedisTarget(target);
  const listeners: ((up: boolean) => void)[] = [];
  // Unknown until the first connection succeeds or fails: either way that first verdict is logged.
  let state: 'unknown' | 'up' | 'down' = 'unknown';
  let down: { reason: string; since: number } | null = { reason: 'not connected yet', since: Date.now() };
  let lastError = 'not connected yet';
  let everUp = false;
  let closed = false;
  let wakeConnected: (() => void)[] = [];

  const bothReady = () => commands.status === 'ready' && reader.status === 'ready';
  const change = (up: boolean) => {
    if (state === (up ? 'up' : 'down')) return;
    state = up ? 'up' : 'down';
    if (up) {
      const about = { redis: where, primary: primaryAddress(commands), downMs: down ? Date.now() - down.since : 0 };
      logger.info(about, everUp ? 'Redis is back: bank events are taken and shared with every instance again' : 'Redis connected');
      down = null;
      everUp = true;
    } else {
      down = { reason: lastError, since: Date.now() };
      logger.warn(
        { redis: where, reason: lastError },
        'Redis is unreachable: bank events are answered 503 (the bank delivers them again) until it answers',
      );
    }
    for (const listener of listeners) listener(up);
  };

  commands.on('error', (error: Error) => {
    lastError = error.message;
  });
  commands.on('close', () => {
    if (closed) return;
    // A drop is reported at once; the reconnect attempts' errors then say why it stays down.
    if (state === 'up') lastError = 'the connection was lost';
    change(false);
  });
  // The reader's own errors are its reads' failures (readFailed); ioredis reports each retry too.
  reader.on('error', () => {});
  let readerLost = false;
  let reading = true;
  reader.on('close', () => {
    readerLost = true;
  });
  for (const client of [commands, reader]) {
    client.on('ready', () => {
      if (!bothReady()) return;
      const waking = wakeConnected;
      wakeConnected = [];
      for (const wake of waking) wake();
    });
  }
  // The first refused connection is reported at once, not after ioredis's own timeouts.
  commands.once('error', () => change(false));

  return {
    commands,
    reader,
    get up() {
      return state === 'up';
    },
    get down() {
      return down;
    },
    connected: () => (closed || bothReady() ? Promise.resolve() : new Promise((resolve) => wakeConnected.push(resolve))),
    succeeded: () => change(true),
    failed: (error) => {
      lastError = error instanceof Error ? error.message : String(error);
      if (!TIMED_OUT.test(lastError) || commands.status !== 'ready') return change(false);
      // A command timed out on an open connection. After this process's event loop stalled (a
      // collection, a starved CPU), timers fire before the replies waiting in the socket are read,
      // so every command in flight "times out" at once with its answer already there: Redis is down
      // only if nothing arrives from it once those are read (the check phase comes after the poll's).
      const read = commands.stream?.bytesRead ?? 0;
      setImmediate(() => {
        if ((commands.stream?.bytesRead ?? 0) === read) change(false);
      });
    },
    onChange: (listener) => {
      listeners.push(listener);
    },
    readerReconnected: () => {
      const lost = readerLost;
      readerLost = false;
      return lost;
    },
    readSucceeded: () => {
      if (reading) return;
      reading = true;
      logger.info({ redis: where }, "the shared event log is read again: this instance's subscribers get new events");
    },
    readFailed: (error) => {
      if (!reading || closed) return;
      reading = false;
      logger.info(
        { redis: where, reason: error instanceof Error ? error.message : String(error) },
        "reading the shared event log failed: this instance's subscribers get new events once it reads again",
      );
    },
    close: async () => {
      closed = true;
      for (const wake of wakeConnected) wake();
      wakeConnected = [];
      reader.disconnect();
      await commands.quit().catch(() => commands.disconnect());
    },
  };
}
