import { cardData, cardStatusEvent } from './events.ts';
import type { WebhookEvent } from '../../events/bus.ts';
import { badRequest } from '../../http.ts';
import type { SandboxStore } from '../../store.ts';
import type { CardRecord, CardStatus } from './types.ts';

/**
 * A card's status moves, by whoever moves it (Update Card, a deleted cardholder, the control API):
 * each announced by the event Document 3 lists under "Card Status" (see cardStatusEvent).
 */

/** ACTIVE for a physical card never activated would skip its e-mailed activation code. */
export function assertMayBecome(card: CardRecord, status: CardStatus): void {
  if (status === 'ACTIVE' && !card.activated) throw badRequest(`Card ${card.id} must be activated with Activate Card first`);
}

/** Moves the card and announces it; null, with nothing changed or emitted, when it already has that status. */
export function setCardStatus(store: SandboxStore, card: CardRecord, status: CardStatus, at: number): WebhookEvent | null {
  if (card.status === status) return null;
  Object.assign(card, { status, updatedAt: at });
  return store.events.emit(cardStatusEvent(card), cardData(card), card.id, at);
}

/**
 * A deleted cardholder's cards close (Document 2, endpoint 37), each with its issuing.card.blocked:
 * the cards domain hears of the deletion, so the cardholders domain need not know cards. The
 * blocked events go out before the deletion's own delivery (deliveries follow the domains' order).
 */
export function closeCardsOfDeletedCardholder(store: SandboxStore, event: WebhookEvent, at: number): void {
  if (event.name !== 'issuing.cardholder.deleted') return;
  const { cardholder_id: cardholderId } = event.data as { cardholder_id: string };
  for (const card of store.cards.values()) {
    if (card.cardholderId === cardholderId) setCardStatus(store, card, 'CLOSED', at);
  }
}
