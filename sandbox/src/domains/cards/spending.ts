import { toCents } from '../../money.ts';
import type { SandboxStore } from '../../store.ts';
import { DAY_MS, startOfUtcDay } from '../../time.ts';
import { convertedCents } from '../../amounts.ts';
import type { CardRecord, CardTransactionRecord, FailureReason, LimitInterval } from './types.ts';

/**
 * The card spending rules, in one place: limits per interval with their remaining amounts,
 * SINGLE use, and the authorization controls (active window, currencies, merchant
 * categories). Limits count approved purchases (settled ones included) in the card
 * currency, converted to the limit currency; declined attempts and refunds do not count,
 * so a refund gives money back but not limit. Intervals are calendar periods in UTC:
 * the day, the week from Monday, the month.
 */

export interface LimitState {
  interval: LimitInterval;
  amount: number;
  /** PER_TRANSACTION: the amount itself, as it caps each transaction separately. */
  remaining: number;
}

export interface Attempt {
  /** In the card currency. */
  billingCents: number;
  transactionCurrency: string;
  merchantCategory: string;
  at: number;
}

/** The checks of an authorization before funds, in the contract's order; null: none failed. */
export function declineReason(store: SandboxStore, card: CardRecord, attempt: Attempt): FailureReason | null {
  if (card.status !== 'ACTIVE') return 'CARD_INACTIVE';
  if (!allowed(card, attempt)) return 'TRANSACTION_NOT_ALLOWED';
  if (card.controls.allowedTransactionCount === 'SINGLE' && approvedPurchases(store, card.id).length > 0) return 'CARD_USAGE_EXCEEDED';
  const wanted = convertedCents(attempt.billingCents, card.currency, card.controls.limitCurrency);
  const exceeded = limitStates(store, card, attempt.at).some((limit) => wanted > toCents(limit.remaining));
  return exceeded ? 'LIMIT_EXCEEDED' : null;
}

export function limitStates(store: SandboxStore, card: CardRecord, at: number): LimitState[] {
  return card.controls.limits.map(({ interval, amount }) => {
    const since = windowStart(interval, at);
    if (since === null) return { interval, amount, remaining: amount };
    const spent = convertedCents(spentCents(store, card.id, since, at), card.currency, card.controls.limitCurrency);
    return { interval, amount, remaining: Math.max(0, toCents(amount) - spent) / 100 };
  });
}

// The broadest interval the card has is its overall limit; 0 when it has none.
const BREADTH: readonly LimitInterval[] = ['ALL_TIME', 'MONTHLY', 'WEEKLY', 'DAILY', 'PER_TRANSACTION'];

/** Detail's card_limit: the amount of the card's broadest limit (the sandbox's reading). */
export function cardLimit(card: CardRecord): number {
  for (const interval of BREADTH) {
    const limit = card.controls.limits.find((candidate) => candidate.interval === interval);
    if (limit !== undefined) return limit.amount;
  }
  return 0;
}

function allowed(card: CardRecord, attempt: Attempt): boolean {
  const { activeFrom, activeTo, allowedCurrencies, allowedMerchantCategories } = card.controls;
  if (activeFrom !== null && attempt.at < Date.parse(activeFrom)) return false;
  if (activeTo !== null && attempt.at > Date.parse(activeTo)) return false;
  if (allowedCurrencies.length > 0 && !allowedCurrencies.includes(attempt.transactionCurrency)) return false;
  return allowedMerchantCategories.length === 0 || allowedMerchantCategories.includes(attempt.merchantCategory);
}

/** Purchases that went through (APPROVED, later SETTLED). */
function approvedPurchases(store: SandboxStore, cardId: string): CardTransactionRecord[] {
  return [...store.cardTransactions.values()].filter(
    ({ cardId: owner, transaction }) =>
      owner === cardId && transaction.transaction_type === 'PURCHASE' && transaction.status !== 'DECLINED',
  );
}

function spentCents(store: SandboxStore, cardId: string, since: number, until: number): number {
  return approvedPurchases(store, cardId)
    .filter((record) => record.createdAt >= since && record.createdAt <= until)
    .reduce((sum, record) => sum + toCents(record.transaction.billing_amount), 0);
}

/** Start of the interval's current period; null for PER_TRANSACTION, which has none. */
function windowStart(interval: LimitInterval, at: number): number | null {
  const day = startOfUtcDay(at);
  const date = new Date(at);
  switch (interval) {
    case 'PER_TRANSACTION':
      return null;
    case 'DAILY':
      return day;
    case 'WEEKLY':
      return day - ((date.getUTCDay() + 6) % 7) * DAY_MS;
    case 'MONTHLY':
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
    case 'ALL_TIME':
      return 0;
  }
}
