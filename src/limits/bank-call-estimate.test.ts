import { encodeGlobalID } from '@pothos/plugin-relay';
import { getNamedType, isObjectType, parse, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { MAX_SCAN_PAGES } from '../schema/direct-debit-reads.ts';
import { buildSchema } from '../schema/index.ts';
import { estimateBankCalls } from './bank-call-estimate.ts';
import { BANK_CALL_PRICES, DIRECT_DEBIT_SCAN_PAGES, NODE_LOADERS } from './bank-call-prices.ts';

const schema = buildSchema();
const subgraph = buildSchema({ federation: true });

function estimate(query: string, variableValues?: Record<string, unknown>, on: GraphQLSchema = schema) {
  return estimateBankCalls(on, { document: parse(query), variableValues });
}
const calls = (query: string, variableValues?: Record<string, unknown>) => estimate(query, variableValues)!.calls;

describe('the price table', () => {
  const fields = Object.values(subgraph.getTypeMap())
    .filter(isObjectType)
    .filter((type) => !type.name.startsWith('__'))
    .flatMap((type) => Object.values(type.getFields()).map((field) => ({ coordinate: `${type.name}.${field.name}`, type, field })));
  const coordinates = new Set(fields.map((f) => f.coordinate));

  it('prices fields the schema has: a renamed field fails here', () => {
    expect(Object.keys(BANK_CALL_PRICES).filter((coordinate) => !coordinates.has(coordinate))).toEqual([]);
  });

  it('prices every connection: each reads a page or a list from the bank', () => {
    const connections = fields.filter((f) => f.field.args.some((a) => a.name === 'first')).map((f) => f.coordinate);
    expect(connections.length).toBeGreaterThan(10);
    expect(connections.filter((coordinate) => !(coordinate in BANK_CALL_PRICES))).toEqual([]);
  });

  it('prices every root read and write but those that read nothing of the bank', () => {
    // The caller (schema/me.ts), the subgraph's SDL, and the operation's own price in bank calls.
    const readNothing = new Set(['Query.me', 'Query._service', 'Query.rateLimit']);
    const roots = fields.filter((f) => ['Query', 'Mutation'].includes(f.type.name)).map((f) => f.coordinate);
    expect(roots.filter((coordinate) => !(coordinate in BANK_CALL_PRICES) && !readNothing.has(coordinate))).toEqual([]);
  });

  it('prices every field that returns a record read by id, but a page’s items and a write’s own result', () => {
    const links = fields.filter((f) => getNamedType(f.field.type).name in NODE_LOADERS && !(f.coordinate in BANK_CALL_PRICES));
    expect(links.filter((f) => !/(Connection|Edge|Success)$/.test(f.type.name)).map((f) => f.coordinate)).toEqual([]);
  });

  it('scans as many direct debit pages as the schema does', () => {
    expect(DIRECT_DEBIT_SCAN_PAGES).toBe(MAX_SCAN_PAGES);
  });
});

describe('estimateBankCalls', () => {
  it('counts one call for one read, and nothing for an operation that is not there', () => {
    expect(estimate('{ balances { currency } }')).toEqual({ calls: 1, costliest: [{ path: 'balances', calls: 1 }] });
    expect(estimate('{ me { name } }')).toEqual({ calls: 0, costliest: [] });
    expect(estimateBankCalls(schema, { document: parse('query A { balances { currency } }'), operationName: 'B' })).toBeUndefined();
  });

  it('counts a page and a call per item below it, with the default page and two pages after a cursor', () => {
    expect(estimate('{ accounts(first: 10) { nodes { transactions(first: 5) { nodes { createdAt } } } } }')).toEqual({
      calls: 11,
      costliest: [
        { path: 'accounts.nodes.transactions', calls: 10 },
        { path: 'accounts', calls: 1 },
      ],
    });
    expect(calls('{ cards { edges { node { transactions { nodes { type } } } } } }')).toBe(1 + 20);
    expect(
      calls('query($after: String) { cards(first: 10, after: $after) { nodes { status } } }', { after: 'T2Zmc2V0Q29ubmVjdGlvbjo5' }),
    ).toBe(2);
    expect(calls('{ cards(first: 100) { nodes { status } } }')).toBe(2);
    expect(calls('{ beneficiaries(first: 99) { nodes { nickname } } }')).toBe(1);
    expect(calls('{ cards(first: 0) { nodes { cardholder { email } } } }')).toBe(1);
  });

  it('counts each alias of a field as a run of its own, and one field selected twice once', () => {
    expect(calls('{ a: balances { currency } b: balances { currency } }')).toBe(2);
    expect(calls('{ balances { currency } balances { available { amount } } }')).toBe(1);
  });

  it('counts a read shared by argument values once: one direct debit scan for every mandate', () => {
    const screen = '{ globalAccount(id: "ga_demo_gb") { mandates(first: 10) { nodes { directDebits(first: 20) { nodes { status } } } } } }';
    expect(estimate(screen)).toEqual({
      calls: 1 + 1 + MAX_SCAN_PAGES,
      costliest: [
        { path: 'globalAccount.mandates.nodes.directDebits', calls: MAX_SCAN_PAGES },
        { path: 'globalAccount', calls: 1 },
        { path: 'globalAccount.mandates', calls: 1 },
      ],
    });
    const twoWindows =
      '{ globalAccount(id: "ga_demo_gb") { directDebits(dateRange: {from: "2026-01-01"}) { nodes { status } } mandates { nodes { directDebits { nodes { status } } } } } }';
    expect(calls(twoWindows)).toBe(1 + 1 + 2 * MAX_SCAN_PAGES);
    // The scanned payouts are the parent account's own, whose record is in the loader already.
    expect(calls('{ globalAccount(id: "ga_demo_gb") { directDebits { nodes { account { country } disputeWindow { rule } } } } }')).toBe(
      1 + MAX_SCAN_PAGES,
    );
  });

  it("counts a card's detail once per card however many of its fields are selected", () => {
    const page =
      '{ cards(first: 10) { nodes { scheme brand limit { amount } spendingControls { interval } availableBalance { amount } } } }';
    expect(estimate(page)).toEqual({
      calls: 11,
      costliest: [
        { path: 'cards.nodes.scheme', calls: 10 },
        { path: 'cards', calls: 1 },
      ],
    });
    expect(calls('{ cards(first: 10) { nodes { ...Detail ... on Card { limit { amount } } } } } fragment Detail on Card { scheme }')).toBe(
      11,
    );
  });

  it('prices loads as their loader batches them: cards and cardholders may read the list past four keys', () => {
    expect(calls('{ cards(first: 50) { nodes { cardholder { email } } } }')).toBe(1 + 50 + 50 / 5);
    expect(calls('{ a: card(id: "crd_1") { status } b: card(id: "crd_2") { status } }')).toBe(2);
    const five = Array.from({ length: 5 }, (_, i) => `c${i}: card(id: "crd_${i}") { status }`).join(' ');
    expect(calls(`{ ${five} }`)).toBe(6);
    // Accounts: one call a batch, and `nodes` loads each type's ids in one batch.
    const accounts = Array.from({ length: 30 }, (_, i) => encodeGlobalID('Account', `acc_${i}`));
    expect(calls('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: accounts })).toBe(1);
  });

  it('counts a field again in a deferred fragment, which runs apart: but not a read shared per record', () => {
    const again = '{ cards(first: 5) { nodes { transactions { nodes { type } } ... @defer { transactions { nodes { type } } } } } }';
    expect(calls(again)).toBe(1 + 5 + 5);
    expect(calls(again.replace('@defer', '@defer(if: false)'))).toBe(1 + 5);
    expect(calls('{ cards(first: 5) { nodes { scheme ...Later @defer } } } fragment Later on Card { brand }')).toBe(1 + 5);
  });

  it('counts nothing under @skip(if: true) or @include(if: false), with the variables', () => {
    const query =
      'query($skip: Boolean!) { balances @skip(if: $skip) { currency } ... @include(if: $skip) { fxRate(sourceCurrency: "USD", destinationCurrency: "EUR", sourceAmount: "1") { rate } } }';
    expect(calls(query, { skip: true })).toBe(1);
    expect(calls(query, { skip: false })).toBe(1);
    expect(calls('{ balances @skip(if: false) { currency } viewer @include(if: true) { status } }')).toBe(2);
  });

  it('walks a fragment on an interface for the types it may be: `node` for the type its id names', () => {
    const query = `query($id: ID!) { node(id: $id) { ... on Node { id } ...CardParts } } fragment CardParts on Card { scheme cardholder { email } }`;
    expect(calls(query, { id: encodeGlobalID('Card', 'crd_demo_ava_v') })).toBe(3);
    expect(calls(query, { id: encodeGlobalID('Account', 'acc_demo_usd') })).toBe(1);
    expect(calls(query, { id: 'not a global id' })).toBe(0);
    const mixed = [encodeGlobalID('Card', 'crd_1'), encodeGlobalID('Card', 'crd_2'), encodeGlobalID('Account', 'acc_1')];
    expect(calls('query($ids: [ID!]!) { nodes(ids: $ids) { ...CardParts } } fragment CardParts on Card { scheme }', { ids: mixed })).toBe(
      2 + 1 + 2,
    );
  });

  it('counts a write, what it reads first and the record it reads back, and the fields selected on the result', () => {
    const input =
      '{ cardholderId: "chd_demo_ava", type: VIRTUAL, personalized: true, allowedTransactionCount: MULTIPLE, limitCurrency: "USD", limits: [], createdBy: "Jane Doe" }';
    expect(calls(`mutation { cardCreate(input: ${input}) { __typename } }`)).toBe(2);
    expect(
      calls(
        `mutation { cardCreate(input: ${input}) { ... on CardCreateSuccess { card { spendingControls { interval } } } ... on MutationError { message } } }`,
      ),
    ).toBe(3);
    expect(calls('mutation { cardholderDelete(input: { cardholderId: "chd_demo_ops" }) { __typename } }')).toBe(1);
    const payout =
      'mutation($input: PayoutCreateInput!) { payoutCreate(input: $input) { ... on PayoutCreateSuccess { payout { status quote { rate } beneficiary { nickname } } } } }';
    // The write, its quote read to check it; then its status and beneficiary (its quote is loaded).
    expect(calls(payout, {})).toBe(2 + 2);
  });

  it('counts the reads a write makes first from its arguments: a rule set per transfer method, a look at a repeated key', () => {
    const create = 'mutation($input: BeneficiaryCreateInput!) { beneficiaryCreate(input: $input) { __typename } }';
    expect(calls(create, { input: { transferMethods: ['SWIFT', 'SWIFT'] } })).toBe(1 + 2);
    expect(calls(create, { input: { transferMethods: ['SWIFT', 'LOCAL'] } })).toBe(2 + 2);
    // An update that names no transfer method is checked against the stored ones: both, at most.
    expect(calls('mutation { beneficiaryUpdate(input: { beneficiaryId: "ben_demo_gb", nickname: "G" }) { __typename } }')).toBe(1 + 2 + 2);
    const cancel = 'mutation($key: String) { mandateCancel(input: { mandateId: "x" }, idempotencyKey: $key) { __typename } }';
    expect(calls(cancel, {})).toBe(2);
    expect(calls(cancel, { key: 'k-1' })).toBe(3);
  });

  it("gives a subscription's bound for one event", () => {
    expect(calls('subscription { cardStatusChanged { status card { scheme cardholder { email } } } }')).toBe(3);
    expect(calls('subscription { bankEvents { id data } }')).toBe(0);
    // Narrowed to an account, it reads the account's number once as it starts.
    expect(calls('subscription { depositUpdated { account { label } } }')).toBe(1);
    expect(calls('subscription { depositUpdated(accountId: "acc_demo_usd") { account { label } } }')).toBe(2);
  });

  it('serves a status from the payouts listed as upcoming, and a wallet’s cardholder from the cardholder it was read through', () => {
    expect(calls('{ upcomingPayouts(first: 10) { nodes { status beneficiary { nickname } } } }')).toBe(1 + 10);
    expect(calls('{ cardholder(id: "chd_demo_ava") { wallet { cardholder { email } } wallets { upstreamId } } }')).toBe(2);
  });

  it("bounds a cardholder's wallets by the currencies there are (LIST_LENGTHS): one history page each, and the cardholder", () => {
    const currencies = Intl.supportedValuesOf('currency').length;
    expect(calls('{ cardholder(id: "chd_demo_ava") { wallets { history(first: 5) { nodes { type } } } } }')).toBe(1 + 1 + currencies);
  });

  it('prices the representations a router sends by their types', () => {
    const representations = [
      { __typename: 'Card', upstreamId: 'crd_1' },
      { __typename: 'Card', id: encodeGlobalID('Account', 'acc_1') },
      { __typename: 'Wallet', upstreamId: 'wal_1' },
    ];
    const query = 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Card { scheme } } }';
    expect(estimate(query, { r: representations }, subgraph)!.calls).toBe(2);
  });

  it('keeps an estimate per document and the values of the variables it read', () => {
    const document = parse('query($n: Int, $unused: String) { cards(first: $n) { nodes { scheme } } }');
    const first = estimateBankCalls(schema, { document, variableValues: { n: 5, unused: 'a' } });
    expect(estimateBankCalls(schema, { document, variableValues: { n: 5, unused: 'b' } })).toBe(first);
    expect(estimateBankCalls(schema, { document, variableValues: { n: 7 } })!.calls).toBe(8);
    expect(first!.calls).toBe(6);
  });
});
