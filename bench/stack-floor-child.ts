import type { RequestListener } from 'node:http';
import SchemaBuilder, { createContextCache } from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import ErrorsPlugin from '@pothos/plugin-errors';
import RelayPlugin, { resolveArrayConnection, resolveOffsetConnection } from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import ValidationPlugin from '@pothos/plugin-validation';
import DataLoader from 'dataloader';
import { createYoga } from 'graphql-yoga';
import { z } from 'zod';
import { bankReads, type FloorStart, type Json } from './bank-reads.ts';
import { serveOnLoopback } from './child-process.ts';

/**
 * The stack floor's own process (forked by StackFloorProcess in stack-floor.ts): the four screens of
 * bench/operations.graphql answered from the same upstream calls as the gateway, with the stack the
 * gateway is built on used as the gateway uses it, and nothing of the gateway's own code. A Pothos
 * schema with the plugins of src/builder.ts but the gateway's own (its audit and read guard):
 * scope-auth (a permission per type and root field, checked against a set on the context that
 * grants them all), validation (fxRate's amounts), Relay (loadable nodes, connections resolved by
 * resolveArrayConnection and resolveOffsetConnection), dataloader (per-request loaders of the
 * records several fields need), errors (unused by reads, loaded as the gateway loads it); each
 * field's raw value parsed by its zod model when the field is read; graphql-yoga with no plugin of
 * its own; undici to the sandbox on the gateway's pool settings (bench/bank-reads.ts). No logging,
 * metrics, limits, request auth or resilience stages: what the required libraries cost by
 * themselves. Types and fields are named as bench/bare-yoga-child.ts's, so the same query text runs.
 */

type Permission =
  | 'accounts:read'
  | 'payouts:read'
  | 'beneficiaries:read'
  | 'cards:read'
  | 'cardholders:read'
  | 'wallets:read'
  | 'fx:read'
  | 'direct-debit:read';
interface Context {
  permissions: ReadonlySet<Permission>;
}

/** Every caller holds every permission the screens need: the checks run, and pass. */
const GRANTED: ReadonlySet<Permission> = new Set<Permission>([
  'accounts:read',
  'payouts:read',
  'beneficiaries:read',
  'cards:read',
  'cardholders:read',
  'wallets:read',
  'fx:read',
  'direct-debit:read',
]);

const builder = new SchemaBuilder<{
  Context: Context;
  AuthScopes: { permission: Permission };
  DefaultFieldNullability: true;
  DefaultEdgesNullability: { list: false; items: false };
  DefaultNodeNullability: false;
  Scalars: {
    Decimal: { Input: string; Output: string };
    Currency: { Input: string; Output: string };
    DateTime: { Input: string; Output: string };
    Date: { Input: string; Output: string };
    CountryCode: { Input: string; Output: string };
  };
}>({
  plugins: [ErrorsPlugin, ScopeAuthPlugin, ValidationPlugin, RelayPlugin, DataloaderPlugin],
  scopeAuth: {
    runScopesOnType: true,
    authScopes: (context) => ({ permission: (permission) => context.permissions.has(permission) }),
  },
  relay: { clientMutationId: 'omit', cursorType: 'String', nodesOnConnection: true },
});

// The values are parsed by zod in the resolvers, as read: the scalars pass them through.
const passThrough = { serialize: (value: unknown) => value as string, parseValue: (value: unknown) => value as string };
builder.scalarType('Decimal', passThrough);
builder.scalarType('Currency', passThrough);
builder.scalarType('DateTime', passThrough);
builder.scalarType('Date', passThrough);
builder.scalarType('CountryCode', passThrough);

// --- The zod models of the fields the screens read --------------------------------------------

const DECIMAL = /^-?\d+(\.\d+)?$/;
const decimal = z.union([z.string().regex(DECIMAL), z.number().finite()]).transform(String);
const currency = z.string().regex(/^[A-Z]{3}$/);
const countryCode = z.string().regex(/^[A-Z]{2}$/);
const text = z.string();
const optionalText = z.string().nullish();
const dateTime = z
  .string()
  .pipe(z.coerce.date())
  .transform((date) => date.toISOString());
