import type { Address, CardholderRecord, CardholderStatus, CardholderType, Employer, Identification } from '../../domains/cardholders/types.ts';
import type {
  CardRecord,
  CardStatus,
  CardTransactionRecord,
  CardTransactionStatus,
  CardTransactionType,
  Limit,
  TransactionCount,
} from '../../domains/cards/types.ts';

/** Section 6: issuing.cardholder.pending and .ready (individual is null for a DELEGATE). */
export interface CardholderData {
  cardholder_id: string;
  email: string;
  individual: {
    address: Address;
    date_of_birth: string;
    employers: Employer[];
    identification: Identification | null;
    name: { title: string | null; first_name: string; middle_name: string | null; last_name: string; name_on_card: string };
    nationality: string | null;
  } | null;
  mobile_number: string;
  postal_address: Address | null;
  status: CardholderStatus;
  type: CardholderType;
}

export interface CardholderDeletedData {
  cardholder_id: string;
  deleted: true;
}

/**
 * issuing.card.active and .blocked: the documented fields of active, plus what links the event
 * to its card (card_id, cardholder_id, card_status). No cash withdrawal limits are kept.
 */
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

export function cardholderData(record: CardholderRecord): CardholderData {
  const individual = record.individual;
  return {
    cardholder_id: record.id,
    email: record.email,
    individual:
      individual === null
        ? null
        : {
            address: individual.address,
            date_of_birth: individual.date_of_birth,
            employers: individual.employers,
            identification: individual.identification,
            name: { ...individual.name, name_on_card: `${individual.name.first_name} ${individual.name.last_name}` },
            nationality: individual.identification?.country ?? record.country_code,
          },
    mobile_number: record.mobile_number,
    postal_address: record.postal_address,
    status: record.status,
    type: record.type,
  };
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
