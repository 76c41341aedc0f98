import { readdirSync, readFileSync } from 'node:fs';
import { encodeGlobalID } from '@pothos/plugin-relay';
import {
  Kind,
  parse,
  print,
  visit,
  type DefinitionNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
} from 'graphql';
import { afterAll, describe, expect, it } from 'vitest';
import { multipartParts } from '../../bench/multipart.ts';
import { CARDS_ON_SCREEN, extraCardMutation } from '../../bench/operations.ts';
import { estimateBankCalls } from '../../src/limits/bank-call-estimate.ts';
import { bankEvent, deliverEvent } from '../helpers/deliver.ts';
import { ACCOUNT_INPUT, PATHS, QUOTE_INPUT, SUPPLIER } from '../helpers/flows.ts';
import { useKit, type Kit } from '../helpers/kit.ts';
import { readmeExamples } from '../helpers/readme-examples.ts';
import { subscribeSse } from '../helpers/subscribe.ts';

/**
 * The proof of the estimate (src/limits/bank-call-estimate.ts): every shipped operation
 * (schema/operations/*.graphql), the benchmark's (bench/operations.graphql), a few edge cases and
 * the README's examples run against the demo sandbox, the record cache off, and none makes more
 * bank calls than estimated before it ran. Each starts from the demo data (the kit's `fresh()`),
 * but the README's, which run in document order as the README means them (an update after its
 * create). Logins are left out of the count (the gateway's own token is shared), but for
 * accessTokenCreate, whose write is one. A subscription counts its start and one event.
 */
const kit = useKit({
  cache: false,
  listen: true,
  // The codes webhook management defaults to, as `npm start` configures them for the embedded sandbox.
  webhooks: { agentCode: 'sandbox-agent', subagentCode: 'sandbox-subagent', companyCode: 'sandbox-company' },
  // The shipped ceiling (OPERATION_MAX_BANK_CALLS's default): every shipped operation runs under it.
});

interface Row {
  source: string;
  name: string;
  estimate: number;
  actual: number;
  outcome: string;
}
const rows: Row[] = [];

afterAll(() => {
  const table = rows.map((r) => ({ ...r, ratio: r.actual === 0 ? '-' : (r.estimate / r.actual).toFixed(2) }));
  console.log(`bank calls, estimated before the run and made by it:\n${formatTable(table)}`);
  const screens = table.filter((r) => r.source === 'bench' && BENCH_SCREENS.includes(r.name));
  console.log(`the benchmark's screens:\n${formatTable(screens)}`);
});

// --- The documents ------------------------------------------------------------------------------

function documentOf(paths: string[]): DocumentNode {
  return parse(paths.map((path) => readFileSync(path, 'utf8')).join('\n'));
}

const SHIPPED = documentOf(
  readdirSync(new URL('../../schema/operations/', import.meta.url))
    .filter((name) => name.endsWith('.graphql'))
    .sort()
    .map((name) => new URL(`../../schema/operations/${name}`, import.meta.url).pathname),
);
const BENCH = documentOf([new URL('../../bench/operations.graphql', import.meta.url).pathname]);

/** What the shipped documents do not show: a deferred fragment running a field again, loader batches past four keys. */
const EDGES = parse(`
  query DeferredAgain {
    card(id: "crd_demo_ava_v") { transactions(first: 5) { nodes { type } } ... @defer { transactions(first: 5) { nodes { type } } scheme } }
  }
  query FiveCardsById {
    a: card(id: "crd_demo_ava_v") { status } b: card(id: "crd_demo_ava_p") { status }
    c: card(id: "crd_none_1") { status } d: card(id: "crd_none_2") { status } e: card(id: "crd_none_3") { status }
  }
  query NodesOfThreeTypes($ids: [ID!]!) { nodes(ids: $ids) { id ... on Card { scheme cardholder { email } } ... on Account { transactions(first: 3) { nodes { type } } } } }
`);

const operationsOf = (document: DocumentNode) =>
  document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);

