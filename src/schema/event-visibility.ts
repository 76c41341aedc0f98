import type { GatewayContext } from '../context.ts';
import type { Delivery, PublishedEvent } from '../events/bus.ts';
import type { EventKind, ModelledEventKind } from '../events/models.ts';
import { keepOnly } from '../events/stream-filter.ts';
import { ALL_PERMISSIONS, type Permission } from '../authorization/permissions.ts';

/**
 * What a subscriber receives of the bank's events. An event is its resource's record in another
 * form, so it needs what reading that record needs: the read permission of the resource's domain
 * (EVENT_PERMISSIONS), on every stream, `bankEvents` included (`events:read` opens that stream, not
 * the records behind its events). The rest are skipped for that subscriber, and its stream goes on.
 * Parts of a raw payload that are another domain's record are left out for a caller who may not read
 * that domain (visiblePayload).
 *
 * A caller bound to one cardholder (the mobile card app) receives, besides, only events of its own
 * cardholder and of its own cards. A card event that does not name its cardholder (Document 3 does
 * not show one) is decided by reading the card through the caller's own view of the bank, which
 * holds only its cards: once per card per subscription.
 */

/** What an event asks of its reader. */
interface EventPermission {
  /** The read permission of the domain the event's resource belongs to. */
  read: Permission;
  /** Top-level keys of the raw payload (`BankEvent.data`) that describe another domain's record, with that domain's read permission. */
  foreignParts?: Readonly<Record<string, Permission>>;
}

/** Each kind of event the gateway models, by the domain of its resource (Document 3, section 6). */
export const EVENT_PERMISSIONS: Readonly<Record<ModelledEventKind, EventPermission>> = {
  cardStatus: { read: 'cards:read' },
  // cards:read alone: the cardholder it names is an id, the one Card.cardholderUpstreamId shows every
  // cards:read caller, and the amount and merchant are the card's transaction, which cards:read
  // covers; nothing of the cardholder's own record (name, contact, identity) travels with it.
  cardTransaction: { read: 'cards:read' },
  cardholderStatus: { read: 'cardholders:read' },
  deposit: { read: 'accounts:read' },
  conversion: { read: 'fx:read' },
  // Document 3 shows the beneficiary's address and bank details, and the business's registration, in
  // these payloads: records a payout names by id only, each of its own domain.
  payoutFunding: { read: 'payouts:read', foreignParts: { beneficiary: 'beneficiaries:read', payer: 'business:read' } },
  accountStatus: { read: 'business:read' },
  rfi: { read: 'business:read' },
  directDebit: { read: 'direct-debit:read' },
};

/**
 * An event the gateway has no model for (a name the bank added, or Document 3's direct debit events,
 * whose names it does not give) may be about any domain's record: only a caller who may read every
 * domain gets it. Not never: the generic stream promises every event, and such a caller could read
 * whatever it names anyway. Derived from the table of permissions, so a new domain's read is asked too.
 */
export const UNKNOWN_EVENT_PERMISSIONS: readonly Permission[] = ALL_PERMISSIONS.filter((permission) => permission.endsWith(':read'));

function mayReadKind(kind: EventKind, permissions: ReadonlySet<Permission>): boolean {
  return kind === 'other' ? UNKNOWN_EVENT_PERMISSIONS.every((permission) => permissions.has(permission)) : permissions.has(EVENT_PERMISSIONS[kind].read);
}

/** The caller's events by their permission alone: undefined when it may read every kind. */
function permittedKinds(permissions: ReadonlySet<Permission>): ((event: PublishedEvent) => boolean) | undefined {
  const kinds: EventKind[] = [...(Object.keys(EVENT_PERMISSIONS) as ModelledEventKind[]), 'other'];
  const permitted = new Set(kinds.filter((kind) => mayReadKind(kind, permissions)));
  return permitted.size === kinds.length ? undefined : (event) => permitted.has(event.kind);
}

/**
 * An event's raw payload without the parts of other domains the caller may not read. A kind without
 * an entry ('other', or one an instance of another version put in the shared log) has no parts
 * known: only a caller who may read every kind gets such an event (permittedKinds).
 */
export function visiblePayload(event: PublishedEvent, permissions: ReadonlySet<Permission>): Record<string, unknown> {
  const parts = (EVENT_PERMISSIONS as Partial<Record<string, EventPermission>>)[event.kind]?.foreignParts;
  const hidden = Object.entries(parts ?? {}).filter(([key, permission]) => key in event.data && !permissions.has(permission));
  if (hidden.length === 0) return event.data;
  const kept = { ...event.data };
  for (const [key] of hidden) delete kept[key];
  return kept;
}

/** What one subscription lets through: what can be decided as an event is queued, and what takes a read. */
export interface EventVisibility {
  /** The sync part, for the bus's filter: undefined when the caller sees everything. */
  filter: ((event: PublishedEvent) => boolean) | undefined;
  /** The stream with the events that need a read to decide left out. */
  narrow(stream: AsyncIterableIterator<Delivery>): AsyncIterableIterator<Delivery>;
}

const unchanged = (stream: AsyncIterableIterator<Delivery>) => stream;

export function eventVisibility(context: GatewayContext): EventVisibility {
  const { cardholderId, permissions } = context.caller.access;
  const permitted = permittedKinds(permissions);
  if (cardholderId === null) return { filter: permitted, narrow: unchanged };
  const cardIsOwn = ownCards(context);
  const named = (event: PublishedEvent): string | null | undefined =>
    event.kind === 'cardStatus' || event.kind === 'cardTransaction' || event.kind === 'cardholderStatus' ? event.details.cardholderId : undefined;
  return {
    // Card and cardholder events it may read that are (or may be) its own; the rest never reach the queue.
    filter: (event) => {
      if (permitted && !permitted(event)) return false;
      const holder = named(event);
      return holder === cardholderId || (holder === null && event.kind !== 'cardholderStatus');
    },
    narrow: (stream) =>
      keepOnly(stream, (event) => {
        if (named(event) === cardholderId) return true;
        return event.kind === 'cardStatus' || event.kind === 'cardTransaction' ? cardIsOwn(event.details.cardId) : false;
      }),
  };
}

/** Whether a card is the bound caller's: its own view lists the card or does not; remembered per subscription. */
function ownCards(context: GatewayContext): (cardId: string) => Promise<boolean> {
  const known = new Map<string, boolean>();
  return async (cardId) => {
    const answer = known.get(cardId);
    if (answer !== undefined) return answer;
    try {
      const own = (await context.upstream.cards.list({ id: cardId })).length > 0;
      known.set(cardId, own);
      return own;
    } catch (error) {
      // Not known to be its own: not delivered, and said, so the gap is not silent.
      context.logger.warn({ cardId, err: error instanceof Error ? error.message : String(error) }, 'a card event was not delivered to a cardholder-bound subscriber: whose card it is could not be read');
      return false;
    }
  };
}
