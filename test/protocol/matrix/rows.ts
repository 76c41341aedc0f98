/**
 * The matrix's rows: documents that shape what a client may send, each directive in every place a
 * client writes it (in the operation's own selection, in a named fragment, in a fragment nested in a
 * fragment, on a spread, in a fragment spread twice), combined, and next to the limits and the
 * refusals. Each says what it is (`nature`); what each way in should answer follows from that
 * (judge.ts), not from a verdict written per cell.
 */

/** What a row is, which decides how every way in answers it. */
export type Nature =
  /** A query answered in one result. */
  | 'query'
  /** A query with an @defer or @stream that is on: answered in parts where the way carries parts. */
  | 'parts'
  /** A live query: its first result, then pushes on a way that carries a stream. */
  | 'live'
  | 'mutation'
  /** A mutation whose payload is deferred: made only where the way carries parts. */
  | 'mutation in parts'
  /** A subscription: the event the log replays after the cursor of the setup's first event. */
  | 'subscription'
  /** Refused before it runs, everywhere, with this code (and a message matching `message`). */
  | { refused: string; message?: RegExp };

/** What a row's variables may be made from: the cursor of the first event the setup delivered. */
export interface RowSetup {
  cursor: string;
}

export interface Row {
  /** How the printed matrix names it. */
  name: string;
  /** The directive or feature it exercises, for the printed matrix's groups. */
  group: string;
  document: string;
  operationName?: string;
  variables?: (setup: RowSetup) => Record<string, unknown>;
  nature: Nature;
  /** Sent as a batch (an array of two of it), which the gateway refuses. */
  batch?: boolean;
}

const ACCOUNTS = 'accounts(first: 2) { nodes { upstreamId } }';
const LIVE_WITH_DEFER = /^Cannot mix "@defer" with "@live": The live query "\w+" reaches @defer (in its own selection|in fragment "\w+")/;
const LIVE_WITH_STREAM =
  /^Cannot mix "@stream" with "@live": The live query "\w+" reaches @stream (in its own selection|in fragment "\w+")/;
const refusedLive = (message: RegExp): Nature => ({ refused: 'GRAPHQL_VALIDATION_FAILED', message });

const DEFER: Row[] = [
  { group: '@defer', name: 'inline', nature: 'parts', document: `query DeferInline { ${ACCOUNTS} ... @defer { balances { currency } } }` },
  {
    group: '@defer',
    name: 'in a named fragment',
    nature: 'parts',
    document: `query DeferInFragment { ${ACCOUNTS} ...Later } fragment Later on Query { ... @defer { balances { currency } } }`,
  },
  {
    group: '@defer',
    name: 'in a nested fragment',
    nature: 'parts',
    document: `query DeferNested { ...Screen } fragment Screen on Query { ${ACCOUNTS} ...Later } fragment Later on Query { ... @defer { balances { currency } } }`,
  },
  {
    group: '@defer',
    name: 'on a spread',
    nature: 'parts',
    document: `query DeferOnSpread { ${ACCOUNTS} ...Later @defer } fragment Later on Query { balances { currency } }`,
  },
  {
    group: '@defer',
    name: 'in a fragment spread twice',
    nature: 'parts',
    document:
      'query DeferSpreadTwice { accounts(first: 2) { nodes { ...Row } } account(id: "acc_demo_usd") { ...Row } } fragment Row on Account { upstreamId ... @defer { status label } }',
  },
];