/** One operation with the fragments it spreads, as a client sends it. */
function alone(document: DocumentNode, operation: OperationDefinitionNode): DocumentNode {
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const used = new Map<string, DefinitionNode>();
  const follow = (node: DefinitionNode) =>
    visit(node, {
      FragmentSpread(spread) {
        const fragment = fragments.get(spread.name.value);
        if (fragment && !used.has(fragment.name.value)) {
          used.set(fragment.name.value, fragment);
          follow(fragment);
        }
      },
    });
  follow(operation);
  return { kind: Kind.DOCUMENT, definitions: [operation, ...used.values()] };
}

// --- Inputs from the demo data (sandbox/src/domains/*/seed.ts) ------------------------------------

const global = (type: string, id: string) => encodeGlobalID(type, id);
const NEW_CARD = {
  cardholderId: 'chd_demo_ava',
  type: 'VIRTUAL',
  personalized: true,
  allowedTransactionCount: 'MULTIPLE',
  limitCurrency: 'USD',
  limits: [{ interval: 'MONTHLY', amount: '2000' }],
  createdBy: 'Jane Doe',
};
const WEBHOOK = { eventName: 'conversion.settled', companyCode: 'ops-team' };
const NEW_WEBHOOK = {
  ...WEBHOOK,
  type: 'WEBHOOK',
  url: 'https://ops.acme.example/hooks',
  apiKey: 'ops-hook-key-0001',
  createdBy: 'Jane Doe',
};

interface Inputs {
  variables?: Record<string, unknown>;
  /** What must exist first: done before the count starts. */
  prepare?: (target: Kit) => Promise<unknown>;
  /** For a subscription: the bank event that makes it answer. */
  event?: ReturnType<typeof bankEvent>;
}

let events = 0;
const eventId = () => `evt_estimate_${Date.now()}_${++events}`;

