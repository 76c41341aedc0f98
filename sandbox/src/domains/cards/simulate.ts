import { badRequest } from '../../http.ts';
import { toCents } from '../../money.ts';
import { rulesOf, type Program } from '../../program.ts';
import type { SandboxStore } from '../../store.ts';
import { formatApiTime } from '../../time.ts';
import { convertedCents } from '../../amounts.ts';
import { fundsCover, moveFunds, requireWallet } from './funds.ts';
import { declineReason } from './spending.ts';
import { recordTransaction } from './transactions.ts';
import type { CardRecord, CardTransactionRecord, Merchant } from './types.ts';

/**
 * Card activity as a card network would bring it (Document 2: "card simulation endpoints:
 * not shown"; the sandbox's are under /sandbox/cards/{id}/simulate). The demo seed uses the
 * same functions, so seeded and simulated activity look alike.
 */
export interface Activity {
  program: Program;
  /** In `currency`. */
  amountCents: number;
  currency: string;
  merchant: Merchant;
  at: number;
}

/** Approved: funds debited at once and the limits' remainders reduced. Declined: nothing moves. */
export function authorize(store: SandboxStore, card: CardRecord, activity: Activity): CardTransactionRecord {
  const billingCents = convertedCents(activity.amountCents, activity.currency, card.currency);
  const attempt = {
    billingCents,
    transactionCurrency: activity.currency,
    merchantCategory: activity.merchant.category_code,
    at: activity.at,
  };
  let failure = declineReason(store, card, attempt);
  if (failure === null && !fundsCover(store, activity.program, card, billingCents)) failure = 'INSUFFICIENT_FUNDS';
  const record = recordTransaction(store, card, {
    ...activity,
    type: 'PURCHASE',
    status: failure === null ? 'APPROVED' : 'DECLINED',
    failure,
    billingCents,
    matched: null,
  });
  if (failure === null) moveFunds(store, activity.program, movement(card, 'PURCHASE', record, activity, billingCents));
  return record;
}

/** The authorization is posted: SETTLED, with its posted date. Funds moved at authorization. */
export function settle(store: SandboxStore, card: CardRecord, authorizationId: string, at: number): CardTransactionRecord {
  const authorization = purchaseOf(store, card, authorizationId);
  const { transaction } = authorization;
  if (transaction.status !== 'APPROVED') {
    throw badRequest(`Transaction ${authorizationId} is ${transaction.status}: only APPROVED authorizations settle`);
  }
  Object.assign(transaction, { status: 'SETTLED', posted_date: formatApiTime(at) });
  store.services.markWalletEntriesUpdated(store, authorizationId, at);
  return authorization;
}

/**
 * A new REFUND transaction, APPROVED, crediting the funds back. With an authorization it
 * refers to, it takes that merchant and may return at most what is left of its amount.
 */
export function refund(store: SandboxStore, card: CardRecord, activity: Activity, authorizationId: string | null): CardTransactionRecord {
  const matched = authorizationId === null ? null : purchaseOf(store, card, authorizationId);
  const billingCents = convertedCents(activity.amountCents, activity.currency, card.currency);
  if (matched !== null) assertRefundable(store, matched, billingCents);
  if (rulesOf(activity.program).funds === 'wallet') requireWallet(store, card);
  const merchant = matched?.transaction.merchant ?? activity.merchant;
  const spec = { ...activity, merchant, type: 'REFUND' as const, status: 'APPROVED' as const, failure: null, billingCents, matched };
  const record = recordTransaction(store, card, spec);
  moveFunds(store, activity.program, movement(card, 'REFUND', record, { ...activity, merchant }, billingCents));
  return record;
}

function movement(card: CardRecord, kind: 'PURCHASE' | 'REFUND', record: CardTransactionRecord, activity: Activity, cents: number) {
  return {
    card,
    kind,
    cents,
    refId: record.id,
    merchantName: activity.merchant.name,
    original: { cents: activity.amountCents, currency: activity.currency },
    at: activity.at,
  };
}

function purchaseOf(store: SandboxStore, card: CardRecord, id: string): CardTransactionRecord {
  const record = store.cardTransactions.get(id);
  if (record?.cardId !== card.id || record.transaction.transaction_type !== 'PURCHASE') {
    throw badRequest(`Transaction ${id} is not an authorization of card ${card.id}`);
  }
  if (record.transaction.status === 'DECLINED') throw badRequest(`Transaction ${id} was declined`);
  return record;
}

function assertRefundable(store: SandboxStore, authorization: CardTransactionRecord, cents: number): void {
  const refunded = [...store.cardTransactions.values()]
    .filter((record) => record.transaction.matched_authorizations.includes(authorization.id))
    .reduce((sum, record) => sum + toCents(record.transaction.billing_amount), 0);
  if (refunded + cents > toCents(authorization.transaction.billing_amount)) {
    throw badRequest(`amount exceeds what is left to refund of transaction ${authorization.id}`);
  }
}
