/**
 * The record cache's one table (docs/operations.md, "Caching bank reads", renders it): which reads
 * are kept and for how long, which kinds of record each read, write and bank event touches. Kinds
 * are coarse on purpose: an event or write drops every record of its kinds, for every user, so a
 * change can never hide behind a record id the table failed to name.
 */

export const ALL_RECORD_KINDS = [
  'accounts',
  'beneficiaries',
  'payouts',
  'fx-rates',
  'quotes',
  'conversions',
  'cards',
  'cardholders',
  'wallets',
  'kyc',
  'user',
  'direct-debit',
  'reference',
] as const;
export type RecordKind = (typeof ALL_RECORD_KINDS)[number];

/**
 * How long a kept read lives when nothing announces a change: `records` are what events and writes
 * invalidate; `rates` move with the market and no event says so; `reference` is the bank's own
 * static data (schemas, catalogues).
 */
export type TtlClass = 'records' | 'rates' | 'reference';

interface ReadPolicy {
  kinds: readonly RecordKind[];
  ttl: TtlClass;
}

const records = (...kinds: RecordKind[]): ReadPolicy => ({ kinds, ttl: 'records' });

/**
 * Reads that are kept, by endpoint name (endpoint.ts endpointName). Any other read always goes to the
 * bank; the webhook catalogue (`GET /getallwebhooks`, x-api-key only, the same for every user) has
 * its own program-wide cache (index.ts createSharedState).
 */
export const CACHED_READS: Readonly<Record<string, ReadPolicy>> = {
  'GET /svc/api/v1/account': records('accounts'),
  'GET /svc/api/v1/account/balance': records('accounts'),
  'GET /svc/api/v1/account/transactions': records('accounts'),
  'GET /svc/api/v1/account/balance/history': records('accounts'),
  'GET /svc/api/v1/transfer/beneficiarylist': records('beneficiaries'),
  'GET /svc/api/v1/transfer/beneficiarylist/{beneficiaryId}': records('beneficiaries'),
  'GET /svc/api/v1/transfer/beneficiaryschema': { kinds: ['reference'], ttl: 'reference' },
  'GET /svc/api/v1/card/cardholder': records('cardholders'),
  'GET /svc/api/v1/card': records('cards'),
  'GET /svc/api/v1/card/detail': records('cards'),
  'GET /svc/api/v1/card/transaction': records('cards'),
  'GET /api/v1/global_accounts/{accountId}': records('direct-debit'),
  'GET /api/v1/global_accounts/{accountId}/mandates': records('direct-debit'),
  'GET /api/v1/global_accounts/{accountId}/mandates/{mandateId}': records('direct-debit'),
  'GET /api/v1/direct_debits': records('direct-debit'),
  'GET /api/v1/direct_debits/{transactionId}': records('direct-debit'),
  'GET /svc/api/v1/transfer/rate': { kinds: ['fx-rates'], ttl: 'rates' },
  'GET /svc/api/v1/transfer/quotedetails': { kinds: ['quotes'], ttl: 'rates' },
  'GET /svc/api/v1/transfer/conversion/{id}': records('conversions'),
  'GET /svc/api/v1/transfer/conversionlist': records('conversions'),
  'GET /issuing/api/v1/kyc': records('kyc'),
  'GET /issuing/api/v1/kyc/rfi': records('kyc'),
  'GET /svc/api/v1/user': records('user'),
  'GET /svc/api/v1/user/rfi': records('user'),
  'GET /svc/api/v1/transfer/payout/{id}': records('payouts'),
  'GET /svc/api/v1/transfer/upcomingpayouts': records('payouts'),
  'GET /issuing/api/v1/wallet': records('wallets'),
  'GET /issuing/api/v1/wallet/history': records('wallets'),
};

/**
 * What each call that is not a kept read changes once it succeeds. Login and the webhook
 * subscription calls change no record the cache keeps. `GET .../kyc/rfi/respond` is a GET that
 * answers an RFI (Document 2, 4.4), so it counts as a write. A write missing here drops everything;
 * a GET missing here and from CACHED_READS changes nothing.
 */
