import { GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { MapperKind, mapSchema } from '@graphql-tools/utils';
import type { BankEvent } from '../events/models.ts';
import { kindsChangedByEvent, type RecordKind } from '../upstream/cache-policy.ts';

/**
 * What a live query is said to have read, and what a change invalidates: the one place that decides
 * the resource identifiers of @n1ru4l/in-memory-live-query-store.
 *
 * - A record: `Type:bankId`, the GraphQL type and the bank's own id (the type's `upstreamId`), not
 *   the Relay global id. Events name records by the bank's id, so nothing has to be encoded to match;
 *   and the record is collected when any field of it resolves, so a screen that never selects `id`
 *   is still watched. (The store's own collector reads only a non-null `id: ID!` field.)
 * - A root field: `Query.field`, which the store collects itself for every root field a live query
 *   selects. A change of a kind of record that names no record (an event without an id, a write)
 *   invalidates every root field that reads that kind; a change that names its record invalidates
 *   the record and the root fields that list records of its kind (a new record enters a list).
 */
const recordIdentifier = (typename: string, bankId: string): string => `${typename}:${bankId}`;

const rootIdentifier = (field: string): string => `Query.${field}`;

/** Root fields that may read anything: invalidated by every kind. */
const ANY_KIND = ['node', 'nodes'] as const;

/**
 * Each kind of record (cache-policy.ts), the root fields that read it: `lists` show many records or
 * a sum of them (balances), so any change of the kind may change them; `single` show one record,
 * watched by its record identifier, and invalidated by kind only when a change names no record.
 * test/protocol/live-queries.test.ts checks that every root field of the schema is here or in STATIC_ROOTS.
 */
export const ROOTS_BY_KIND: Record<RecordKind, { lists: readonly string[]; single: readonly string[] }> = {
  accounts: { lists: ['accounts', 'balances', 'balanceHistory'], single: ['account'] },
  beneficiaries: { lists: ['beneficiaries'], single: ['beneficiary'] },
  payouts: { lists: ['upcomingPayouts'], single: ['payout'] },
  'fx-rates': { lists: [], single: ['fxRate'] },
  quotes: { lists: [], single: ['quote'] },
  conversions: { lists: ['conversions'], single: ['conversion'] },
  cards: { lists: ['cards'], single: ['card'] },
  cardholders: { lists: ['cardholders'], single: ['cardholder'] },
  wallets: { lists: ['cards', 'cardholders'], single: ['card', 'cardholder'] },
  kyc: { lists: [], single: ['viewer'] },
  user: { lists: [], single: ['viewer'] },
  'direct-debit': { lists: ['directDebits'], single: ['directDebit', 'globalAccount'] },
  reference: { lists: ['webhookCatalogue', 'webhookSubscriptions', 'beneficiarySchema'], single: [] },
};

/** Root fields whose answer no bank record changes (the caller's own identity). */
export const STATIC_ROOTS = ['me', 'rateLimit'] as const;

/** Every root field that reads one of these kinds: what a change that names no record invalidates. */
export function identifiersForKinds(kinds: readonly RecordKind[]): string[] {
  const fields = new Set<string>(kinds.length > 0 ? ANY_KIND : []);
  for (const kind of kinds) for (const field of [...ROOTS_BY_KIND[kind].lists, ...ROOTS_BY_KIND[kind].single]) fields.add(field);
  return [...fields].map(rootIdentifier);
}

const listsOf = (kinds: readonly RecordKind[]): string[] =>
  [...new Set(kinds.flatMap((kind) => ROOTS_BY_KIND[kind].lists))].map(rootIdentifier);

/** The records an event names by the bank's id, as [GraphQL type, bank id]; empty when it names none. */
function recordsNamedBy(event: BankEvent): [string, string | null | undefined][] {
  switch (event.kind) {
    case 'cardStatus':
      return [['Card', event.details.cardId]];
    case 'cardTransaction':
      return [
        ['Card', event.details.cardId],
        ['Account', event.accountId],
      ];
    case 'cardholderStatus':
      return [['Cardholder', event.details.cardholderId]];
    case 'deposit':
      return [
        ['Account', event.accountId],
        ['GlobalAccount', event.details.globalAccountId],
      ];
    case 'conversion':
      return [
        ['Conversion', event.details.conversionId],
        ['Account', event.accountId],
      ];
    case 'payoutFunding':
      return [
        ['Payout', event.details.payoutId],
        ['Account', event.accountId],
      ];
    case 'directDebit':
      return [
        ['DirectDebit', event.details.transactionId],
        ['GlobalAccount', event.details.globalAccountId],
        ['Account', event.accountId],
      ];
    default:
      return [];
  }
}

/**
 * What a bank event invalidates: the records it names and the lists of their kinds (a card event
 * re-runs only the live queries that read that card, or a list of cards); by kind when it names
 * none (an account's status, an RFI, an event the gateway does not know).
 */
export function identifiersForEvent(event: BankEvent): string[] {
  const kinds = kindsChangedByEvent(event.name);
  const named = recordsNamedBy(event).flatMap(([typename, id]) => (id ? [recordIdentifier(typename, id)] : []));
  return named.length === 0 ? identifiersForKinds(kinds) : [...named, ...listsOf(kinds)];
}

interface LiveQueryFieldExtensions {
  liveQuery?: { collectResourceIdentifiers?: (source: unknown) => string | undefined };
}

/**
 * The schema with each field of a record type (one with `upstreamId`, exposed from a property of
 * the bank's record) collecting `Type:bankId` when it resolves in a live query. The store calls the
 * collector only for live executions; other operations never reach it.
 */
export function withRecordCollectors(schema: GraphQLSchema): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.OBJECT_TYPE]: (type) => {
      const property = (type.getFields().upstreamId?.extensions as { pothosExposedField?: unknown } | undefined)?.pothosExposedField;
      if (typeof property !== 'string') return type;
      const collect = (source: unknown) => {
        const id = (source as Record<string, unknown> | null)?.[property];
        return typeof id === 'string' ? recordIdentifier(type.name, id) : undefined;
      };
      const config = type.toConfig();
      const fields = Object.fromEntries(
        Object.entries(config.fields).map(([name, field]) => [
          name,
          {
            ...field,
            extensions: { ...field.extensions, liveQuery: { collectResourceIdentifiers: collect } } satisfies LiveQueryFieldExtensions,
          },
        ]),
      );
      return new GraphQLObjectType({ ...config, fields });
    },
  });
}