const optionalDate = z.iso.date().nullish();
/** One of `values` in whatever case the bank wrote it, `aliases` for another spelling (the card list's PHY). */
const anyCase = <const T extends readonly [string, ...string[]]>(values: T, aliases: Record<string, T[number]> = {}) =>
  z
    .string()
    .transform((value) => aliases[value.toUpperCase()] ?? value.toUpperCase())
    .pipe(z.enum(values));

const ACCOUNT_STATUSES = ['ACTIVE', 'CLOSED', 'INACTIVE'] as const;
const PAYOUT_STATUSES = ['CANCELLED', 'COMPLETED', 'FAILED', 'PENDING', 'PROCESSING'] as const;
const CARD_STATUSES = ['ACTIVE', 'CLOSED', 'INACTIVE'] as const;
const CARD_TYPES = ['PHYSICAL', 'VIRTUAL'] as const;
const LIMIT_INTERVALS = ['ALL_TIME', 'DAILY', 'MONTHLY', 'PER_TRANSACTION', 'WEEKLY'] as const;
const CONVERSION_STATUSES = ['CANCELLED', 'OVERDUE', 'PROCESSING', 'SCHEDULED', 'SETTLED'] as const;
const DIRECT_DEBIT_STATUSES = ['CANCELLED', 'IN_REVIEW', 'NEW', 'PENDING', 'REJECTED', 'RETURNED', 'SETTLED'] as const;
const LOCK_PERIODS = {
  MINUTES_5: '5_mins',
  MINUTES_15: '15_mins',
  HOUR_1: '1_hour',
  HOURS_4: '4_hours',
  HOURS_8: '8_hours',
  HOURS_24: '24_hours',
} as const;

const accountStatus = z.enum(ACCOUNT_STATUSES);
const payoutStatus = anyCase(PAYOUT_STATUSES);
const cardStatus = anyCase(CARD_STATUSES);
const cardType = anyCase(CARD_TYPES, { PHY: 'PHYSICAL' });
const limitInterval = z.enum(LIMIT_INTERVALS);
const conversionStatus = z.enum(CONVERSION_STATUSES);
const directDebitStatus = z.enum(DIRECT_DEBIT_STATUSES);
const lockPeriod = z.enum(LOCK_PERIODS);

/** A resolver that parses the record's raw `key` with `model` when the field is read. */
const read =
  <T>(model: z.ZodType<T>, key: string) =>
  (record: Json): T =>
    model.parse(record[key]);

const AccountStatus = builder.enumType('AccountStatus', { values: ACCOUNT_STATUSES });
const PayoutStatus = builder.enumType('PayoutStatus', { values: PAYOUT_STATUSES });
const CardStatus = builder.enumType('CardStatus', { values: CARD_STATUSES });
const CardType = builder.enumType('CardType', { values: CARD_TYPES });
const CardLimitInterval = builder.enumType('CardLimitInterval', { values: LIMIT_INTERVALS });
const ConversionStatus = builder.enumType('ConversionStatus', { values: CONVERSION_STATUSES });
const DirectDebitStatus = builder.enumType('DirectDebitStatus', { values: DIRECT_DEBIT_STATUSES });
// The bank's spelling ('5_mins') as the value of the graph's name (MINUTES_5), as the gateway's enum has it.
const LockPeriod = builder.enumType('LockPeriod', {
  values: Object.fromEntries(Object.entries(LOCK_PERIODS).map(([name, value]) => [name, { value }])) as {
    [N in keyof typeof LOCK_PERIODS]: { value: (typeof LOCK_PERIODS)[N] };
  },
});

// --- The bank ----------------------------------------------------------------------------------

let bank: ReturnType<typeof bankReads> | undefined;
const standard = (path: string, query?: Record<string, string | number | undefined>, subject?: Record<string, string>) =>
  bank!.get('standard', `${bank!.svc}${path}`, query, subject);