const STREAM_NODES = 'fragment Nodes on AccountConnection { nodes @stream(initialCount: 1) { upstreamId } }';
const STREAM: Row[] = [
  {
    group: '@stream',
    name: 'inline',
    nature: 'parts',
    document: 'query StreamInline { accounts(first: 5) { nodes @stream(initialCount: 1) { upstreamId } } }',
  },
  {
    group: '@stream',
    name: 'in a named fragment',
    nature: 'parts',
    document: `query StreamInFragment { accounts(first: 5) { ...Nodes } } ${STREAM_NODES}`,
  },
  {
    group: '@stream',
    name: 'in a nested fragment',
    nature: 'parts',
    document: `query StreamNested { ...Screen } fragment Screen on Query { accounts(first: 5) { ...Nodes } } ${STREAM_NODES}`,
  },
  {
    group: '@stream',
    name: 'in a fragment spread twice',
    nature: 'parts',
    document: `query StreamSpreadTwice { accounts(first: 5) { ...Nodes } active: accounts(first: 5, status: ACTIVE) { ...Nodes } } ${STREAM_NODES}`,
  },
];

/** @skip and @include in every place, each leaving the amounts out. */
function conditional(directive: 'skip' | 'include'): Row[] {
  const name = directive === 'skip' ? 'Skip' : 'Include';
  const variable = directive === 'skip' ? 'hide' : 'show';
  const off = `@${directive}(if: $${variable})`;
  const variables = () => ({ [variable]: directive === 'skip' });
  const declared = `($${variable}: Boolean!)`;
  const amounts = `fragment Amounts on Balance { currency available ${off} { amount } }`;
  return [
    {
      group: `@${directive}`,
      name: 'inline',
      nature: 'query',
      variables,
      document: `query ${name}Inline${declared} { balances { currency available ${off} { amount } } }`,
    },
    {
      group: `@${directive}`,
      name: 'in a named fragment',
      nature: 'query',
      variables,
      document: `query ${name}InFragment${declared} { balances { ...Amounts } } ${amounts}`,
    },
    {
      group: `@${directive}`,
      name: 'in a nested fragment',
      nature: 'query',
      variables,
      document: `query ${name}Nested${declared} { ...Screen } fragment Screen on Query { balances { ...Amounts } } ${amounts}`,
    },
    {
      group: `@${directive}`,
      name: 'on a spread',
      nature: 'query',
      variables,
      document: `query ${name}OnSpread${declared} { balances { currency ...Amounts ${off} } } fragment Amounts on Balance { available { amount } }`,
    },
    {
      group: `@${directive}`,
      name: 'in a fragment spread twice',
      nature: 'query',
      variables,
      document: `query ${name}SpreadTwice${declared} { balances { ...Amounts } usd: balances(currency: "USD") { ...Amounts } } ${amounts}`,
    },
  ];
}