const INPUTS: Record<string, Inputs> = {
  Accounts: { variables: { first: 10 } },
  Account: { variables: { id: 'acc_demo_usd' } },
  AccountNode: { variables: { id: global('Account', 'acc_demo_usd') } },
  AccountTransactions: { variables: { id: 'acc_demo_usd', first: 20 } },
  BalanceHistory: { variables: { first: 20 } },
  AccountCreate: { variables: { input: ACCOUNT_INPUT } },
  AccountClose: { variables: { input: { accountId: 'acc_demo_sgd' } } },
  AccessTokenCreate: {
    variables: { input: { clientKey: 'sandbox-client-key', clientSecret: 'sandbox-client-secret', email: 'treasury@acme.example' } },
  },
  Beneficiaries: { variables: { first: 20 } },
  Beneficiary: { variables: { id: 'ben_demo_us' } },
  BeneficiaryNode: { variables: { id: global('Beneficiary', 'ben_demo_us') } },
  BeneficiarySchema: { variables: { bankCountry: 'US', currency: 'USD', entityType: 'COMPANY', transferMethod: 'SWIFT' } },
  BeneficiaryCreate: {
    variables: { input: SUPPLIER },
  },
  BeneficiaryUpdate: { variables: { input: { beneficiaryId: 'ben_demo_gb', nickname: 'Globex UK' } } },
  BeneficiaryDelete: { variables: { input: { beneficiaryId: 'ben_demo_sg' } } },
  Cardholders: { variables: { first: 20 } },
  Cardholder: { variables: { id: 'chd_demo_ava' } },
  CardholderNode: { variables: { id: global('Cardholder', 'chd_demo_ava') } },
  CardholderKyc: { variables: { id: 'chd_demo_new' } },
  CardholderKycRfi: { variables: { id: 'chd_demo_new' } },
  CardholderCreate: {
    variables: {
      input: {
        type: 'INDIVIDUAL',
        email: 'sam@acme.example',
        mobileNumber: '+14155550123',
        createdBy: 'Jane Doe',
        individual: {
          dateOfBirth: '1990-04-12',
          name: { firstName: 'Sam', lastName: 'Lee' },
          address: { line1: '1 Market St', city: 'San Francisco', state: 'CA', postcode: '94105', country: 'US' },
        },
      },
    },
  },
  CardholderUpdate: { variables: { input: { cardholderId: 'chd_demo_ava', mobileNumber: '+14155550199', updatedBy: 'Jane Doe' } } },
  CardholderDelete: { variables: { input: { cardholderId: 'chd_demo_ops' } } },
  Cards: { variables: { first: 20 } },
  CardSummary: { variables: { id: 'crd_demo_ava_v' } },
  CardFull: { variables: { id: 'crd_demo_ava_v' } },
  CardTransactions: { variables: { id: 'crd_demo_ava_v', first: 20 } },
  CardCreate: { variables: { input: NEW_CARD } },
  CardAssign: {
    variables: { input: { cardholderId: 'chd_demo_ava', cardNumber: '4000056655665556', currency: 'USD', createdBy: 'Jane Doe' } },
  },
  CardActivate: { variables: { input: { cardId: 'crd_demo_ava_p', activationCode: '428190', pin: '482916' } } },
  // A PIN is reset on an activated card.
  CardPinReset: {
    variables: { input: { cardId: 'crd_demo_ava_p', pin: '194862' } },
    prepare: (target) => run(target, CARD_ACTIVATE, { input: { cardId: 'crd_demo_ava_p', activationCode: '428190', pin: '482916' } }),
  },
  CardUpdate: {
    variables: {
      input: {
        cardId: 'crd_demo_ava_v',
        updatedBy: 'Jane Doe',
        currency: 'USD',
        limits: [{ interval: 'DAILY', amount: '150' }],
        authorizationControls: { allowedMerchantCategories: ['5411'] },
      },
    },
  },
  CardRecharge: { variables: { input: { cardId: 'crd_demo_ava_v', amount: '250' } } },
  CardholderOverview: { variables: { id: 'chd_demo_ava' } },
  CardholderCardsBrief: { variables: { id: 'chd_demo_ava' } },
  GlobalAccountDirectDebit: { variables: { id: 'ga_demo_gb' } },
  DirectDebits: { variables: { first: 20 } },
  DirectDebit: { variables: { id: 'ddt_demo_gb_settled' } },
  MandateCancel: { variables: { input: { mandateId: global('Mandate', '~ga_demo_gb~mdt_demo_gb_2') } } },
  DirectDebitCancel: { variables: { input: { directDebitId: 'ddt_demo_gb_pending_1' } } },
  FxRate: { variables: { sourceCurrency: 'USD', destinationCurrency: 'EUR', sourceAmount: '1000' } },
  QuoteCreate: {
    variables: { input: QUOTE_INPUT },
  },
  Quote: { variables: { id: 'quo_demo_conversion' } },
  ConversionCreate: {
    variables: { input: { quoteId: 'quo_demo_conversion', sourceCurrency: 'USD', destinationCurrency: 'EUR', sourceAmount: '1000' } },
  },
  Conversion: { variables: { id: 'cnv_demo_1' } },
  Conversions: { variables: { first: 20 } },
  ViewerRfis: { variables: { first: 10 } },
  PayoutCreate: {
    variables: {
      input: {
        beneficiaryId: 'ben_demo_de',
        quoteId: 'quo_demo_payout',
        sourceCurrency: 'USD',
        destinationCurrency: 'EUR',
        sourceAmount: '1000',
        destinationCountry: 'DE',
        feeType: 'OUR',
        transferMethod: 'SWIFT',
        reference: 'Invoice 114',
        sourceOfFunds: 'Revenue',
      },
    },
  },
  Payout: { variables: { id: 'pay_demo_1' } },
  UpcomingPayouts: { variables: { first: 20 } },
  PayoutCancel: { variables: { input: { payoutId: 'pay_demo_1' } } },
  CardholderWallet: { variables: { id: 'chd_demo_ava' } },
  WalletHistory: { variables: { id: 'chd_demo_ava', first: 20 } },
  WalletCreate: { variables: { input: { cardholderId: 'chd_demo_ava', currency: 'EUR' } } },
  WebhookSubscriptionCreate: { variables: { input: NEW_WEBHOOK } },
  WebhookSubscriptionUpdate: {
    variables: { input: { ...WEBHOOK, type: 'NOTIFICATION', senderEmail: 'alerts@acme.example', updatedBy: 'Jane Doe' } },
    prepare: (target) => run(target, WEBHOOK_CREATE, { input: NEW_WEBHOOK }),
  },
  WebhookSubscriptionDelete: { variables: { input: WEBHOOK }, prepare: (target) => run(target, WEBHOOK_CREATE, { input: NEW_WEBHOOK }) },
  BankEvents: { event: bankEvent(eventId(), 'account.active') },
  CardStatusChanged: {
    variables: { cardId: 'crd_demo_ava_v' },
    event: bankEvent(eventId(), 'issuing.card.active', { card_id: 'crd_demo_ava_v', cardholder_id: 'chd_demo_ava', card_status: 'ACTIVE' }),
  },
  DepositUpdated: {
    variables: { accountId: 'acc_demo_usd' },
    event: bankEvent(eventId(), 'deposit.settled', {
      deposit_id: 'dep_estimate',
      global_account_id: 'acc_demo_usd',
      amount: '10',
      currency: 'USD',
      status: 'SETTLED',
    }),
  },
  // The benchmark's (bench/setup.ts prepareCardsScreen issues the extra cards).
  CardsScreen: { variables: { cards: CARDS_ON_SCREEN }, prepare: issueExtraCards },
  CardsScreenDeferred: { variables: { cards: CARDS_ON_SCREEN }, prepare: issueExtraCards },
  BenchCardCreate: { variables: extraCardMutation(1).variables },
  BankEventsFeed: { event: bankEvent(eventId(), 'account.active') },
  NodesOfThreeTypes: {
    variables: {
      ids: [
        global('Card', 'crd_demo_ava_v'),
        global('Card', 'crd_demo_ava_p'),
        global('Account', 'acc_demo_usd'),
        global('Payout', 'pay_demo_1'),
      ],
    },
  },
};