const directDebit = (path: string, query?: Record<string, string | number | undefined>) => bank!.get('direct-debit', path, query);

/** A DataLoader per request, each key read on its own (as the gateway's loaders read these records). */
const perRequest = <V>(load: (key: string) => Promise<V>) =>
  createContextCache((_context: Context) => new DataLoader<string, V>((keys) => Promise.all(keys.map(load))));

const cardDetails = perRequest(async (id): Promise<Json | null> => (await standard('/api/v1/card/detail', { id }))[0] ?? null);
const wallets = perRequest(
  async (cardholderId): Promise<Json | null> =>
    (await bank!.get('issuing', '/issuing/api/v1/wallet', undefined, { 'x-cardholder-id': cardholderId }))[0] ?? null,
);
/** A page of the bank's direct debits (every mandate of the screen scans the same pages). */
const directDebitPages = perRequest((page): Promise<Json> => directDebit('/api/v1/direct_debits', { page_num: page, page_size: 100 }));
/** The bank's lists without a mandate filter are scanned this far at most (src/schema/direct-debit.ts). */
const MAX_SCAN_PAGES = 20;

/** The page of the bank's paged list that holds Pothos' offset window: the screens' windows start at 0, so page 1 of the window's size. */
const pageOf = ({ offset, limit }: { offset: number; limit: number }) => ({ page: Math.floor(offset / limit) + 1, size: limit });

/** A Node the screens read through its list only: its loader is never asked. */
const readInLists = (name: string) => () => Promise.reject(new Error(`${name} is read through its list only on these screens`));

// --- Types -------------------------------------------------------------------------------------

const Money = builder.objectRef<{ amount: unknown; currency: unknown }>('Money').implement({
  fields: (t) => ({
    amount: t.field({ type: 'Decimal', nullable: false, resolve: read(decimal, 'amount') }),
    currency: t.field({ type: 'Currency', nullable: false, resolve: read(currency, 'currency') }),
  }),
});
/** The raw amount and currency for Money's fields to parse. */
const money = (amount: unknown, currency: unknown) => ({ amount, currency });
/** The same for a nullable field: null without either. */
const optionalMoney = (amount: unknown, currency: unknown) => (amount == null || currency == null ? null : { amount, currency });

const Account = builder.loadableNodeRef<Json, string>('Account', {
  id: { resolve: (a) => a.id },
  load: readInLists('Account'),
  cacheResolved: (a) => a.id,
});
const AccountTransaction = builder.objectRef<Json>('AccountTransaction').implement({
  authScopes: { permission: 'accounts:read' },
  fields: (t) => ({
    amount: t.field({ type: Money, nullable: false, resolve: (x) => money(x.amount, x.currency) }),
    createdAt: t.field({ type: 'DateTime', nullable: false, resolve: read(dateTime, 'create_time') }),
  }),
});
Account.implement({
  authScopes: { permission: 'accounts:read' },
  fields: (t) => ({
    label: t.field({ type: 'String', resolve: read(optionalText, 'label') }),
    status: t.field({ type: AccountStatus, nullable: false, resolve: read(accountStatus, 'status') }),
    transactions: t.connection(
      {
        type: AccountTransaction,
        resolve: (account, args) =>
          resolveOffsetConnection({ args }, (window): Promise<Json[]> => {
            const { page, size } = pageOf(window);
            return standard('/api/v1/account/transactions', { page, size }, { 'x-account-id': account.id });
          }),
      },
      { name: 'AccountTransactionConnection' },
      { name: 'AccountTransactionEdge' },
    ),
  }),
});

const Balance = builder.objectRef<Json>('Balance').implement({
  authScopes: { permission: 'accounts:read' },
  fields: (t) => ({
    currency: t.field({ type: 'Currency', nullable: false, resolve: read(currency, 'currency') }),
    available: t.field({ type: Money, nullable: false, resolve: (b) => money(b.available_balance, b.currency) }),
  }),
});

