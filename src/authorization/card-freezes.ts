import { randomUUID } from 'node:crypto';
import type { Logger } from '../platform/logger.ts';
import { PermissionDeniedError } from './permissions.ts';
import { UpstreamRejectedError } from '../upstream/errors.ts';
import { memoryCardFreezeStore, redisCardFreezeStore, type CardFreezeStore } from './card-freeze-store.ts';
import type { RedisTarget } from '../settings/index.ts';

/**
 * A cardholder lifts only its own freeze. The bank's card record does not say who set its status
 * (Document 2: PATCH /card takes updated_by, no read returns it), so the gateway keeps, per card, the
 * origin of the last status change made through it:
 * - `cardholder`: the bound cardholder made the card INACTIVE itself (recorded once the bank
 *   accepted the freeze, and only when the card was ACTIVE before it: freezing a blocked card does
 *   not make the block its own);
 * - `other`: anyone else changed its status (an admin's or a card manager's block, reactivation or
 *   closing; an activation), or the cardholder lifted its own freeze;
 * - nothing: the gateway never changed it, or forgot (a restart without Redis).
 *
 * The rule, in `mayLift`: a bound cardholder makes its card ACTIVE again only over its own freeze.
 * Everything else (a block by someone else, the bank or the card network, no record, the store not
 * answering) refuses it, decided from the store alone before anything is sent to the bank.
 * Freezing is never refused: a stolen card must be freezable whatever the store says.
 */
