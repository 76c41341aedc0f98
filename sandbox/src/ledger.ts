import { badRequest } from './http.ts';
import { fromCents, toCents } from './money.ts';
import type { SandboxStore } from './store.ts';
import { formatApiTime } from './time.ts';
import type { Balance, HistorySourceType, HistoryTransactionType } from './ledger-records.ts';

/**
 * Every change of a currency balance after the demo seed goes through here, so balances and
 * the balance history cannot drift apart. The history's running `balance` is the book
 * balance, available plus reserved: a reservation is not a settled movement and writes no
 * entry (the seed has nothing reserved, so its entries end at the available balance).
 * Amounts are integer cents.
 */
export interface Posting {
  currency: string;
  /** Signed; a debit includes its fee. */
  cents: number;
  feeCents: number;
  description: string;
  source_type: HistorySourceType;
  transaction_type: HistoryTransactionType;
  /** Epoch ms the entry is dated; callers post in time order. */
  at: number;
}

function insufficientFunds(currency: string): Error {
  return badRequest(`Insufficient funds in ${currency} balance`);
}

export function hasAvailable(store: SandboxStore, currency: string, cents: number): boolean {
  const balance = store.balances.get(currency);
  return balance !== undefined && toCents(balance.available_balance) >= cents;
}

/** Sets money aside for a later settlement; throws the 400 when it is not available. */
export function reserve(store: SandboxStore, currency: string, cents: number): void {
  if (!hasAvailable(store, currency, cents)) throw insufficientFunds(currency);
  const balance = balanceOf(store, currency);
  balance.available_balance = fromCents(toCents(balance.available_balance) - cents);
  balance.reserved_amount = fromCents(toCents(balance.reserved_amount) + cents);
}

/** A debit of money reserved before: it leaves the reserve, never the available balance. */
export function settleReserved(store: SandboxStore, posting: Posting): void {
  const balance = balanceOf(store, posting.currency);
  const reserved = toCents(balance.reserved_amount);
  if (posting.cents > 0 || reserved < -posting.cents) throw new Error(`reserve of ${posting.currency} does not cover ${posting.cents}`);
  balance.reserved_amount = fromCents(reserved + posting.cents);
  record(store, posting, balance);
}

/**
 * Moves the available balance; a debit it cannot cover throws and changes nothing. Returns
 * the id of the balance-history entry written.
 */
export function post(store: SandboxStore, posting: Posting): string {
  if (posting.cents < 0 && !hasAvailable(store, posting.currency, -posting.cents)) throw insufficientFunds(posting.currency);
  const balance = balanceOf(store, posting.currency);
  balance.available_balance = fromCents(toCents(balance.available_balance) + posting.cents);
  return record(store, posting, balance);
}

// A credit into a currency the user never held opens its balance, as opening an account does.
function balanceOf(store: SandboxStore, currency: string): Balance {
  let balance = store.balances.get(currency);
  if (balance === undefined) {
    balance = { currency, available_balance: 0, pending_amount: 0, reserved_amount: 0 };
    store.balances.set(currency, balance);
  }
  return balance;
}

function record(store: SandboxStore, posting: Posting, balance: Balance): string {
  const id = store.newId('bh');
  const book = toCents(balance.available_balance) + toCents(balance.reserved_amount);
  store.balanceHistory.set(id, {
    id,
    createdAt: posting.at,
    entry: {
      id,
      amount: fromCents(posting.cents),
      currency: posting.currency,
      balance: fromCents(book),
      description: posting.description,
      fee: fromCents(posting.feeCents),
      create_time: formatApiTime(posting.at),
      source_type: posting.source_type,
      transaction_type: posting.transaction_type,
    },
  });
  return id;
}