const Beneficiary = builder.loadableNodeRef<Json, string>('Beneficiary', {
  id: { resolve: (b) => b.id },
  load: (ids) =>
    Promise.all(
      ids.map(
        async (id): Promise<Json | null> => (await standard(`/api/v1/transfer/beneficiarylist/${encodeURIComponent(id)}`))[0] ?? null,
      ),
    ),
});
Beneficiary.implement({
  authScopes: { permission: 'beneficiaries:read' },
  fields: (t) => ({ companyName: t.string({ resolve: (b) => optionalText.parse(b.beneficiary?.company_name) }) }),
});

const Payout = builder.loadableNodeRef<Json, string>('Payout', { id: { resolve: (p) => p.id }, load: readInLists('Payout') });
Payout.implement({
  authScopes: { permission: 'payouts:read' },
  fields: (t) => ({
    status: t.field({ type: PayoutStatus, resolve: (p) => (p.status == null ? 'PENDING' : payoutStatus.parse(p.status)) }),
    scheduledDate: t.field({ type: 'Date', resolve: read(optionalDate, 'scheduledPayoutDate') }),
    sourceAmount: t.field({ type: Money, resolve: (p) => optionalMoney(p.sourceAmount, p.sourceCurrencycode) }),
    beneficiary: t.field({ type: Beneficiary, resolve: (p) => p.beneficiaryId ?? null }),
  }),
});

const Wallet = builder.objectRef<Json>('Wallet').implement({
  authScopes: { permission: 'wallets:read' },
  fields: (t) => ({ amount: t.field({ type: Money, nullable: false, resolve: (w) => money(w.amount, w.currency) }) }),
});

const Cardholder = builder.loadableNodeRef<Json, string>('Cardholder', {
  id: { resolve: (h) => h.id },
  load: (ids) => Promise.all(ids.map(async (id): Promise<Json | null> => (await standard('/api/v1/card/cardholder', { id }))[0] ?? null)),
});
Cardholder.implement({
  authScopes: { permission: 'cardholders:read' },
  fields: (t) => ({
    email: t.field({ type: 'String', nullable: false, resolve: read(text, 'email') }),
    wallet: t.field({ type: Wallet, resolve: (h, _args, context) => wallets(context).load(h.id) }),
  }),
});

const CardSpendingControl = builder.objectRef<Json>('CardSpendingControl').implement({
  fields: (t) => ({
    interval: t.field({ type: CardLimitInterval, nullable: false, resolve: read(limitInterval, 'interval') }),
    remaining: t.field({ type: Money, resolve: (s) => optionalMoney(s.remaining, s.currency) }),
  }),
});

const Card = builder.loadableNodeRef<Json, string>('Card', {
  id: { resolve: (c) => c.cardHashId },
  load: readInLists('Card'),
  cacheResolved: (c) => c.cardHashId,
});
Card.implement({
  authScopes: { permission: 'cards:read' },
  fields: (t) => ({
    maskedNumber: t.field({ type: 'String', nullable: false, resolve: read(text, 'maskedCardNumber') }),
    status: t.field({ type: CardStatus, nullable: false, resolve: read(cardStatus, 'cardStatus') }),
    type: t.field({ type: CardType, nullable: false, resolve: read(cardType, 'cardType') }),
    // The detail fields: the card's detail, read once per card per request.
    spendingControls: t.field({
      type: [CardSpendingControl],
      nullable: { list: true, items: false },
      resolve: async (c, _args, context) => {
        const detail = await cardDetails(context).load(c.cardHashId);
        return detail ? ((detail.spending_controls ?? []) as Json[]).map((s) => ({ ...s, currency: detail.card_currency })) : null;
      },
    }),
    availableBalance: t.field({
      type: Money,
      resolve: async (c, _args, context) => {
        const detail = await cardDetails(context).load(c.cardHashId);
        return detail ? optionalMoney(detail.available_balance, detail.card_currency) : null;
      },
    }),
    cardholder: t.field({ type: Cardholder, resolve: (c) => c.cardholderId ?? null }),
  }),
});

