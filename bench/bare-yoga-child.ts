import type { RequestListener } from 'node:http';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { createSchema, createYoga } from 'graphql-yoga';
import type { Pool } from 'undici';
import { bankReads, type FloorStart, type Json } from './bank-reads.ts';
import { serveOnLoopback } from './child-process.ts';

/**
 * The bare Yoga floor's own process (forked by BareYogaProcess in bare-yoga.ts): a plain
 * graphql-yoga server, `createSchema({ typeDefs, resolvers })` and no plugin of its own (but
 * useDeferStream when started for the @defer phase), that answers the screens of
 * bench/operations.graphql from the same upstream calls as the gateway (same
 * endpoints, same count, same rounds) with undici straight to the sandbox, on one keep-alive pool set
 * up as src/upstream/bank-connection.ts sets up the gateway's. No auth, limits, zod, Pothos or dataloader: a
 * record several fields need (a card's detail, a cardholder, a wallet, a beneficiary, a quote, a page
 * of direct debits) is read once per request, as the gateway's per-request loaders read it, through
 * a plain map of promises. Values are mapped minimally from the bank's JSON; the answers have the
 * gateway's JSON shape and item counts (checkSameAnswers in bare-yoga.ts holds them to it).
 *
 * It imports nothing of src/ nor of the sandbox: what it needs (the bank token, the identity headers,
 * the pool's settings) comes in the start request (bench/bank-reads.ts).
 */

// Only the types and fields the four screens select, named and shaped as in schema/schema.graphql.
const typeDefs = /* GraphQL */ `
  scalar Decimal
  scalar Currency
  scalar DateTime
  scalar Date
  scalar CountryCode

  enum AccountStatus {
    ACTIVE
    CLOSED
    INACTIVE
  }
  enum PayoutStatus {
    CANCELLED
    COMPLETED
    FAILED
    PENDING
    PROCESSING
  }
  enum CardStatus {
    ACTIVE
    CLOSED
    INACTIVE
  }
  enum CardType {
    PHYSICAL
    VIRTUAL
  }
  enum CardLimitInterval {
    ALL_TIME
    DAILY
    MONTHLY
    PER_TRANSACTION
    WEEKLY
  }
  enum ConversionStatus {
    CANCELLED
    OVERDUE
    PROCESSING
    SCHEDULED
    SETTLED
  }
  enum LockPeriod {
    HOURS_4
    HOURS_8
    HOURS_24
    HOUR_1
    MINUTES_5
    MINUTES_15
  }
  enum DirectDebitStatus {
    CANCELLED
    IN_REVIEW
    NEW
    PENDING
    REJECTED
    RETURNED
    SETTLED
  }

  type Query {
    accounts(first: Int): AccountConnection
    balances: [Balance!]
    upcomingPayouts(first: Int): PayoutConnection
    cards(first: Int): CardConnection
    fxRate(sourceCurrency: Currency!, destinationCurrency: Currency!, sourceAmount: Decimal, destinationAmount: Decimal): FxRate
    conversions(first: Int): ConversionConnection
    globalAccount(id: String!): GlobalAccount
  }

  type Money {
    amount: Decimal!
    currency: Currency!
  }

  type AccountConnection {
    nodes: [Account!]!
  }
  type Account {
    label: String
    status: AccountStatus!
    transactions(first: Int): AccountTransactionConnection
  }
  type AccountTransactionConnection {
    nodes: [AccountTransaction!]!
  }
  type AccountTransaction {
    amount: Money!
    createdAt: DateTime!
  }
  type Balance {
    currency: Currency!
    available: Money!
  }
  type PayoutConnection {
    nodes: [Payout!]!
  }
  type Payout {
    status: PayoutStatus
    scheduledDate: Date
    sourceAmount: Money
    beneficiary: Beneficiary
  }
  type Beneficiary {
    companyName: String
  }

  type CardConnection {
    nodes: [Card!]!
  }
  type Card {
    maskedNumber: String!
    status: CardStatus!
    type: CardType!
    spendingControls: [CardSpendingControl!]
    availableBalance: Money
    cardholder: Cardholder
  }
  type CardSpendingControl {
    interval: CardLimitInterval!
    remaining: Money
  }
  type Cardholder {
    email: String!
    wallet: Wallet
  }
  type Wallet {
    amount: Money!
  }

  type FxRate {
    rate: Decimal!
    destinationAmount: Money!
  }
  type ConversionConnection {
    nodes: [Conversion!]!
  }
  type Conversion {
    status: ConversionStatus!
    sourceAmount: Money!
    quote: Quote
  }
  type Quote {
    rate: Decimal!
    lockPeriod: LockPeriod!
  }

  type GlobalAccount {
    country: CountryCode!
    mandates(first: Int): MandateConnection
  }
  type MandateConnection {
    nodes: [Mandate!]!
  }
  type Mandate {
    status: String!
    creditorName: String
    directDebits(first: Int): MandateDirectDebitConnection
  }
  type MandateDirectDebitConnection {
    nodes: [DirectDebit!]!
  }
  type DirectDebit {
    status: DirectDebitStatus!
    amount: Money!
  }
`;

