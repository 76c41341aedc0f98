import type { GatewayContext } from '../context.ts';
import type { Delivery, PublishedEvent } from '../events/bus.ts';
import { keepOnly } from '../events/stream-filter.ts';

/**
 * What a caller bound to one cardholder (the mobile card app) receives on any subscription: events
 * of its own cardholder, and of its own cards; nothing else. A card event that does not name its
 * cardholder (Document 3 does not show one) is decided by reading the card through the caller's
 * own view of the bank, which holds only its cards: once per card per subscription. Every other
 * caller receives what it subscribed to.
 */
export interface EventVisibility {
  /** The sync part, for the bus's filter: undefined when the caller sees everything. */
  filter: ((event: PublishedEvent) => boolean) | undefined;
  /** The stream with the events that need a read to decide left out. */
  narrow(stream: AsyncIterableIterator<Delivery>): AsyncIterableIterator<Delivery>;
}

const EVERYTHING: EventVisibility = { filter: undefined, narrow: (stream) => stream };

export function eventVisibility(context: GatewayContext): EventVisibility {
  const cardholderId = context.caller.access.cardholderId;
  if (cardholderId === null) return EVERYTHING;
  const cardIsOwn = ownCards(context);
  const named = (event: PublishedEvent): string | null | undefined =>
    event.kind === 'cardStatus' || event.kind === 'cardTransaction' || event.kind === 'cardholderStatus' ? event.details.cardholderId : undefined;
  return {
    // Card and cardholder events that are (or may be) its own; the rest never reach the queue.
    filter: (event) => {
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
