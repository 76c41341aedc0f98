import type { RedisTarget } from '../settings/index.ts';
import type { Logger } from '../platform/logger.ts';
import { redisCommands } from '../platform/redis-options.ts';

/**
 * Where the origin of each card's last status change through the gateway is kept (card-freezes.ts
 * decides what it means): one value per card id, written whole. With REDIS_URL, in Redis, so every
 * instance and every restart reads the same; without, in this process (a restart forgets it). The
 * values never expire: an origin that vanished would read as "unknown", which refuses the cardholder
 * (safe), but a block must not depend on a TTL to hold, so nothing is left to one.
 *
 * Every method throws when the store cannot answer (Redis away, slow or not yet connected): the
 * caller decides what an unknown origin means.
 */
export interface CardFreezeStore {
  /** The card's value, or null when the store holds none. */
  get(cardId: string): Promise<string | null>;
  set(cardId: string, value: string): Promise<void>;
  /** Writes `value` only if the card's value is still `expected` (null: none); says whether it did. */
  replace(cardId: string, expected: string | null, value: string): Promise<boolean>;
  close(): Promise<void>;
}

/** Long enough for a loaded Redis, short enough that a cardholder's phone hears "no" in time. */
const COMMAND_TIMEOUT_MS = 500;

export function memoryCardFreezeStore(): CardFreezeStore {
  const values = new Map<string, string>();
  return {
    get: async (cardId) => values.get(cardId) ?? null,
    set: async (cardId, value) => void values.set(cardId, value),
    replace: async (cardId, expected, value) => {
      if ((values.get(cardId) ?? null) !== expected) return false;
      values.set(cardId, value);
      return true;
    },
    close: async () => undefined,
  };
}

// Values are never empty, so '' stands for "none" in the comparison.
const REPLACE_SCRIPT = `
if (redis.call('GET', KEYS[1]) or '') == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2])
  return 1
end
return 0`;

/** Keys `<prefix>:<card id>`; instances that share freezes share the prefix, tests isolate themselves with it. */
export function redisCardFreezeStore(target: RedisTarget, prefix: string, logger: Logger): CardFreezeStore {
  const { command, close } = redisCommands(target, {
    commandTimeout: COMMAND_TIMEOUT_MS,
    logger,
    what: 'card freezes',
    outage: 'cardholders cannot lift freezes until it does',
  });
  const key = (cardId: string) => `${prefix}:${cardId}`;
  return {
    get: (cardId) => command((redis) => redis.get(key(cardId))),
    set: (cardId, value) => command(async (redis) => void (await redis.set(key(cardId), value))),
    replace: (cardId, expected, value) =>
      command(async (redis) => (await redis.eval(REPLACE_SCRIPT, 1, key(cardId), expected ?? '', value)) === 1),
    close,
  };
}
