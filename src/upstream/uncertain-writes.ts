import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { entryBound } from '../platform/lru-bounds.ts';
import type { RedisTarget } from '../settings/index.ts';
import type { Logger } from '../platform/logger.ts';
import { redisCommands } from '../platform/redis-options.ts';
import { kindsChangedBy, type RecordKind } from './cache-policy.ts';
import type { UpstreamCall } from './stages/call.ts';

/**
 * Writes whose outcome is unknown (their answer was lost), remembered so that a repeat of the same
 * request under another key, which the bank then refuses (a used quote, a collection already
 * cancelled), is answered as "may have gone through" rather than as a plain rejection
 * (stages/write-outcome-stage.ts). Keyed by the request as the bank would tell it apart (caller,
 * method, path and query, body without its own request id), hashed: nothing of the request is kept.
 */
interface UncertainWrite {
  /** The x-request-id the uncertain attempt went with: the key that gets its one result. */
  idempotencyKey: string;
  /** When it was sent, ISO 8601 UTC. */
  at: string;
}

export interface UncertainWrites {
  remember(fingerprint: string, write: UncertainWrite): Promise<void>;
  find(fingerprint: string): Promise<UncertainWrite | undefined>;
  /** The uncertain attempt's outcome is known now (its key was answered): nothing to warn about. */
  forget(fingerprint: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * How long an uncertain write is remembered: a person retries within minutes; a day covers a retry
 * the next morning. The documents do not say how long the bank keeps an idempotency key ("not
 * shown"): past its own horizon a key may no longer replay, which docs/frontend.md says.
 */
const UNCERTAIN_WRITE_TTL_MS = 24 * 60 * 60 * 1000;

/** One process's memory: enough for one instance, and the fallback when the shared store is away. */
export function memoryUncertainWrites(max = 10_000): UncertainWrites {
  const writes = new LRUCache<string, UncertainWrite>({ ...entryBound(max), ttl: UNCERTAIN_WRITE_TTL_MS });
  return {
    remember: async (fingerprint, write) => void writes.set(fingerprint, write),
    find: async (fingerprint) => writes.get(fingerprint),
    forget: async (fingerprint) => void writes.delete(fingerprint),
    close: async () => undefined,
  };
}

/** A write costs one more round trip to Redis at most; a slow Redis must not hold a payment's answer. */
const COMMAND_TIMEOUT_MS = 500;

/**
 * In Redis (keys `<prefix>:<fingerprint>`, expiring with the TTL), so a retry that lands on another
 * instance, or after a restart, is still told apart. While Redis is away the stage carries on without
 * it (a repeat refused then reads as a plain rejection), and the log says so once.
 */
export function redisUncertainWrites(target: RedisTarget, prefix: string, logger: Logger): UncertainWrites {
  const { command, close } = redisCommands(target, {
    commandTimeout: COMMAND_TIMEOUT_MS,
    logger,
    what: 'uncertain writes',
    outage: 'a refused repeat of a write whose answer was lost reads as a plain rejection until it does',
  });
  const key = (fingerprint: string) => `${prefix}:${fingerprint}`;
  return {
    remember: (fingerprint, write) =>
      command(async (redis) => void (await redis.set(key(fingerprint), JSON.stringify(write), 'PX', UNCERTAIN_WRITE_TTL_MS))),
    find: (fingerprint) => command(async (redis) => parsed(await redis.get(key(fingerprint)))),
    forget: (fingerprint) => command(async (redis) => void (await redis.del(key(fingerprint)))),
    close,
  };
}

/** A value this store wrote; anything else (another version's, a hand-made key) counts as none. */
function parsed(value: string | null): UncertainWrite | undefined {
  if (value === null) return undefined;
  try {
    const write = JSON.parse(value) as Partial<UncertainWrite>;
    return typeof write.idempotencyKey === 'string' && typeof write.at === 'string'
      ? { idempotencyKey: write.idempotencyKey, at: write.at }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The request as the bank would tell a repeat of it: caller, method, path with query, body without its request id. */
export function requestFingerprint(call: UpstreamCall): string {
  const who = call.options.client ?? call.options.cacheScope ?? '';
  return createHash('sha256')
    .update(JSON.stringify([who, call.ep.method, call.path, canonical(withoutRequestId(call.body))]))
    .digest('base64url');
}

/** Document 2's create card repeats its key as the body's request_id: a repeat under another key differs there alone. */
function withoutRequestId(body: string | undefined): unknown {
  if (body === undefined) return null;
  const parsed = JSON.parse(body) as unknown;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return parsed;
  const { request_id: _ignored, ...rest } = parsed as Record<string, unknown>;
  return rest;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}

/** Where each kind of record a write changes can be looked at, in the graph's words. */
const WHERE_TO_LOOK: Partial<Record<RecordKind, string>> = {
  payouts: 'the payouts (upcomingPayouts, or payout(id:) with an id the bank gave)',
  accounts: "the account's transactions and balances (account(id:) { transactions }, balances)",
  conversions: 'the conversions (conversions)',
  quotes: 'the quote (quote(id:))',
  beneficiaries: 'the beneficiaries (beneficiaries)',
  cards: 'the cards (cards, card(id:))',
  cardholders: 'the cardholders (cardholders)',
  wallets: "the cardholder's wallets (cardholder(id:) { wallets })",
  'direct-debit': "the direct debit's or the mandate's status (directDebit(id:), globalAccount(id:) { mandates })",
};

/** What to read before anything else, for a write to `call`'s endpoint: the records it changes. */
export function whereToLook(call: UpstreamCall): string {
  const places = kindsChangedBy(call.ep)
    .map((kind) => WHERE_TO_LOOK[kind])
    .filter((place): place is string => place !== undefined);
  return places.length === 0
    ? 'Read the record back before doing anything else.'
    : `Look at ${places.join(', and ')} before doing anything else.`;
}