const FxRate = builder.objectRef<Json>('FxRate').implement({
  authScopes: { permission: 'fx:read' },
  fields: (t) => ({
    rate: t.field({ type: 'Decimal', nullable: false, resolve: read(decimal, 'netExchangeRate') }),
    destinationAmount: t.field({ type: Money, nullable: false, resolve: (r) => money(r.destinationAmount, r.destinationCurrencyCode) }),
  }),
});

const Quote = builder.loadableNodeRef<Json, string>('Quote', {
  id: { resolve: (q) => q.id },
  load: (ids) => Promise.all(ids.map((id): Promise<Json | null> => standard('/api/v1/transfer/quotedetails', { quote_id: id }))),
});
Quote.implement({
  authScopes: { permission: 'fx:read' },
  fields: (t) => ({
    rate: t.field({ type: 'Decimal', nullable: false, resolve: read(decimal, 'netExchangeRate') }),
    lockPeriod: t.field({ type: LockPeriod, nullable: false, resolve: read(lockPeriod, 'lockPeriod') }),
  }),
});

const Conversion = builder.loadableNodeRef<Json, string>('Conversion', {
  id: { resolve: (c) => c.id },
  load: readInLists('Conversion'),
  cacheResolved: (c) => c.id,
});
Conversion.implement({
  authScopes: { permission: 'fx:read' },
  fields: (t) => ({
    status: t.field({ type: ConversionStatus, nullable: false, resolve: read(conversionStatus, 'status') }),
    sourceAmount: t.field({ type: Money, nullable: false, resolve: (c) => money(c.sourceAmount, c.sourceCurrencycode) }),
    quote: t.field({ type: Quote, resolve: (c) => c.quoteId ?? null }),
  }),
});

const DirectDebit = builder.loadableNodeRef<Json, string>('DirectDebit', {
  id: { resolve: (d) => d.id },
  load: readInLists('DirectDebit'),
});
DirectDebit.implement({
  authScopes: { permission: 'direct-debit:read' },
  fields: (t) => ({
    status: t.field({ type: DirectDebitStatus, nullable: false, resolve: read(directDebitStatus, 'status') }),
    amount: t.field({ type: Money, nullable: false, resolve: (d) => money(d.amount, d.currency) }),
  }),
});

/** The payouts of `mandateId`, page after page of the bank's list, in its order. */
async function directDebitsOf(context: Context, mandateId: string): Promise<Json[]> {
  const kept: Json[] = [];
  for (let page = 1; page <= MAX_SCAN_PAGES; page++) {
    const result = await directDebitPages(context).load(String(page));
    for (const item of result.items as Json[]) if (item.mandate_id === mandateId) kept.push(item);
    if (!result.has_more) break;
  }
  return kept;
}

const Mandate = builder.loadableNodeRef<Json, string>('Mandate', { id: { resolve: (m) => m.id }, load: readInLists('Mandate') });
Mandate.implement({
  authScopes: { permission: 'direct-debit:read' },
  fields: (t) => ({
    status: t.field({ type: 'String', nullable: false, resolve: read(text, 'status') }),
    creditorName: t.field({ type: 'String', resolve: read(optionalText, 'creditor_name') }),
    directDebits: t.connection(
      { type: DirectDebit, resolve: async (m, args, context) => resolveArrayConnection({ args }, await directDebitsOf(context, m.id)) },
      { name: 'MandateDirectDebitConnection' },
      { name: 'MandateDirectDebitEdge' },
    ),
  }),
});

const GlobalAccount = builder.loadableNodeRef<Json, string>('GlobalAccount', {
  id: { resolve: (a) => a.id },
  load: readInLists('GlobalAccount'),
});
GlobalAccount.implement({
  authScopes: { permission: 'direct-debit:read' },
  fields: (t) => ({
    country: t.field({ type: 'CountryCode', nullable: false, resolve: read(countryCode, 'country_code') }),
    mandates: t.connection(
      {
        type: Mandate,
        resolve: (a, args) =>
          resolveOffsetConnection({ args }, async (window): Promise<Json[]> => {
            const { page, size } = pageOf(window);
            return (await directDebit(`/api/v1/global_accounts/${encodeURIComponent(a.id)}/mandates`, { page_num: page, page_size: size }))
              .items;
          }),
      },
      { name: 'MandateConnection' },
      { name: 'MandateEdge' },
    ),
  }),
});