const LIVE: Row[] = [
  { group: '@live', name: 'inline', nature: 'live', document: 'query LiveInline @live { balances { currency } }' },
  {
    group: '@live',
    name: 'with a named fragment',
    nature: 'live',
    document: 'query LiveFragment @live { ...Screen } fragment Screen on Query { balances { currency } }',
  },
  {
    group: '@live',
    name: 'with a nested fragment',
    nature: 'live',
    document:
      'query LiveNested @live { ...Screen } fragment Screen on Query { ...Money } fragment Money on Query { balances { currency } }',
  },
  {
    group: '@live',
    name: 'with a fragment spread twice',
    nature: 'live',
    document:
      'query LiveSpreadTwice @live { balances { ...Money } usd: balances(currency: "USD") { ...Money } } fragment Money on Balance { currency }',
  },
  {
    group: '@live + @defer',
    name: 'inline',
    nature: refusedLive(LIVE_WITH_DEFER),
    document: `query LiveDeferInline @live { ${ACCOUNTS} ... @defer { balances { currency } } }`,
  },
  {
    group: '@live + @defer',
    name: 'in a named fragment',
    nature: refusedLive(LIVE_WITH_DEFER),
    document: `query LiveDeferInFragment @live { ${ACCOUNTS} ...Later } fragment Later on Query { ... @defer { balances { currency } } }`,
  },
  {
    group: '@live + @defer',
    name: 'in a nested fragment',
    nature: refusedLive(LIVE_WITH_DEFER),
    document: `query LiveDeferNested @live { ...Screen } fragment Screen on Query { ${ACCOUNTS} ...Later } fragment Later on Query { ... @defer { balances { currency } } }`,
  },
  {
    group: '@live + @defer',
    name: 'on a spread',
    nature: refusedLive(LIVE_WITH_DEFER),
    document: `query LiveDeferOnSpread @live { ${ACCOUNTS} ...Later @defer } fragment Later on Query { balances { currency } }`,
  },
  {
    group: '@live + @defer',
    name: 'in a fragment spread twice',
    nature: refusedLive(LIVE_WITH_DEFER),
    document:
      'query LiveDeferSpreadTwice @live { accounts(first: 2) { nodes { ...Row } } account(id: "acc_demo_usd") { ...Row } } fragment Row on Account { upstreamId ... @defer { status } }',
  },
  {
    group: '@live + @stream',
    name: 'inline',
    nature: refusedLive(LIVE_WITH_STREAM),
    document: 'query LiveStreamInline @live { accounts(first: 5) { nodes @stream(initialCount: 1) { upstreamId } } }',
  },
  {
    group: '@live + @stream',
    name: 'in a named fragment',
    nature: refusedLive(LIVE_WITH_STREAM),
    document: `query LiveStreamInFragment @live { accounts(first: 5) { ...Nodes } } ${STREAM_NODES}`,
  },
  {
    group: '@live + @stream',
    name: 'in a nested fragment',
    nature: refusedLive(LIVE_WITH_STREAM),
    document: `query LiveStreamNested @live { ...Screen } fragment Screen on Query { accounts(first: 5) { ...Nodes } } ${STREAM_NODES}`,
  },
  {
    group: '@live + @stream',
    name: 'in a fragment spread twice',
    nature: refusedLive(LIVE_WITH_STREAM),
    document: `query LiveStreamSpreadTwice @live { accounts(first: 5) { ...Nodes } active: accounts(first: 5, status: ACTIVE) { ...Nodes } } ${STREAM_NODES}`,
  },
];

const TWO_OPERATIONS =
  'query Live @live { ...Plain } query Deferred { ...Later } fragment Plain on Query { balances { currency } } fragment Later on Query { ' +
  ACCOUNTS +
  ' ... @defer { balances { currency } } }';

const CARD_UPDATE = 'cardUpdate(input: { cardId: "crd_demo_ava_v", status: ACTIVE, updatedBy: "Jordan Miles" })';

const COMBINED: Row[] = [
  {
    group: 'combined',
    name: '@defer + @skip, skipped',
    nature: 'query',
    variables: () => ({ hide: true }),
    document: `query DeferSkipped($hide: Boolean!) { ${ACCOUNTS} ... @defer @skip(if: $hide) { balances { currency } } }`,
  },
  {
    group: 'combined',
    name: '@defer + @skip, kept',
    nature: 'parts',
    variables: () => ({ hide: false }),
    document: `query DeferKept($hide: Boolean!) { ${ACCOUNTS} ... @defer @skip(if: $hide) { balances { currency } } }`,
  },
  {
    group: 'combined',
    name: '@defer(if: $later), false',
    nature: 'query',
    variables: () => ({ later: false }),
    document: `query DeferOff($later: Boolean!) { ${ACCOUNTS} ...Later @defer(if: $later) } fragment Later on Query { balances { currency } }`,
  },
  {
    group: 'combined',
    name: '@stream inside @defer',
    nature: 'parts',
    document:
      'query StreamInDefer { balances { currency } ... @defer { accounts(first: 5) { nodes @stream(initialCount: 1) { upstreamId } } } }',
  },
  {
    group: 'combined',
    name: '@live + @include',
    nature: 'live',
    variables: () => ({ withAmounts: false }),
    document: 'query LiveInclude($withAmounts: Boolean!) @live { balances { currency available @include(if: $withAmounts) { amount } } }',
  },
  {
    group: 'combined',
    name: 'a live and a deferred operation: the live one',
    nature: 'live',
    operationName: 'Live',
    document: TWO_OPERATIONS,
  },
  {
    group: 'combined',
    name: 'a live and a deferred operation: the deferred one',
    nature: 'parts',
    operationName: 'Deferred',
    document: TWO_OPERATIONS,
  },
  {
    group: 'mutation',
    name: 'plain',
    nature: 'mutation',
    document: `mutation CardActive { ${CARD_UPDATE} { __typename ... on CardUpdateSuccess { card { upstreamId status } } } }`,
  },
  {
    group: 'mutation',
    name: '@defer on its payload',
    nature: 'mutation in parts',
    document: `mutation CardActiveDeferred { ${CARD_UPDATE} { __typename ... on CardUpdateSuccess { ...Payload @defer } } } fragment Payload on CardUpdateSuccess { card { upstreamId status } }`,
  },
];

