/**
 * The frontend-style operations the benchmark runs and the tests count. Each states the fewest
 * upstream calls it can cost against the demo data (distinct reads, list batching counted) and its
 * critical path: how many rounds of calls depend on each other, so wall time at concurrency 1 should
 * be close to `criticalPath` × the upstream latency.
 */

export interface BenchOperation {
  name: string;
  query: string;
  variables?: Record<string, unknown>;
  /** Upstream calls the operation needs at the least (the token is warm). */
  minimumCalls: number;
  /** Rounds of upstream calls that must wait for each other. */
  criticalPath: number;
}

/** Extra cards the cards screen needs: the demo has one; the screen shows 50. */
export const CARDS_ON_SCREEN = 50;

export const OPERATIONS: BenchOperation[] = [
  {
    name: 'dashboard',
    // accounts, balances and upcoming payouts at once; then 5 accounts' transactions and the payout's beneficiary.
    query: `{
      accounts(first: 10) { nodes { label status transactions(first: 5) { nodes { amount { amount currency } createdAt } } } }
      balances { currency available { amount } }
      upcomingPayouts(first: 10) { nodes { status scheduledDate sourceAmount { amount currency } beneficiary { companyName } } }
    }`,
    minimumCalls: 1 + 1 + 1 + 5 + 1,
    criticalPath: 2,
  },
  {
    name: 'cards screen (50 cards)',
    // the card list; then 2 cardholders and 50 card details at once; then the 2 cardholders' wallets.
    query: `{
      cards(first: ${CARDS_ON_SCREEN}) { nodes { maskedNumber status type spendingControls { interval remaining { amount } } availableBalance { amount }
        cardholder { email wallet { amount { amount currency } } } } }
    }`,
    minimumCalls: 1 + 2 + CARDS_ON_SCREEN + 2,
    criticalPath: 3,
  },
  {
    name: 'fx screen',
    // the rate and the conversions at once; then the 2 conversions' quotes.
    query: `{
      fxRate(sourceCurrency: "USD", destinationCurrency: "EUR", sourceAmount: "1000") { rate destinationAmount { amount } }
      conversions(first: 10) { nodes { status sourceAmount { amount currency } quote { rate lockPeriod } } }
    }`,
    minimumCalls: 1 + 1 + 2,
    criticalPath: 2,
  },
  {
    name: 'direct debit screen',
    // the account; its mandates; one page of direct debits shared by every mandate.
    query: `{
      globalAccount(id: "ga_demo_gb") { country mandates(first: 10) { nodes { status creditorName directDebits(first: 20) { nodes { status amount { amount currency } } } } } }
    }`,
    minimumCalls: 1 + 1 + 1,
    criticalPath: 3,
  },
];

/** The GraphQL the cards screen's extra cards are created with (a delegate holds non-personalised cards). */
export function extraCardMutation(index: number): { query: string; variables: Record<string, unknown> } {
  const delegate = index % 2 === 1;
  return {
    query: `mutation($input: CardCreateInput!) { cardCreate(input: $input) { __typename } }`,
    variables: {
      input: {
        cardholderId: Buffer.from(`Cardholder:${delegate ? 'chd_demo_ops' : 'chd_demo_ava'}`).toString('base64'),
        type: 'VIRTUAL',
        personalized: !delegate,
        allowedTransactionCount: 'MULTIPLE',
        limitCurrency: 'USD',
        limits: [{ interval: 'MONTHLY', amount: '1000' }],
        createdBy: 'Bench Runner',
      },
    },
  };
}