interface Context {
  /** Records read once per request: key → the read. */
  reads: Map<string, Promise<unknown>>;
}

/** The connection's default page (schema: "default 20"). */
const DEFAULT_FIRST = 20;
/** Lists the bank pages without an account or mandate filter are scanned this far at most (src/schema/direct-debit.ts). */
const MAX_SCAN_PAGES = 20;
const LOCK_PERIODS: Record<string, string> = {
  '5_mins': 'MINUTES_5',
  '15_mins': 'MINUTES_15',
  '1_hour': 'HOUR_1',
  '4_hours': 'HOURS_4',
  '8_hours': 'HOURS_8',
  '24_hours': 'HOURS_24',
};

// The bank's amounts are JSON numbers or decimal text.
const money = (amount: unknown, currency: unknown) =>
  amount === null || amount === undefined || currency == null
    ? null
    : { amount: typeof amount === 'string' || typeof amount === 'number' ? String(amount) : JSON.stringify(amount), currency };
const firstOf = (args: { first?: number | null }) => args.first ?? DEFAULT_FIRST;

function once<T>(context: Context, key: string, read: () => Promise<T>): Promise<T> {
  let found = context.reads.get(key) as Promise<T> | undefined;
  if (!found) context.reads.set(key, (found = read()));
  return found;
}

let pool: Pool | undefined;

