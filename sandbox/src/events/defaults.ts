import { incomingDeposit } from '../domains/accounts/deposits.ts';
import type { ConversionRecord } from '../domains/fx/types.ts';
import type { PayoutRecord } from '../domains/payouts/types.ts';
import type { SandboxStore } from '../store.ts';
import type { EventName } from './catalogue.ts';
import {
  accountActiveData,
  accountSuspendedData,
  businessProfile,
  cardData,
  cardholderData,
  cardTransactionData,
  conversionScheduledData,
  conversionUpdatedData,
  depositRejectedData,
  depositSettledData,
  directDebitData,
  gaNewData,
  payoutFundedData,
  payoutScheduledData,
  topUpData,
  type Deposit,
} from './payloads/index.ts';

/**
 * Default data of events sent through POST /sandbox/events. Where the resource id names a
 * record the sandbox holds (a card, a conversion...), the data is built from it as the real
 * emission would build it; otherwise the event gets plausible demo values, or just the id
 * field where no value would be plausible. The caller's data is merged over it.
 */
interface Subject {
  store: SandboxStore;
  id: string;
  at: number;
}

type Defaults = (subject: Subject) => object;

// A conversion of 1,000 USD into EUR at the demo rate, due now.
function demoConversion(id: string, at: number): ConversionRecord {
  return {
    id,
    status: 'SCHEDULED',
    quoteId: 'quo_sandbox',
    sourceCurrency: 'USD',
    destinationCurrency: 'EUR',
    sourceAmount: 1000,
    destinationAmount: 916.32,
    rate: 0.91632,
    systemReferenceNumber: 'CNV0000000000',
    conversionAt: at,
    createdAt: at,
    createdTimeShown: true,
  };
}

const conversion =
  (status: string): Defaults =>
  ({ store, id, at }) => {
    const record = store.conversions.get(id) ?? demoConversion(id, at);
    return status === 'SCHEDULED' ? conversionScheduledData(record) : conversionUpdatedData(record, status, at);
  };

// A 1,000 USD deposit on the first ACTIVE USD account; no balance moves.
const deposit =
  (build: (deposit: Deposit) => object): Defaults =>
  ({ store, id, at }) =>
    build(incomingDeposit(store, { currency: 'USD', amount: 1000 }, id, at));

const card: Defaults = ({ store, id }) => {
  const record = store.cards.get(id);
  return record === undefined ? { card_id: id } : cardData(record);
};

const cardholder: Defaults = ({ store, id }) => {
  const record = store.cardholders.get(id);
  return record === undefined ? { cardholder_id: id } : cardholderData(record);
};

const payout =
  (build: (store: SandboxStore, record: PayoutRecord, at: number) => object): Defaults =>
  ({ store, id, at }) => {
    const record = store.payouts.get(id);
    return record === undefined ? { id } : build(store, record, at);
  };

const DEFAULTS: Record<EventName, Defaults> = {
  'account.active': ({ store }) => accountActiveData(businessProfile(store)),
  'account.submitted': () => ({}),
  'account.suspended': ({ store }) => accountSuspendedData(businessProfile(store)),
  'balance.ga.top_up': deposit((data) => topUpData(data, data.amount)),
  'conversion.cancelled': conversion('CANCELLED'),
  'conversion.overdue': conversion('OVERDUE'),
  'conversion.scheduled': conversion('SCHEDULED'),
  'conversion.settled': conversion('SETTLED'),
  'deposit.rejected': deposit(depositRejectedData),
  'deposit.settled': deposit(depositSettledData),
  // A made-up id gets a 100 GBP collection under the first demo mandate of the GB account.
  'direct_debit.status_changed': ({ store, id }) => {
    const record = store.directDebits.get(id);
    if (record !== undefined) return directDebitData(record);
    return { transaction_id: id, mandate_id: 'mdt_demo_gb_1', global_account_id: 'ga_demo_gb', status: 'NEW', amount: 100, currency: 'GBP' };
  },
  'ga.new': deposit((data) => gaNewData(data, 'NEW')),
  'issuing.card.active': card,
  'issuing.card.blocked': card,
  'issuing.cardholder.deleted': ({ id }) => ({ cardholder_id: id, deleted: true }),
  'issuing.cardholder.pending': cardholder,
  'issuing.cardholder.ready': cardholder,
  'issuing.transaction.succeeded': ({ store, id }) => {
    const record = store.cardTransactions.get(id);
    return record === undefined ? { transaction_id: id } : cardTransactionData(record, store.cards.get(record.cardId)?.cardholderId ?? '');
  },
  'payout.transfer.funding.funded': payout(payoutFundedData),
  'payout.transfer.funding.scheduled': payout((store, record) => payoutScheduledData(store, record)),
  'rfi.action_required': ({ id }) => ({ id, type: 'KYC' }),
};

// The prefix of a new resource id when the caller names none; account events are the user's.
const ID_PREFIXES: readonly [string, string][] = [
  ['conversion.', 'cnv'],
  ['issuing.cardholder.', 'chd'],
  ['issuing.card.', 'crd'],
  ['issuing.transaction.', 'ctx'],
  ['payout.', 'pay'],
  ['rfi.', 'rfi'],
  ['direct_debit.', 'ddt'],
];

export function defaultResourceId(store: SandboxStore, name: EventName, accountId: string): string {
  if (name.startsWith('account.')) return accountId;
  return store.newId(ID_PREFIXES.find(([prefix]) => name.startsWith(prefix))?.[1] ?? 'dep');
}

export function defaultData(name: EventName, subject: Subject): Record<string, unknown> {
  return DEFAULTS[name](subject) as Record<string, unknown>;
}

/**
 * Plain objects merge key by key; anything else given replaces the default. Keys are defined,
 * not assigned, so a `__proto__` key from JSON stays an ordinary key.
 */
export function mergeData(base: Record<string, unknown>, given: Record<string, unknown>): Record<string, unknown> {
  const merged = Object.fromEntries(Object.entries(base));
  for (const [key, value] of Object.entries(given)) {
    const current = Object.hasOwn(merged, key) ? merged[key] : undefined;
    const next = isPlainObject(current) && isPlainObject(value) ? mergeData(current, value) : value;
    Object.defineProperty(merged, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return merged;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
