import type {
  CardRecord,
  CardStatus,
  CardTransactionRecord,
  CardTransactionStatus,
  CardTransactionType,
  Limit,
  TransactionCount,
} from './types.ts';
import { recordDefault, type EventDefault } from '../../events/defaults.ts';

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

const cardDefault = recordDefault('card', (store) => store.cards, cardData);

export const cardEventDefaults = {
  'issuing.card.active': cardDefault,
  'issuing.card.blocked': cardDefault,
  'issuing.transaction.succeeded': recordDefault(
    'card transaction',
    (store) => store.cardTransactions,
    (record, { store }) => cardTransactionData(record, store.cards.get(record.cardId)?.cardholderId ?? ''),
  ),
} satisfies Record<string, EventDefault>;