function start(request: FloorStart): RequestListener {
  const { get, svc, pool: bank } = bankReads(request);
  pool = bank;

  /** One page of the bank's direct debits, read once per request (every mandate of the screen scans the same pages). */
  const directDebitPage = (context: Context, page: number) =>
    once(context, `direct-debits:${page}`, () => get('direct-debit', '/api/v1/direct_debits', { page_num: page, page_size: 100 }));

  const resolvers = {
    Query: {
      accounts: async (_: unknown, args: { first?: number }) => ({
        nodes: ((await get('standard', `${svc}/api/v1/account`)) as Json[]).slice(0, firstOf(args)),
      }),
      balances: () => get('standard', `${svc}/api/v1/account/balance`),
      upcomingPayouts: async (_: unknown, args: { first?: number }) => ({
        nodes: ((await get('standard', `${svc}/api/v1/transfer/upcomingpayouts`)) as Json[]).slice(0, firstOf(args)),
      }),
      cards: async (_: unknown, args: { first?: number }) => {
        const first = firstOf(args);
        // One more than asked for, so the connection knows whether there is a next page (as the gateway reads it).
        return { nodes: ((await get('standard', `${svc}/api/v1/card`, { page_num: 1, page_size: first + 1 })) as Json[]).slice(0, first) };
      },
      fxRate: async (
        _: unknown,
        args: { sourceCurrency: string; destinationCurrency: string; sourceAmount?: string; destinationAmount?: string },
      ) =>
        (
          (await get('standard', `${svc}/api/v1/transfer/rate`, {
            sourceCurrencyCode: args.sourceCurrency,
            destinationCurrencyCode: args.destinationCurrency,
            sourceAmount: args.sourceAmount,
            destinationAmount: args.destinationAmount,
          })) as Json[]
        )[0] ?? null,
      conversions: async (_: unknown, args: { first?: number }) => ({
        nodes: (((await get('standard', `${svc}/api/v1/transfer/conversionlist`)) as Json[])[0]?.conversions ?? []).slice(0, firstOf(args)),
      }),
      globalAccount: (_: unknown, args: { id: string }) => get('direct-debit', `/api/v1/global_accounts/${encodeURIComponent(args.id)}`),
    },
    Account: {
      transactions: async (account: Json, args: { first?: number }) => {
        const first = firstOf(args);
        const items = (await get(
          'standard',
          `${svc}/api/v1/account/transactions`,
          { page: 1, size: first + 1 },
          { 'x-account-id': account.id },
        )) as Json[];
        return { nodes: items.slice(0, first) };
      },
    },
    AccountTransaction: {
      amount: (t: Json) => money(t.amount, t.currency),
      // The gateway's DateTime: ISO 8601 in UTC (the bank writes +0000).
      createdAt: (t: Json) => new Date(t.create_time).toISOString(),
    },
    Balance: {
      available: (b: Json) => money(b.available_balance, b.currency),
    },
    Payout: {
      status: (p: Json) => (p.status == null ? 'PENDING' : String(p.status).toUpperCase()),
      scheduledDate: (p: Json) => p.scheduledPayoutDate,
      sourceAmount: (p: Json) => money(p.sourceAmount, p.sourceCurrencycode),
      beneficiary: async (p: Json, _: unknown, context: Context) =>
        p.beneficiaryId == null
          ? null
          : ((
              (await once(context, `beneficiary:${p.beneficiaryId}`, () =>
                get('standard', `${svc}/api/v1/transfer/beneficiarylist/${encodeURIComponent(p.beneficiaryId)}`),
              )) as Json[]
            )[0] ?? null),
    },
    Beneficiary: {
      companyName: (b: Json) => b.beneficiary?.company_name ?? null,
    },
    Card: {
      maskedNumber: (c: Json) => c.maskedCardNumber,
      status: (c: Json) => String(c.cardStatus).toUpperCase(),
      type: (c: Json) => {
        const type = String(c.cardType).toUpperCase();
        return type === 'PHY' ? 'PHYSICAL' : type;
      },
      // The detail fields: the card's detail, read once per card per request.
      spendingControls: async (c: Json, _: unknown, context: Context) => {
        const detail = await cardDetail(context, c.cardHashId);
        return detail ? ((detail.spending_controls ?? []) as Json[]).map((s) => ({ ...s, currency: detail.card_currency })) : null;
      },
      availableBalance: async (c: Json, _: unknown, context: Context) => {
        const detail = await cardDetail(context, c.cardHashId);
        return detail ? money(detail.available_balance, detail.card_currency) : null;
      },
      cardholder: async (c: Json, _: unknown, context: Context) =>
        (
          (await once(context, `cardholder:${c.cardholderId}`, () =>
            get('standard', `${svc}/api/v1/card/cardholder`, { id: c.cardholderId }),
          )) as Json[]
        )[0] ?? null,
    },
    CardSpendingControl: {
      remaining: (s: Json) => money(s.remaining, s.currency),
    },
    Cardholder: {
      wallet: async (h: Json, _: unknown, context: Context) =>
        (
          (await once(context, `wallet:${h.id}`, () =>
            get('issuing', '/issuing/api/v1/wallet', undefined, { 'x-cardholder-id': h.id }),
          )) as Json[]
        )[0] ?? null,
    },
    Wallet: {
      amount: (w: Json) => money(w.amount, w.currency),
    },
    FxRate: {
      rate: (r: Json) => String(r.netExchangeRate),
      destinationAmount: (r: Json) => money(r.destinationAmount, r.destinationCurrencyCode),
    },
    Conversion: {
      sourceAmount: (c: Json) => money(c.sourceAmount, c.sourceCurrencycode),
      quote: (c: Json, _: unknown, context: Context) =>
        c.quoteId == null
          ? null
          : once(context, `quote:${c.quoteId}`, () => get('standard', `${svc}/api/v1/transfer/quotedetails`, { quote_id: c.quoteId })),
    },
    Quote: {
      rate: (q: Json) => String(q.netExchangeRate),
      lockPeriod: (q: Json) => LOCK_PERIODS[q.lockPeriod] ?? q.lockPeriod,
    },
    GlobalAccount: {
      country: (a: Json) => a.country_code,
      mandates: async (a: Json, args: { first?: number }) => {
        const first = firstOf(args);
        const page = await get('direct-debit', `/api/v1/global_accounts/${encodeURIComponent(a.id)}/mandates`, {
          page_num: 1,
          page_size: first + 1,
        });
        return { nodes: (page.items as Json[]).slice(0, first) };
      },
    },
    Mandate: {
      creditorName: (m: Json) => m.creditor_name,
      directDebits: async (m: Json, args: { first?: number }, context: Context) => {
        const kept: Json[] = [];
        for (let page = 1; page <= MAX_SCAN_PAGES; page++) {
          const result = await directDebitPage(context, page);
          for (const item of result.items as Json[]) if (item.mandate_id === m.id) kept.push(item);
          if (!result.has_more) break;
        }
        return { nodes: kept.slice(0, firstOf(args)) };
      },
    },
    DirectDebit: {
      amount: (d: Json) => money(d.amount, d.currency),
    },
  };

  function cardDetail(context: Context, id: string): Promise<Json | null> {
    return once(
      context,
      `card-detail:${id}`,
      async () => ((await get('standard', `${svc}/api/v1/card/detail`, { id })) as Json[])[0] ?? null,
    );
  }

  const yoga = createYoga({
    schema: createSchema<Context>({ typeDefs, resolvers }),
    context: () => ({ reads: new Map() }),
    graphqlEndpoint: '/graphql',
    // Off rather than plugins: no landing page, no GraphiQL, no logging (the gateway's is silent too).
    landingPage: false,
    graphiql: false,
    logging: false,
    // The plugin the gateway answers @defer with (src/transport/incremental-delivery.ts), for that phase alone.
    plugins: request.defer ? [useDeferStream()] : [],
  });
  // As the gateway's server hands a request to Yoga (src/transport/server.ts).
  return (req, res) => void yoga.handle(req, res);
}

// The benchmark going away closes the server and the pool.
serveOnLoopback(start, () => pool?.close());