// --- Queries -----------------------------------------------------------------------------------

const positiveDecimal = z.string().refine((value) => Number(value) > 0, 'must be greater than 0');

builder.queryType({
  fields: (t) => ({
    accounts: t.connection(
      {
        authScopes: { permission: 'accounts:read' },
        type: Account,
        resolve: async (_root, args) => resolveArrayConnection({ args }, (await standard('/api/v1/account')) as Json[]),
      },
      { name: 'AccountConnection' },
      { name: 'AccountEdge' },
    ),
    balances: t.field({
      authScopes: { permission: 'accounts:read' },
      type: [Balance],
      nullable: { list: true, items: false },
      resolve: (): Promise<Json[]> => standard('/api/v1/account/balance'),
    }),
    upcomingPayouts: t.connection(
      {
        authScopes: { permission: 'payouts:read' },
        type: Payout,
        resolve: async (_root, args) => resolveArrayConnection({ args }, (await standard('/api/v1/transfer/upcomingpayouts')) as Json[]),
      },
      { name: 'PayoutConnection' },
      { name: 'PayoutEdge' },
    ),
    cards: t.connection(
      {
        authScopes: { permission: 'cards:read' },
        type: Card,
        resolve: (_root, args) =>
          resolveOffsetConnection({ args }, (window): Promise<Json[]> => {
            const { page, size } = pageOf(window);
            return standard('/api/v1/card', { page_num: page, page_size: size });
          }),
      },
      { name: 'CardConnection' },
      { name: 'CardEdge' },
    ),
    fxRate: t.field({
      authScopes: { permission: 'fx:read' },
      type: FxRate,
      args: {
        sourceCurrency: t.arg({ type: 'Currency', required: true }),
        destinationCurrency: t.arg({ type: 'Currency', required: true }),
        sourceAmount: t.arg({ type: 'Decimal', validate: positiveDecimal }),
        destinationAmount: t.arg({ type: 'Decimal', validate: positiveDecimal }),
      },
      resolve: async (_root, args): Promise<Json | null> =>
        (
          await standard('/api/v1/transfer/rate', {
            sourceCurrencyCode: args.sourceCurrency,
            destinationCurrencyCode: args.destinationCurrency,
            sourceAmount: args.sourceAmount ?? undefined,
            destinationAmount: args.destinationAmount ?? undefined,
          })
        )[0] ?? null,
    }),
    conversions: t.connection(
      {
        authScopes: { permission: 'fx:read' },
        type: Conversion,
        resolve: async (_root, args) =>
          resolveArrayConnection({ args }, ((await standard('/api/v1/transfer/conversionlist'))[0]?.conversions ?? []) as Json[]),
      },
      { name: 'ConversionConnection' },
      { name: 'ConversionEdge' },
    ),
    globalAccount: t.field({
      authScopes: { permission: 'direct-debit:read' },
      type: GlobalAccount,
      args: { id: t.arg.string({ required: true }) },
      resolve: (_root, args): Promise<Json> => directDebit(`/api/v1/global_accounts/${encodeURIComponent(args.id)}`),
    }),
  }),
});

// --- The server --------------------------------------------------------------------------------

function start(request: FloorStart): RequestListener {
  bank = bankReads(request);
  const yoga = createYoga<Record<string, unknown>, Context>({
    schema: builder.toSchema(),
    context: () => ({ permissions: GRANTED }),
    graphqlEndpoint: '/graphql',
    // As bare Yoga's: no landing page, no GraphiQL, no logging.
    landingPage: false,
    graphiql: false,
    logging: false,
  });
  // As the gateway's server hands a request to Yoga (src/transport/server.ts).
  return (req, res) => void yoga.handle(req, res);
}

// The benchmark going away closes the server and the pool.
serveOnLoopback(start, () => bank?.pool.close());
