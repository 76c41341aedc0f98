import type { CardRecord, CardStatus, CardTransactionRecord, CardTransactionStatus, CardTransactionType, Limit, TransactionCount } from './types.ts';
import type { EventDefault } from '../../events/defaults.ts';
import type { WebhookEvent } from '../../events/bus.ts';
import type { SandboxStore } from '../../store.ts';

/** The card events of Document 3, section 6, and their data. */
declare module '../../events/bus.ts' {
  interface EventPayloads {
    'issuing.card.active': CardData;
    'issuing.card.blocked': CardData;
    'issuing.transaction.succeeded': CardTransactionData;
  }
}

export interface CardData {
  activate_on_issue: boolean | null;
  additional_cardholder_ids: string[] | null;
  authorization_controls: {
    active_from: string | null;
    active_to: string | null;
    allowed_currencies: string[];
    allowed_merchant_categories: string[];
    allowed_transaction_count: TransactionCount;
    transaction_limits: { currency: string; limits: Limit[]; cash_withdrawal_limits: Limit[] };
  };
  card_id: string;
  cardholder_id: string;
  card_status: CardStatus;
}

/** issuing.transaction.succeeded ("not shown" in the document: the sandbox's fields). */
export interface CardTransactionData {
  card_id: string;
  cardholder_id: string;
  transaction_id: string;
  transaction_type: CardTransactionType;
  transaction_amount: number;
  transaction_currency: string;
  status: CardTransactionStatus;
  merchant: { name: string; category_code: string };
  transaction_date: string;
}

/** active for an ACTIVE card, blocked for an INACTIVE or CLOSED one. */
export function cardStatusEvent(card: CardRecord): 'issuing.card.active' | 'issuing.card.blocked' {
  return card.status === 'ACTIVE' ? 'issuing.card.active' : 'issuing.card.blocked';
}

export function cardData(card: CardRecord): CardData {
  const { controls } = card;
  return {
    // A virtual card is active from issue; a physical one waits for its activation code.
    activate_on_issue: card.type === 'VIRTUAL',
    additional_cardholder_ids: [],
    authorization_controls: {
      active_from: controls.activeFrom,
      active_to: controls.activeTo,
      allowed_currencies: [...controls.allowedCurrencies],
      allowed_merchant_categories: [...controls.allowedMerchantCategories],
      allowed_transaction_count: controls.allowedTransactionCount,
      transaction_limits: {
        currency: controls.limitCurrency,
        limits: controls.limits.map(({ amount, interval }) => ({ amount, interval })),
        cash_withdrawal_limits: [],
      },
    },
    card_id: card.id,
    cardholder_id: card.cardholderId,
    card_status: card.status,
  };
}

export function cardTransactionData(record: CardTransactionRecord, cardholderId: string): CardTransactionData {
  const { transaction } = record;
  return {
    card_id: record.cardId,
    cardholder_id: cardholderId,
    transaction_id: record.id,
    transaction_type: transaction.transaction_type,
    transaction_amount: transaction.transaction_amount,
    transaction_currency: transaction.transaction_currency,
    status: transaction.status,
    merchant: { name: transaction.merchant.name, category_code: transaction.merchant.category_code },
    transaction_date: transaction.transaction_date,
  };
}

const cardDefault: EventDefault = {
  idPrefix: 'crd',
  data: ({ store, id }) => {
    const record = store.cards.get(id);
    return record === undefined ? { card_id: id } : cardData(record);
  },
};

export const cardEventDefaults = {
  'issuing.card.active': cardDefault,
  'issuing.card.blocked': cardDefault,
  'issuing.transaction.succeeded': {
    idPrefix: 'ctx',
    data: ({ store, id }) => {
      const record = store.cardTransactions.get(id);
      return record === undefined ? { transaction_id: id } : cardTransactionData(record, store.cards.get(record.cardId)?.cardholderId ?? '');
    },
  },
} satisfies Record<string, EventDefault>;

/**
 * A deleted cardholder's cards close (Document 2, endpoint 37), each with its issuing.card.blocked:
 * the cards domain hears of the deletion, so the cardholders domain need not know cards. The
 * blocked events go out before the deletion's own delivery (deliveries follow the domains' order).
 */
export function closeCardsOfDeletedCardholder(store: SandboxStore, event: WebhookEvent, at: number): void {
  if (event.name !== 'issuing.cardholder.deleted') return;
  const { cardholder_id: cardholderId } = event.data as { cardholder_id: string };
  for (const card of store.cards.values()) {
    if (card.cardholderId !== cardholderId || card.status === 'CLOSED') continue;
    Object.assign(card, { status: 'CLOSED', updatedAt: at });
    store.events.emit('issuing.card.blocked', cardData(card), card.id, at);
  }
}
