import type { Redis } from 'ioredis';
import type { RedisTarget } from '../config.ts';
import type { Logger } from '../logger.ts';
import { connectRedis, describeRedisTarget, primaryAddress } from '../redis-options.ts';

/**
 * The bus's two Redis connections (commands, and the blocking stream reader) and one verdict on
 * them: up or down. ioredis reconnects by itself and reports every failed attempt; this turns those
 * into one warning when Redis goes away and one line when it is back, instead of a stack trace per
 * retry. Commands never wait for a connection (no offline queue) and never take longer than
 * COMMAND_TIMEOUT_MS, so nothing that depends on Redis can hang on it.
 */

export const COMMAND_TIMEOUT_MS = 500;
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
  /** Whether Redis answers (both connections ready and the last command did not fail). */
  readonly up: boolean;
  /** Why Redis is down, and since when (epoch ms); null while up. */
  readonly down: { reason: string; since: number } | null;
  /** Resolves once both connections are ready (a command may then be tried), or the link is closed. */
  connected(): Promise<void>;
  /**
   * A command succeeded on `via` (by default the commands connection): Redis answers. When that
   * ends an outage, the log names the primary `via` answered from.
   */
  succeeded(via?: Redis): void;
  /** A command failed: Redis does not answer (for now). */
  failed(error: unknown): void;
  /** Told of every change between up and down. */
  onChange(listener: (up: boolean) => void): void;
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
  // `answered`: the connection whose command just succeeded. Not always the commands connection: the
  // reader's read may end an outage while the other is still reconnecting, its stream still the
  // closed socket to the primary that died, whose address Node keeps (a failover's log named the dead one).
  const change = (up: boolean, answered: Redis = commands) => {
    if (state === (up ? 'up' : 'down')) return;
    state = up ? 'up' : 'down';
    if (up) {
      const about = { redis: where, primary: primaryAddress(answered), downMs: down ? Date.now() - down.since : 0 };
      logger.info(about, everUp ? 'Redis is back: bank events are taken and shared with every instance again' : 'Redis connected');
      down = null;
      everUp = true;
    } else {
      down = { reason: lastError, since: Date.now() };
      logger.warn({ redis: where, reason: lastError }, 'Redis is unreachable: bank events are answered 503 (the bank delivers them again) until it answers');
    }
    for (const listener of listeners) listener(up);
  };

  for (const client of [commands, reader]) {
    client.on('error', (error: Error) => {
      lastError = error.message;
    });
    client.on('close', () => {
      if (closed) return;
      // A drop is reported at once; the reconnect attempts' errors then say why it stays down.
      if (state === 'up') lastError = 'the connection was lost';
      change(false);
    });
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
    succeeded: (via) => change(true, via),
    failed: (error) => {
      lastError = error instanceof Error ? error.message : String(error);
      change(false);
    },
    onChange: (listener) => {
      listeners.push(listener);
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