function shipped(name: string): string {
  const operation = operationsOf(SHIPPED).find((o) => o.name?.value === name)!;
  return print(alone(SHIPPED, operation));
}
const WEBHOOK_CREATE = shipped('WebhookSubscriptionCreate');
const CARD_ACTIVATE = shipped('CardActivate');
const BENCH_SCREENS = ['Dashboard', 'CardsScreen', 'FxScreen', 'DirectDebitScreen', 'OneCallBalances'];

async function issueExtraCards(target: Kit): Promise<void> {
  for (let i = 1; i < CARDS_ON_SCREEN; i++) {
    const { query, variables } = extraCardMutation(i);
    await run(target, query, variables);
  }
}

// --- Running one and counting -----------------------------------------------------------------

/** Runs a query or mutation (in parts when it defers); what it answered, in a word. */
async function run(target: Kit, query: string, variables: Record<string, unknown> = {}): Promise<string> {
  const parts = /@defer|@stream/.test(query);
  const response = await target.gateway.yoga.fetch('http://gateway.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: parts ? 'multipart/mixed' : 'application/graphql-response+json' },
    body: JSON.stringify({ query, variables }),
  });
  const text = await response.text();
  const payloads = (parts ? multipartParts(text).parts : [text]).map(
    (part) => JSON.parse(part) as { data?: unknown; errors?: { message: string }[] },
  );
  const errors = payloads.flatMap((p) => p.errors ?? []);
  if (errors.length > 0) return `errors: ${errors.map((e) => e.message).join('; ')}`;
  const typenames = Object.values((payloads[0]?.data ?? {}) as Record<string, { __typename?: string } | null>).flatMap(
    (v) => v?.__typename ?? [],
  );
  return typenames.length > 0 ? typenames.join(', ') : 'data';
}