const SUBSCRIPTION: Row[] = [
  {
    group: 'subscription',
    name: 'inline',
    nature: 'subscription',
    variables: ({ cursor }) => ({ after: cursor }),
    document: 'subscription EventsInline($after: String!) { bankEvents(after: $after) { name upstreamId } }',
  },
  {
    group: 'subscription',
    name: 'in a named fragment, with @include',
    nature: 'subscription',
    variables: ({ cursor }) => ({ after: cursor, withData: false }),
    document:
      'subscription EventsInFragment($after: String!, $withData: Boolean!) { bankEvents(after: $after) { ...Event } } fragment Event on BankEvent { name upstreamId data @include(if: $withData) }',
  },
  {
    // The executor sends each event whole: a @defer below a subscription's root has no effect (on its root it is refused).
    group: 'subscription',
    name: 'with @defer below its root: each event whole',
    nature: 'subscription',
    variables: ({ cursor }) => ({ after: cursor }),
    document:
      'subscription EventsDeferred($after: String!) { bankEvents(after: $after) { name ...Later @defer } } fragment Later on BankEvent { upstreamId }',
  },
];

const DEEP =
  'cards(first: 1) { nodes { cardholder { cards(first: 1) { nodes { cardholder { cards(first: 1) { nodes { cardholder { cards(first: 1) { nodes { cardholder { upstreamId } } } } } } } } } } } }';
const LIMITS: Row[] = [
  {
    group: 'limits',
    name: 'deeper than MAX_DEPTH',
    nature: { refused: 'QUERY_TOO_COMPLEX', message: /^The operation is too complex \(depth\)/ },
    document: `query TooDeep { ${DEEP} }`,
  },
  {
    group: 'limits',
    name: 'more directives than MAX_DIRECTIVES',
    nature: { refused: 'QUERY_TOO_COMPLEX', message: /^The operation is too complex \(directives\)/ },
    document: `query TooManyDirectives { balances { currency${' @include(if: true)'.repeat(11)} } }`,
  },
  {
    group: 'limits',
    name: 'a page larger than the largest',
    nature: { refused: 'BAD_USER_INPUT' },
    document: 'query PageTooLarge { accounts(first: 1000) { nodes { upstreamId } } }',
  },
  {
    group: 'limits',
    name: 'a batch of two operations',
    nature: { refused: 'BAD_REQUEST', message: /^Batching is not supported/ },
    batch: true,
    document: 'query Batched { balances { currency } }',
  },
  {
    group: 'limits',
    name: 'a directive the schema lacks',
    nature: { refused: 'GRAPHQL_VALIDATION_FAILED', message: /Unknown directive "@cached"/ },
    document: 'query UnknownDirective { balances @cached { currency } }',
  },
];

export const ROWS: readonly Row[] = [
  ...DEFER,
  ...STREAM,
  ...conditional('skip'),
  ...conditional('include'),
  ...LIVE,
  ...COMBINED,
  ...SUBSCRIPTION,
  ...LIMITS,
];
