import { cardTransactionData } from './events.ts';
import { fromCents } from '../../money.ts';
import type { SandboxStore } from '../../store.ts';
import { formatApiTime } from '../../time.ts';
import { maskedNumber } from './card-number.ts';
import type { CardRecord, CardTransactionRecord, CardTransactionStatus, CardTransactionType, FailureReason, Merchant } from './types.ts';

export interface TransactionSpec {
  type: CardTransactionType;
  status: CardTransactionStatus;
  failure: FailureReason | null;
  /** In the transaction currency. */
  amountCents: number;
  currency: string;
  /** In the card currency. */
  billingCents: number;
  merchant: Merchant;
  /** The authorization a refund refers to; it shares its lifecycle. */
  matched: CardTransactionRecord | null;
  at: number;
}

/** Writes a card transaction (section 2.3); network references are drawn from the store's generator. */
export function recordTransaction(store: SandboxStore, card: CardRecord, spec: TransactionSpec): CardTransactionRecord {
  const id = store.newId('ctx');
  const declined = spec.status === 'DECLINED';
  const record: CardTransactionRecord = {
    id,
    cardId: card.id,
    createdAt: spec.at,
    transaction: {
      acquiring_institution_identifier: store.random.digits(6),
      auth_code: declined ? null : store.random.digits(6),
      billing_amount: fromCents(spec.billingCents),
      billing_currency: card.currency,
      card_id: card.id,
      card_nickname: card.nickName,
      client_data: null,
      digital_wallet_token_id: null,
      failure_reason: spec.failure,
      lifecycle_id: spec.matched?.transaction.lifecycle_id ?? store.newId('lfc'),
      masked_card_number: maskedNumber(card),
      matched_authorizations: spec.matched === null ? [] : [spec.matched.id],
      merchant: spec.merchant,
      network_transaction_id: store.random.digits(15),
      posted_date: null,
      retrieval_ref: store.random.digits(12),
      // A decline by the card's own rules is a block; one for funds is not.
      risk_details: {
        risk_actions_performed: declined && spec.failure !== 'INSUFFICIENT_FUNDS' ? ['TRANSACTION_BLOCKED'] : [],
        risk_factors: [],
        three_dsecure_outcome: null,
      },
      status: spec.status,
      transaction_amount: fromCents(spec.amountCents),
      transaction_currency: spec.currency,
      transaction_date: formatApiTime(spec.at),
      transaction_id: id,
      transaction_type: spec.type,
    },
  };
  store.cardTransactions.set(id, record);
  if (spec.status === 'APPROVED')
    store.events.emit('issuing.transaction.succeeded', cardTransactionData(record, card.cardholderId), id, spec.at);
  return record;
}