/** Subscribes, delivers the event that makes it answer, and waits for the answer. */
async function runSubscription(target: Kit, query: string, inputs: Inputs): Promise<string> {
  const subscription = await subscribeSse(target, query, inputs.variables);
  try {
    const delivered = await deliverEvent(target.baseUrl, { ...inputs.event, id: eventId() });
    if (delivered.status !== 202) return `event refused: ${delivered.status}`;
    const [answer] = await subscription.next(1);
    return answer.errors ? `errors: ${JSON.stringify(answer.errors)}` : 'event';
  } finally {
    await subscription.close();
  }
}

/** The bank calls the sandbox saw: logins left out, but for a write that is one. */
function bankCalls(target: Kit, loginIsTheWrite: boolean): number {
  return target.calls().filter((call) => loginIsTheWrite || call.path !== PATHS.login).length;
}

/** The schema the gateway serves, as its request path hands it to execution. */
const servedSchema = (target: Kit) =>
  target.gateway.yoga.getEnveloped({ request: new Request('http://gateway.test/graphql'), params: {} } as never).schema;

async function measure(
  source: string,
  name: string,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  inputs: Inputs = {},
): Promise<Row> {
  const sent = alone(document, operation);
  const operationName = operation.name?.value;
  const estimate = estimateBankCalls(servedSchema(kit), { document: sent, operationName, variableValues: inputs.variables })!.calls;
  await inputs.prepare?.(kit);
  await kit.resetCounts();
  const query = print(sent);
  const outcome =
    operation.operation === 'subscription' ? await runSubscription(kit, query, inputs) : await run(kit, query, inputs.variables);
  const actual = bankCalls(kit, /accessTokenCreate/.test(query));
  const row = { source, name, estimate, actual, outcome };
  rows.push(row);
  return row;
}

/** An outcome that did not do what the operation is for: every one must reach the bank as meant. */
const FAILED = /^errors|refused|Rejection|ValidationError|Forbidden/;

/** A test per operation of `document`: it runs as it should, and makes no more calls than estimated. */
function eachOperation(source: string, document: DocumentNode, timeoutMs?: number): void {
  const operations = operationsOf(document).map((operation) => ({ name: operation.name!.value, operation }));
  it.each(operations)(
    `${source}: $name`,
    async ({ name, operation }) => {
      const row = await measure(source, name, document, operation, INPUTS[name]);
      expect(row.outcome).not.toMatch(FAILED);
      expect(row.estimate).toBeGreaterThanOrEqual(row.actual);
    },
    timeoutMs,
  );
}

describe('the estimate holds for every operation, run against the demo sandbox', () => {
  eachOperation('schema/operations', SHIPPED);
  // The cards screen issues its 49 extra cards first.
  eachOperation('bench', BENCH, 60_000);
  eachOperation('edge cases', EDGES);

  // In document order, as the README means them (an update after its create), each counted alone.
  it('README.md: every example of its Operations tables', async () => {
    const failures: string[] = [];
    for (const { name, example } of readmeExamples()) {
      const document = parse(example);
      const row = await measure('README', name, document, operationsOf(document)[0]!);
      if (FAILED.test(row.outcome)) failures.push(`${name}: ${row.outcome}`);
      if (row.estimate < row.actual) failures.push(`${name}: estimated ${row.estimate}, made ${row.actual}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);
});

// --- The table ----------------------------------------------------------------------------------

function formatTable(table: Record<string, unknown>[]): string {
  const columns = ['source', 'name', 'estimate', 'actual', 'ratio', 'outcome'];
  const cells = table.map((row) => columns.map((column) => String(row[column])));
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((row) => Math.min(row[i]!.length, 60))));
  const line = (values: string[]) => values.map((value, i) => value.slice(0, 60).padEnd(widths[i]!)).join(' | ');
  return [line(columns), widths.map((w) => '-'.repeat(w)).join('-|-'), ...cells.map(line)].join('\n');
}