export const WRITES: Readonly<Record<string, readonly RecordKind[]>> = {
  'POST /api/v1/authentication/login': [],
  'POST /svc/api/v1/account': ['accounts', 'direct-debit', 'user'],
  'DELETE /svc/api/v1/account': ['accounts', 'direct-debit', 'user'],
  'POST /svc/api/v1/transfer/beneficiary': ['beneficiaries', 'payouts'],
  'PATCH /svc/api/v1/transfer/beneficiary/{beneficiaryId}': ['beneficiaries', 'payouts'],
  'DELETE /svc/api/v1/transfer/beneficiary/{beneficiaryId}': ['beneficiaries', 'payouts'],
  'POST /svc/api/v1/card/cardholder': ['cardholders', 'cards', 'wallets', 'kyc'],
  'PATCH /svc/api/v1/card/cardholder': ['cardholders', 'cards', 'wallets', 'kyc'],
  'DELETE /svc/api/v1/card/cardholder': ['cardholders', 'cards', 'wallets', 'kyc'],
  'POST /svc/api/v1/card': ['cards', 'cardholders', 'wallets'],
  'POST /svc/api/v1/card/assign': ['cards', 'cardholders', 'wallets'],
  'POST /svc/api/v1/card/activate': ['cards', 'cardholders', 'wallets'],
  'POST /svc/api/v1/card/pin': ['cards'],
  'PATCH /svc/api/v1/card': ['cards', 'cardholders', 'wallets'],
  'POST /svc/api/v1/card/recharge': ['cards', 'cardholders', 'wallets', 'accounts'],
  'POST /api/v1/global_accounts/{accountId}/mandates/{mandateId}/cancel': ['direct-debit'],
  'POST /api/v1/direct_debits/{transactionId}/cancel': ['direct-debit', 'accounts'],
  'POST /svc/api/v1/transfer/quote': ['quotes'],
  'POST /svc/api/v1/transfer/conversion': ['conversions', 'quotes', 'accounts'],
  'GET /issuing/api/v1/kyc/rfi/respond': ['kyc', 'cardholders'],
  'POST /svc/api/v1/transfer/payout': ['payouts', 'accounts'],
  'PATCH /svc/api/v1/transfer/cancelpayout': ['payouts', 'accounts'],
  'POST /issuing/api/v1/wallet': ['wallets', 'cardholders'],
  'POST /api/subscribedwebhook': [],
  'POST /api/subscribe': [],
  'PATCH /api/subscribe': [],
  'DELETE /api/subscribe': [],
};

/** What each bank event changes (Document 3, 6), by the event name's prefix; an unknown event drops everything. */
export const EVENTS: readonly { prefix: string; kinds: readonly RecordKind[] }[] = [
  { prefix: 'issuing.card.', kinds: ['cards', 'cardholders', 'wallets'] },
  { prefix: 'issuing.transaction.', kinds: ['cards', 'wallets', 'accounts'] },
  { prefix: 'issuing.cardholder.', kinds: ['cardholders', 'cards', 'wallets', 'kyc'] },
  { prefix: 'ga.', kinds: ['accounts', 'direct-debit'] },
  { prefix: 'deposit.', kinds: ['accounts', 'direct-debit'] },
  { prefix: 'balance.', kinds: ['accounts', 'direct-debit'] },
  { prefix: 'conversion.', kinds: ['conversions', 'quotes', 'accounts'] },
  { prefix: 'payout.', kinds: ['payouts', 'accounts'] },
  { prefix: 'account.', kinds: ['accounts', 'user', 'kyc'] },
  { prefix: 'rfi.', kinds: ['kyc', 'user'] },
  { prefix: 'direct_debit.', kinds: ['direct-debit', 'accounts'] },
];

/**
 * What a call that is not a kept read changes once it is over: its WRITES entry; nothing for any
 * other GET (a read the cache does not keep, such as the webhook catalogue); everything for a write
 * the table does not name.
 */
export function kindsChangedByCall(endpointName: string): readonly RecordKind[] {
  return WRITES[endpointName] ?? (endpointName.startsWith('GET ') ? [] : ALL_RECORD_KINDS);
}

export function kindsChangedByEvent(eventName: string): readonly RecordKind[] {
  return EVENTS.find((entry) => eventName.startsWith(entry.prefix))?.kinds ?? ALL_RECORD_KINDS;
}
