import { readFileSync } from 'node:fs';
import { Kind, parse, print, type OperationDefinitionNode } from 'graphql';

/**
 * The frontend-style operations the benchmark runs and the tests count. Each states the fewest
 * upstream calls it can cost against the demo data (distinct reads, list batching counted) and its
 * critical path: how many rounds of calls depend on each other, so wall time at concurrency 1 should
 * be close to `criticalPath` × the upstream latency. The documents are in bench/operations.graphql,
 * where codegen finds them for the trusted documents.
 */

export interface BenchOperation {
  name: string;
  /** Its name in bench/operations.graphql. */
  operationName: string;
  query: string;
  variables?: Record<string, unknown>;
  /** Upstream calls the operation needs at the least (the token is warm). */
  minimumCalls: number;
  /** Rounds of upstream calls that must wait for each other. */
  criticalPath: number;
}

const DOCUMENT = parse(readFileSync(new URL('./operations.graphql', import.meta.url), 'utf8'));

/** One operation of bench/operations.graphql, as text (they use no fragments). */
function operation(operationName: string): { operationName: string; query: string } {
  const found = DOCUMENT.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === operationName,
  );
  if (!found) throw new Error(`bench/operations.graphql has no operation ${operationName}`);
  return { operationName, query: print(found) };
}

/** Extra cards the cards screen needs: the demo has one; the screen shows 50. */
export const CARDS_ON_SCREEN = 50;

export const OPERATIONS: BenchOperation[] = [
  {
    name: 'dashboard',
    ...operation('Dashboard'),
    minimumCalls: 1 + 1 + 1 + 5 + 1,
    criticalPath: 2,
  },
  {
    name: 'cards screen (50 cards)',
    ...operation('CardsScreen'),
    variables: { cards: CARDS_ON_SCREEN },
    minimumCalls: 1 + 2 + CARDS_ON_SCREEN + 2,
    criticalPath: 3,
  },
  {
    name: 'fx screen',
    ...operation('FxScreen'),
    minimumCalls: 1 + 1 + 2,
    criticalPath: 2,
  },
  {
    name: 'direct debit screen',
    ...operation('DirectDebitScreen'),
    minimumCalls: 1 + 1 + 1,
    criticalPath: 3,
  },
];

/**
 * The cards screen with each card's details deferred, answered in parts (multipart/mixed): its
 * first payload (the list) needs one round of calls, its last the whole critical path, at the same
 * calls as the cards screen.
 */
export const DEFERRED_CARDS_SCREEN: BenchOperation & { firstPayloadRounds: number } = {
  name: 'cards screen (50 cards), details @defer',
  ...operation('CardsScreenDeferred'),
  variables: { cards: CARDS_ON_SCREEN },
  minimumCalls: 1 + 2 + CARDS_ON_SCREEN + 2,
  criticalPath: 3,
  firstPayloadRounds: 1,
};

/** The overhead probe (one upstream call). */
export const ONE_CALL_BALANCES = operation('OneCallBalances').query;

/** The GraphQL the cards screen's extra cards are created with (a delegate holds non-personalised cards). */
export function extraCardMutation(index: number): { query: string; variables: Record<string, unknown> } {
  const delegate = index % 2 === 1;
  return {
    query: operation('BenchCardCreate').query,
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
