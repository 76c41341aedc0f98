/**
 * The record cache's vocabulary (docs/operations.md, "Caching bank reads", renders it): the kinds of
 * record, how long each class of read lives, and what each bank event changes. What each endpoint
 * does to the cache is declared on the endpoint itself (endpoint.ts `cache` or `changes`), so an
 * endpoint cannot be added without saying. Kinds are coarse on purpose: an event or write drops
 * every record of its kinds, for every user, so a change can never hide behind a record id the
 * policy failed to name.
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

/** How a read is kept: the kinds of record its answer says about, which drop it, and its TTL class. */
export interface CachePolicy {
  kinds: readonly RecordKind[];
  ttl: TtlClass;
}

/** A read of records whose changes events and writes announce. */
export const records = (...kinds: RecordKind[]): CachePolicy => ({ kinds, ttl: 'records' });

/**
 * What a call does to the record cache, as its endpoint declares it: a read is kept under a policy
 * or `'never'`; any other call names the kinds it changes once it is over (none for login).
 */
export type CacheEffect = { cache: CachePolicy | 'never'; changes?: never } | { changes: readonly RecordKind[]; cache?: never };

const NOTHING: readonly RecordKind[] = [];

/**
 * What a call that is not a kept read changes once it is over: what its endpoint declares; nothing
 * for a read that is never kept; everything for an endpoint that declares neither (only possible
 * past the type checker).
 */
export function kindsChangedBy(effect: Partial<CacheEffect>): readonly RecordKind[] {
  return effect.changes ?? (effect.cache === undefined ? ALL_RECORD_KINDS : NOTHING);
}

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

export function kindsChangedByEvent(eventName: string): readonly RecordKind[] {
  return EVENTS.find((entry) => eventName.startsWith(entry.prefix))?.kinds ?? ALL_RECORD_KINDS;
}
