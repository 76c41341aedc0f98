import { fromCents } from '../../money.ts';
import type { Random } from '../../random.ts';
import type { SandboxStore } from '../../store.ts';
import { DAY_MS, formatApiTime } from '../../time.ts';
import type { BalanceHistoryEntry } from '../../ledger-records.ts';

export interface LedgerAccount {
  id: string;
  currency: string;
  /** Balance of the currency before the seeded period, in currency units. */
  openingBalance: number;
  /** No activity on or after this many days ago. */
  closedDaysAgo?: number;
}

/** A settled change of a currency balance; becomes a balance history entry. */
interface Movement {
  id: string;
  currency: string;
  createdAt: number;
  /** Net change including the fee, signed, in cents. */
  cents: number;
  feeCents: number;
  description: string;
  kind: 'DEPOSIT' | 'PAYOUT' | 'CONVERSION_BUY';
}

const HISTORY_DAYS = 90;
// About three movements a week per account.
const DAILY_ACTIVITY_CHANCE = 0.42;
// Credits this recent are still clearing: PENDING, counted in pending_amount, not in history.
const PENDING_WITHIN_DAYS = 2;
const PAYERS = ['Globex Corporation', 'Initech GmbH', 'Umbrella Retail Pte Ltd', 'Stark Industries', 'Wayne Enterprises'];
const PAYEES = ['Northwind Supplies', 'Contoso Logistics', 'Tailspin Freight', 'Fabrikam Components', 'Litware Consulting'];
const CONVERSION_TARGETS = ['SGD', 'GBP', 'EUR'];

/**
 * Transactions per account, and the user's balance history across currencies, over the
 * last 90 days. Running balances are exact per currency: each entry's balance is the
 * previous one plus its amount (the amount already includes the fee; `fee` tells how much
 * of it was fee). Balances end where the history ends.
 */
export function seedLedger(store: SandboxStore, accounts: readonly LedgerAccount[], today: number, random: Random): void {
  const movements: Movement[] = [];
  const pendingCents = new Map<string, number>();
  for (const account of accounts) {
    movements.push(...accountActivity(store, account, today, random, pendingCents));
  }
  movements.push(...conversions(today, random));
  const openings = new Map(accounts.map((account) => [account.currency, Math.round(account.openingBalance * 100)]));
  const closing = recordHistory(store, movements, openings);
  for (const [currency, cents] of closing) {
    store.balances.set(currency, {
      currency,
      available_balance: fromCents(cents),
      pending_amount: fromCents(pendingCents.get(currency) ?? 0),
      reserved_amount: 0,
    });
  }
}

function accountActivity(
  store: SandboxStore,
  account: LedgerAccount,
  today: number,
  random: Random,
  pendingCents: Map<string, number>,
): Movement[] {
  const movements: Movement[] = [];
  const code = account.currency.toLowerCase();
  let balanceCents = Math.round(account.openingBalance * 100);
  let sequence = 0;
  for (let daysAgo = HISTORY_DAYS; daysAgo >= 1; daysAgo -= 1) {
    if (account.closedDaysAgo !== undefined && daysAgo <= account.closedDaysAgo) break;
    if (!random.chance(DAILY_ACTIVITY_CHANCE)) continue;
    sequence += 1;
    const suffix = `${code}_${String(sequence).padStart(4, '0')}`;
    const createdAt = today - daysAgo * DAY_MS + random.int(8 * 3600, 18 * 3600) * 1000;
    // Debits never take more than a third of the balance, so no balance goes negative.
    const maxDebit = Math.min(1_500_000, Math.floor(balanceCents / 3));
    const credit = maxDebit < 20_000 || random.chance(0.6);
    const cents = credit ? random.int(50_000, 2_500_000) : random.int(20_000, maxDebit);
    const pending = credit && daysAgo <= PENDING_WITHIN_DAYS;
    const description = credit ? `Incoming transfer from ${random.pick(PAYERS)}` : `Payout to ${random.pick(PAYEES)}`;
    store.transactions.set(`txn_${suffix}`, {
      id: `txn_${suffix}`,
      accountId: account.id,
      createdAt,
      transaction: {
        amount: fromCents(cents),
        create_time: formatApiTime(createdAt),
        description,
        currency: account.currency,
        id: `txn_${suffix}`,
        type: credit ? 'CREDIT' : 'DEBIT',
        status: pending ? 'PENDING' : 'SETTLED',
      },
    });
    if (pending) {
      pendingCents.set(account.currency, (pendingCents.get(account.currency) ?? 0) + cents);
      continue;
    }
    // Incoming SWIFT-style deposits sometimes carry a fee; every payout does.
    const feeCents = credit ? (random.chance(0.25) ? 1_500 : 0) : random.pick([500, 1_000, 2_500]);
    const net = credit ? cents - feeCents : -(cents + feeCents);
    balanceCents += net;
    movements.push({
      id: `bh_${suffix}`,
      currency: account.currency,
      createdAt,
      cents: net,
      feeCents,
      description,
      kind: credit ? 'DEPOSIT' : 'PAYOUT',
    });
  }
  return movements;
}

/**
 * Conversions into the other currencies every twelve days, funded from outside the seeded
 * currencies, so only the buy leg is listed. Conversions made through the API (and the
 * demo ones of the fx domain) write both legs, the debit as CONVERSION_SELL.
 */
function conversions(today: number, random: Random): Movement[] {
  const movements: Movement[] = [];
  for (let daysAgo = 86, index = 0; daysAgo >= 1; daysAgo -= 12, index += 1) {
    const currency = CONVERSION_TARGETS[index % CONVERSION_TARGETS.length] ?? 'SGD';
    const createdAt = today - daysAgo * DAY_MS + random.int(10 * 3600, 16 * 3600) * 1000;
    movements.push({
      id: `bh_conv_${String(index + 1).padStart(4, '0')}`,
      currency,
      createdAt,
      cents: random.int(500_000, 2_000_000),
      feeCents: 0,
      description: `Currency conversion into ${currency}`,
      kind: 'CONVERSION_BUY',
    });
  }
  return movements;
}

/** Writes the history in time order with running balances; returns closing balances in cents. */
function recordHistory(store: SandboxStore, movements: Movement[], openings: Map<string, number>): Map<string, number> {
  const running = new Map(openings);
  const ordered = [...movements].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  for (const movement of ordered) {
    const balance = (running.get(movement.currency) ?? 0) + movement.cents;
    running.set(movement.currency, balance);
    store.balanceHistory.set(movement.id, { id: movement.id, createdAt: movement.createdAt, entry: historyEntry(movement, balance) });
  }
  return running;
}

function historyEntry(movement: Movement, balanceCents: number): BalanceHistoryEntry {
  const source = movement.kind === 'CONVERSION_BUY' ? 'CONVERSION' : movement.kind;
  return {
    id: movement.id,
    amount: fromCents(movement.cents),
    currency: movement.currency,
    balance: fromCents(balanceCents),
    description: movement.description,
    fee: fromCents(movement.feeCents),
    create_time: formatApiTime(movement.createdAt),
    source_type: source,
    transaction_type: movement.kind,
  };
}
