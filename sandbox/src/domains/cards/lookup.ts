import { badRequest, found } from '../../http.ts';
import type { RecordOf, SandboxStore } from '../../store.ts';
import type { CardRecord } from './types.ts';

// Another domain's records, named through the core (store.ts).
type CardholderRecord = RecordOf<'cardholders'>;

export function findCard(store: SandboxStore, id: string): CardRecord {
  return found(store.cards.get(id), 'Card', id);
}

/** CLOSED is final: no write changes a closed card. */
export function openCard(store: SandboxStore, id: string): CardRecord {
  return assertOpen(findCard(store, id));
}

export function assertOpen(card: CardRecord): CardRecord {
  if (card.status === 'CLOSED') throw badRequest(`Card ${card.id} is closed`);
  return card;
}

/** Section 2.4: a DELEGATE holds only non-personalized cards. */
export function assertMayHold(cardholder: CardholderRecord, personalized: boolean): void {
  if (personalized && cardholder.type === 'DELEGATE') {
    throw badRequest(`Cardholder ${cardholder.id} is a DELEGATE and can hold only non-personalized cards`);
  }
}