export interface CardFreezes {
  /** A bound cardholder's freeze: always sent; its own freeze once the bank accepted it, if `wasActive` said the card was ACTIVE. */
  freeze<T>(cardId: string, cardholderId: string, wasActive: () => Promise<boolean>, send: () => Promise<T>): Promise<T>;
  /** A bound cardholder making its card ACTIVE (`unfreeze` by cardUpdate, or `activation`): sent only when `mayLift`, else FreezeNotOwnError. */
  lift<T>(cardId: string, cardholderId: string, how: Lift, send: () => Promise<T>): Promise<T>;
  /** Anyone else changing the card's status: the origin is `other` before it is sent, and again once the bank took it. */
  change<T>(cardId: string, status: 'ACTIVE' | 'INACTIVE' | 'CLOSED', send: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

type Lift = 'unfreeze' | 'activation';

/** The answer to a cardholder lifting a freeze that is not its own: the mutation's Forbidden result. */
class FreezeNotOwnError extends PermissionDeniedError {
  constructor() {
    super('cards:write', 'reactivating a card');
    this.message =
      'Forbidden: this card was made inactive by someone other than its cardholder (or the gateway holds no record that its cardholder froze it): a card manager must reactivate it';
  }
}

/**
 * An activation (cardActivate) makes a physical card usable for the first time: with no origin
 * recorded, the card is taken for one awaiting it (the bank's record does not say whether a card
 * was ever activated). Setting ACTIVE by cardUpdate always needs the cardholder's own freeze: a
 * never-activated card has none, so activation stays the only way to a card's first use.
 */
function mayLift(origin: Origin | null | typeof UNKNOWN, cardholderId: string, how: Lift): boolean {
  if (origin === UNKNOWN) return false;
  if (origin === null) return how === 'activation';
  return origin.by === 'cardholder' && origin.cardholderId === cardholderId;
}

type Origin = { by: 'cardholder'; cardholderId: string; at: string } | { by: 'other'; at: string; change: string };

const UNKNOWN: unique symbol = Symbol('the store did not answer');

/** Each `other` is unique, so a cardholder's freeze recorded "if nothing changed since" sees any change in between. */
const otherChange = (): string => JSON.stringify({ by: 'other', at: new Date().toISOString(), change: randomUUID() } satisfies Origin);
const ownFreeze = (cardholderId: string): string =>
  JSON.stringify({ by: 'cardholder', cardholderId, at: new Date().toISOString() } satisfies Origin);

/** A value the gateway did not write reads as someone else's change: never as a cardholder's freeze. */
function originOf(value: string): Origin {
  try {
    const origin = JSON.parse(value) as Partial<Origin>;
    if (origin.by === 'cardholder' && typeof origin.cardholderId === 'string') return origin as Origin;
  } catch {
    // Fall through.
  }
  return { by: 'other', at: '', change: value };
}

export interface CardFreezesOptions {
  logger: Logger;
  /** Set: origins live in Redis, shared by every instance and kept across restarts. */
  redis?: RedisTarget | undefined;
  /** Names the Redis keys (default `card-freezes`): instances that share freezes share it; tests isolate themselves with it. */
  keyPrefix?: string | undefined;
}

export function createCardFreezes(options: CardFreezesOptions): CardFreezes {
  const store = options.redis
    ? redisCardFreezeStore(options.redis, options.keyPrefix ?? 'card-freezes', options.logger)
    : memoryCardFreezeStore();
  return cardFreezesOver(store, options.logger);
}

function cardFreezesOver(store: CardFreezeStore, logger: Logger): CardFreezes {
  const unsaved = unsavedChanges(store, logger);
  // What this instance could not save counts first: it refuses the cardholder until the store has it.
  const read = async (cardId: string): Promise<string | null | typeof UNKNOWN> =>
    unsaved.get(cardId) ?? store.get(cardId).catch((): typeof UNKNOWN => UNKNOWN);
  const originAt = async (cardId: string): Promise<{ value: string | null | typeof UNKNOWN; origin: Origin | null | typeof UNKNOWN }> => {
    const value = await read(cardId);
    return { value, origin: typeof value === 'string' ? originOf(value) : value };
  };
  // An origin that cannot be read may be a cardholder's freeze.
  const mayBeOwnFreeze = async (cardId: string) => {
    const { origin } = await originAt(cardId);
    return origin === UNKNOWN || origin?.by === 'cardholder';
  };

  return {
    freeze: async (cardId, cardholderId, wasActive, send) => {
      const before = await read(cardId);
      // A read that fails leaves no own freeze behind, and stops no freeze.
      const active = before !== UNKNOWN && (await wasActive().catch(() => false));
      const result = await send();
      // Only if nothing changed the origin meanwhile: a block made while this freeze was under way
      // wrote `other` before and after its own call, so it is never recorded over.
      if (active) await store.replace(cardId, before, ownFreeze(cardholderId)).catch(() => false);
      return result;
    },

    lift: async (cardId, cardholderId, how, send) => {
      const { value, origin } = await originAt(cardId);
      if (!mayLift(origin, cardholderId, how)) throw new FreezeNotOwnError();
      if (origin === null) {
        const result = await send();
        await unsaved.save(cardId);
        return result;
      }
      // Its own freeze is used up before the unfreeze is sent, in one step: two phones, or two
      // instances, cannot both lift it, and a stale one cannot outlive the card's next change.
      const consumed = otherChange();
      if (!(await store.replace(cardId, value as string, consumed).catch(() => false))) throw new FreezeNotOwnError();
      try {
        return await send();
      } catch (error) {
        // The bank said no: nothing changed, the freeze is still the cardholder's own. Any other
        // failure may have been applied all the same, so the freeze stays used up (fail closed).
        if (error instanceof UpstreamRejectedError) await store.replace(cardId, consumed, value as string).catch(() => false);
        throw error;
      }
    },

    change: async (cardId, status, send) => {
      // A block or a close always goes out, and `other` is written first, so a cardholder's freeze
      // recorded earlier never outlives it. A reactivation or activation replaces only a
      // cardholder's freeze: one refused by the bank must not cost a new card its activation by phone.
      if (status !== 'ACTIVE' || (await mayBeOwnFreeze(cardId))) await unsaved.save(cardId);
      const result = await send();
      await unsaved.save(cardId);
      return result;
    },

    close: async () => {
      unsaved.stop();
      await store.close();
    },
  };
}

/** Retry of the `other` origins the store would not take: until it does, this instance reads them first. */
const RETRY_MS = 1_000;

/**
 * Writing `other` for someone else's change (`save`) never stops the change: a block must go out
 * whatever the store does. When the store does not take it, this instance keeps it, answers from
 * it, and writes it again every RETRY_MS until the store takes it. Until then another instance may
 * still read an older freeze of the cardholder's; the error log says which card, for the operator.
 */
function unsavedChanges(store: CardFreezeStore, logger: Logger) {
  const values = new Map<string, string>();
  let timer: NodeJS.Timeout | undefined;
  const retry = async () => {
    for (const [cardId, value] of values) {
      if (
        await store.set(cardId, value).then(
          () => true,
          () => false,
        )
      ) {
        if (values.get(cardId) === value) values.delete(cardId);
        logger.info({ cardId }, 'card freezes: a status change kept in this instance is now in the store');
      }
    }
    if (values.size === 0) stop();
  };
  const stop = () => {
    clearInterval(timer);
    timer = undefined;
  };
  return {
    get: (cardId: string) => values.get(cardId),
    save: async (cardId: string) => {
      const value = otherChange();
      try {
        await store.set(cardId, value);
        values.delete(cardId);
      } catch (error) {
        values.set(cardId, value);
        logger.error(
          { cardId, reason: (error as Error).message },
          'card freezes: a status change could not be stored; this instance refuses the cardholder to lift it and retries',
        );
        timer ??= setInterval(() => void retry(), RETRY_MS).unref();
      }
    },
    stop,
  };
}
