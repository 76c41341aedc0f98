import { accountEndpoints, TRANSFER_METHODS } from '../upstream/accounts.ts';
import { loginEndpoint } from '../upstream/bank-tokens.ts';
import { beneficiaryEndpoints } from '../upstream/beneficiaries.ts';
import { cardholderEndpoints } from '../upstream/cardholders.ts';
import { cardEndpoints } from '../upstream/cards.ts';
import { directDebitEndpoints } from '../upstream/direct-debit.ts';
import type { Endpoint } from '../upstream/endpoint.ts';
import { fxEndpoints } from '../upstream/fx.ts';
import { kycEndpoints } from '../upstream/kyc.ts';
import { onboardingEndpoints } from '../upstream/onboarding.ts';
import { payoutEndpoints } from '../upstream/payouts.ts';
import { walletEndpoints } from '../upstream/wallets.ts';
import { webhookEndpoints } from '../upstream/webhooks.ts';

/**
 * What each field of the graph can cost the bank, for the estimate made before execution
 * (bank-call-estimate.ts): one row per field whose resolver can reach the bank, keyed
 * `Type.field`; a field without a row costs nothing (it reads its parent). Each row names the
 * calls as the endpoint tables (src/upstream/<domain>.ts) define them, one entry a call. The
 * record cache is not counted on: a kept read only makes the real count lower.
 *
 * Not counted: logins and token proofs (shared by operations), retries, and the ownership reads of a
 * caller bound to one cardholder (authorization/cardholder-scope.ts).
 */

type Call = Endpoint<unknown>;

/** The node types read by id through a per-request loader (schema/<domain>.ts, `loadableNode`). */
export type NodeTypeName =
  'Account' | 'Beneficiary' | 'Card' | 'Cardholder' | 'Conversion' | 'DirectDebit' | 'GlobalAccount' | 'Mandate' | 'Payout' | 'Quote';

export type BankCallPrice =
  /**
   * `calls` and `loads` once per parent object (each run of the resolver). Fields of one `group`
   * share them: counted once per parent however many are selected. Nothing when the parent came
   * from a field of `freeWhenParentFrom`, which brings what this field reads. `ifGiven`: more when
   * an argument is given; `perDistinct`: calls once per distinct item of a list in the arguments
   * (`atMost` when it is not given).
   */
  | {
      per: 'parent';
      calls?: readonly Call[];
      loads?: readonly NodeTypeName[];
      group?: string;
      freeWhenParentFrom?: readonly string[];
      ifGiven?: { argument: string; calls?: readonly Call[]; loads?: readonly NodeTypeName[] };
      perDistinct?: { argument: readonly string[]; calls: readonly Call[]; atMost: number };
    }
  /** A connection over the bank's pages: `calls` once per page it takes for n items and a cursor, per parent. */
  | { per: 'page'; paging: PagingKind; calls: readonly Call[] }
  /**
   * `times` × `calls` once per distinct argument values, shared by every parent of the operation
   * (`sharedBy: 'operation'`) or of one root field (`'root field'`: the records it reaches act
   * for the same connected account, which is part of what is shared).
   */
  | { per: 'arguments'; calls: readonly Call[]; times: number; sharedBy: 'operation' | 'root field' }
  /** One load per id the argument names, of the type the id names (`node`, `nodes`, `_entities`). */
  | { per: 'id'; argument: 'id' | 'ids' | 'representations' };

/**
 * `page and size`: schema/connections.ts pagedConnection, one call for n ≤ 99 items from the start,
 * two for 100 or after a cursor (n+1 items on at most two pages of 100). `offset and limit`:
 * offsetConnection, one call for n ≤ 99 and two for 100, wherever the window starts.
 */
export type PagingKind = 'page and size' | 'offset and limit';

/**
 * How a node type's loader turns the loads of one batch into calls (schema/batched-reads.ts,
 * schema/accounts.ts): `a call a batch` reads one id or the whole list; `a call a key` one read per
 * key; `a call a key, the list past four` one read per key up to four keys, else list pages of
 * 100 then single reads of the keys the list did not hold: at most one call more than a read each.
 */
export type LoaderBatching = 'a call a batch' | 'a call a key' | 'a call a key, the list past four';

export const NODE_LOADERS: Record<NodeTypeName, { calls: readonly Call[]; batching: LoaderBatching }> = {
  Account: { calls: [accountEndpoints.list], batching: 'a call a batch' },
  Beneficiary: { calls: [beneficiaryEndpoints.get], batching: 'a call a key' },
  Card: { calls: [cardEndpoints.list], batching: 'a call a key, the list past four' },
  Cardholder: { calls: [cardholderEndpoints.get, cardholderEndpoints.list], batching: 'a call a key, the list past four' },
  Conversion: { calls: [fxEndpoints.conversion], batching: 'a call a key' },
  DirectDebit: { calls: [directDebitEndpoints.directDebit], batching: 'a call a key' },
  GlobalAccount: { calls: [directDebitEndpoints.globalAccount], batching: 'a call a key' },
  Mandate: { calls: [directDebitEndpoints.mandate], batching: 'a call a key' },
  Payout: { calls: [payoutEndpoints.status], batching: 'a call a key' },
  Quote: { calls: [fxEndpoints.quote], batching: 'a call a key' },
};

/** Keys of one batch past which the list is read first (schema/batched-reads.ts LIST_BATCH_THRESHOLD, plus one). */
export const LIST_FIRST_FROM_KEYS = 5;

/** Pages of 100 a direct-debit scan reads at most (schema/direct-debit-reads.ts MAX_SCAN_PAGES). */
export const DIRECT_DEBIT_SCAN_PAGES = 20;

const parent = (...calls: Call[]): BankCallPrice => ({ per: 'parent', calls });
const loads = (...types: NodeTypeName[]): BankCallPrice => ({ per: 'parent', loads: types });
const write = (calls: Call[], readBack: NodeTypeName[] = []) => ({ per: 'parent', calls, loads: readBack }) as const;
const pages = (paging: PagingKind, ...calls: Call[]): BankCallPrice => ({ per: 'page', paging, calls });

/** The 21 card fields read from GET /card/detail: one read per card, shared by every one selected (schema/cards.ts). */
const CARD_DETAIL: BankCallPrice = { per: 'parent', calls: [cardEndpoints.detail], group: 'card detail' };

/** A cardholder's wallets, read once per cardholder for `wallet` and `wallets` alike (schema/wallets.ts). */
const WALLETS: BankCallPrice = { per: 'parent', calls: [walletEndpoints.list], group: 'wallets' };

/**
 * A global account's or a mandate's payouts: the bank's list of all payouts, scanned page by page
 * and shared per request by whom it acts for and the dates (schema/direct-debit-reads.ts).
 */
const DIRECT_DEBIT_SCAN: BankCallPrice = {
  per: 'arguments',
  calls: [directDebitEndpoints.directDebits],
  times: DIRECT_DEBIT_SCAN_PAGES,
  sharedBy: 'root field',
};

/**
 * A payout's account, read for `account` and `disputeWindow` alike; the scan of a global account
 * keeps only that account's payouts, already loaded.
 */
const DIRECT_DEBIT_ACCOUNT: BankCallPrice = {
  per: 'parent',
  loads: ['GlobalAccount'],
  group: 'direct debit account',
  freeWhenParentFrom: ['GlobalAccount.directDebits'],
};

/** Payouts read by id carry no quote or beneficiary to link (schema/payouts.ts). */
const PAYOUTS_READ_BY_ID = [
  'Query.payout',
  'Query.node',
  'Query.nodes',
  'Query._entities',
  'PayoutCancelled.payout',
  'PayoutFundingUpdate.payout',
];

/** Payouts read by id (the status endpoint) or listed as upcoming carry their status. */
const PAYOUTS_WITH_STATUS = ['Query.upcomingPayouts', ...PAYOUTS_READ_BY_ID];

/** A beneficiary write's rule sets: one read per distinct transfer method (schema/beneficiaries.ts assertFollowsBankRules). */
const RULE_SETS = { argument: ['input', 'transferMethods'], calls: [beneficiaryEndpoints.schema], atMost: TRANSFER_METHODS.length };

/** A deposit's account: by id through the loader, or by number through one read of the list (schema/events.ts). */
const DEPOSIT_ACCOUNT: BankCallPrice = { per: 'parent', calls: [accountEndpoints.list], group: 'deposit account' };

export const BANK_CALL_PRICES: Readonly<Record<string, BankCallPrice>> = {
  // --- Reads at the root -----------------------------------------------------------------------
  'Query.account': loads('Account'),
  'Query.accounts': parent(accountEndpoints.list),
  'Query.balances': parent(accountEndpoints.balances),
  'Query.balanceHistory': pages('page and size', accountEndpoints.balanceHistory),
  'Query.beneficiary': loads('Beneficiary'),
  'Query.beneficiaries': pages('offset and limit', beneficiaryEndpoints.list),
  'Query.beneficiarySchema': parent(beneficiaryEndpoints.schema),
  'Query.card': loads('Card'),
  'Query.cards': pages('page and size', cardEndpoints.list),
  'Query.cardholder': loads('Cardholder'),
  'Query.cardholders': pages('page and size', cardholderEndpoints.list),
  'Query.conversion': loads('Conversion'),
  'Query.conversions': parent(fxEndpoints.conversionList),
  'Query.directDebit': loads('DirectDebit'),
  'Query.directDebits': pages('page and size', directDebitEndpoints.directDebits),
  'Query.fxRate': parent(fxEndpoints.rate),
  'Query.globalAccount': loads('GlobalAccount'),
  'Query.node': { per: 'id', argument: 'id' },
  'Query.nodes': { per: 'id', argument: 'ids' },
  'Query._entities': { per: 'id', argument: 'representations' },
  'Query.payout': loads('Payout'),
  'Query.quote': loads('Quote'),
  'Query.upcomingPayouts': parent(payoutEndpoints.upcoming),
  'Query.viewer': parent(onboardingEndpoints.profile),
  // Kept across requests, and concurrent misses share one call: at most one an operation.
  'Query.webhookCatalogue': { per: 'arguments', calls: [webhookEndpoints.catalogue], times: 1, sharedBy: 'operation' },
  'Query.webhookSubscriptions': parent(webhookEndpoints.subscriptions),

  // --- Fields of records -----------------------------------------------------------------------
  'Account.transactions': pages('page and size', accountEndpoints.transactions),
  'AccountClosed.account': loads('Account'),
  'BusinessProfile.rfis': parent(onboardingEndpoints.rfis),
  'Caller.cardholder': loads('Cardholder'),
  'Card.cardholder': loads('Cardholder'),
  'Card.transactions': pages('page and size', cardEndpoints.transactions),
  'Card.personalized': CARD_DETAIL,
  'Card.scheme': CARD_DETAIL,
  'Card.brand': CARD_DETAIL,
  'Card.formFactor': CARD_DETAIL,
  'Card.nickname': CARD_DETAIL,
  'Card.createdBy': CARD_DETAIL,
  'Card.bin': CARD_DETAIL,
  'Card.modeType': CARD_DETAIL,
  'Card.productId': CARD_DETAIL,
  'Card.purpose': CARD_DETAIL,
  'Card.limit': CARD_DETAIL,
  'Card.availableBalance': CARD_DETAIL,
  'Card.noPinPaymentAmount': CARD_DETAIL,
  'Card.spendingControls': CARD_DETAIL,
  'Card.authorizationControls': CARD_DETAIL,
  'Card.delivery': CARD_DETAIL,
  'Card.postalAddress': CARD_DETAIL,
  'Card.program': CARD_DETAIL,
  'Card.cardholderSummary': CARD_DETAIL,
  'Card.riskControls': CARD_DETAIL,
  'Card.metadata': CARD_DETAIL,
  'CardAssigned.card': parent(cardEndpoints.list),
  'CardAssigned.cardholder': loads('Cardholder'),
  'Cardholder.cards': pages('page and size', cardEndpoints.list),
  'Cardholder.kyc': parent(kycEndpoints.status),
  'Cardholder.wallet': WALLETS,
  'Cardholder.wallets': WALLETS,
  'CardholderKyc.rfi': parent(kycEndpoints.rfi),
  'CardholderKyc.rfiResponseLink': parent(kycEndpoints.rfiRespond),
  'Conversion.quote': loads('Quote'),
  'DirectDebit.account': DIRECT_DEBIT_ACCOUNT,
  'DirectDebit.disputeWindow': DIRECT_DEBIT_ACCOUNT,
  'DirectDebit.mandate': loads('Mandate'),
  'GlobalAccount.directDebits': DIRECT_DEBIT_SCAN,
  'GlobalAccount.mandates': pages('page and size', directDebitEndpoints.mandates),
  'Mandate.account': loads('GlobalAccount'),
  'Mandate.directDebits': DIRECT_DEBIT_SCAN,
  'Payout.status': { per: 'parent', loads: ['Payout'], freeWhenParentFrom: PAYOUTS_WITH_STATUS },
  // The quote of a new payout was read to check it (schema/fx.ts assertMatchesQuote).
  'Payout.quote': { per: 'parent', loads: ['Quote'], freeWhenParentFrom: [...PAYOUTS_READ_BY_ID, 'PayoutCreateSuccess.payout'] },
  'Payout.beneficiary': { per: 'parent', loads: ['Beneficiary'], freeWhenParentFrom: PAYOUTS_READ_BY_ID },
  'PayoutCancelled.payout': loads('Payout'),
  // Every cardholder a wallet is reached through is in the loader already.
  'Wallet.cardholder': { per: 'parent', loads: ['Cardholder'], freeWhenParentFrom: ['Cardholder.wallet', 'Cardholder.wallets'] },
  'Wallet.history': pages('page and size', walletEndpoints.history),

  // --- Bank events: each event's links are read afresh (schema/events.ts) -----------------------
  'CardStatusChange.card': loads('Card'),
  'CardTransactionSucceeded.card': loads('Card'),
  'CardholderStatusChange.cardholder': loads('Cardholder'),
  'ConversionUpdate.conversion': loads('Conversion'),
  'DepositUpdate.account': DEPOSIT_ACCOUNT,
  'DepositUpdate.accountUpstreamId': DEPOSIT_ACCOUNT,
  'DirectDebitStatusChange.directDebit': loads('DirectDebit'),
  'PayoutFundingUpdate.payout': loads('Payout'),
  // With accountId, reads the account's number once when it starts: counted with each event's bound.
  'Subscription.depositUpdated': { per: 'parent', ifGiven: { argument: 'accountId', calls: [accountEndpoints.list] } },

  // --- Writes, with the reads they make first and the record read back ---------------------------
  'Mutation.accessTokenCreate': write([loginEndpoint]),
  'Mutation.accountCreate': write([accountEndpoints.create]),
  'Mutation.accountClose': write([accountEndpoints.close]),
  // The rule set of each transfer method first (the stored ones for an update that names none), the beneficiary read back after.
  'Mutation.beneficiaryCreate': { ...write([beneficiaryEndpoints.create, beneficiaryEndpoints.get]), perDistinct: RULE_SETS },
  'Mutation.beneficiaryUpdate': {
    ...write([beneficiaryEndpoints.get, beneficiaryEndpoints.update, beneficiaryEndpoints.get]),
    perDistinct: RULE_SETS,
  },
  'Mutation.beneficiaryDelete': write([beneficiaryEndpoints.delete]),
  'Mutation.cardCreate': write([cardEndpoints.create], ['Card']),
  'Mutation.cardAssign': write([cardEndpoints.assign]),
  'Mutation.cardActivate': write([cardEndpoints.activate], ['Card']),
  'Mutation.cardPinReset': write([cardEndpoints.pin], ['Card']),
  'Mutation.cardUpdate': write([cardEndpoints.update], ['Card']),
  'Mutation.cardRecharge': write([cardEndpoints.recharge], ['Card']),
  'Mutation.cardholderCreate': write([cardholderEndpoints.create], ['Cardholder']),
  'Mutation.cardholderUpdate': write([cardholderEndpoints.update], ['Cardholder']),
  'Mutation.cardholderDelete': write([cardholderEndpoints.delete]),
  // The quote is read to check the conversion or payout against it.
  'Mutation.conversionCreate': write([fxEndpoints.conversionCreate], ['Quote']),
  'Mutation.quoteCreate': write([fxEndpoints.quoteCreate]),
  'Mutation.payoutCreate': write([payoutEndpoints.create], ['Quote']),
  'Mutation.payoutCancel': write([payoutEndpoints.cancel]),
  'Mutation.walletCreate': write([walletEndpoints.create]),
  // With a key, a repeat whose first answer was lost looks at the record before the read-back (schema/mutation-errors.ts orAlreadyDone).
  'Mutation.mandateCancel': {
    ...write([directDebitEndpoints.mandateCancel], ['Mandate']),
    ifGiven: { argument: 'idempotencyKey', loads: ['Mandate'] },
  },
  'Mutation.directDebitCancel': {
    ...write([directDebitEndpoints.directDebitCancel], ['DirectDebit']),
    ifGiven: { argument: 'idempotencyKey', loads: ['DirectDebit'] },
  },
  'Mutation.webhookSubscriptionCreate': write([webhookEndpoints.subscribe, webhookEndpoints.subscriptions]),
  'Mutation.webhookSubscriptionUpdate': write([webhookEndpoints.subscriptions, webhookEndpoints.update, webhookEndpoints.subscriptions]),
  'Mutation.webhookSubscriptionDelete': write([webhookEndpoints.unsubscribe]),
};

/**
 * The lists without page arguments that can hold a field that calls the bank, and how long they can
 * be. The documents give no such bound ("not shown"): a cardholder's wallets are read as one per
 * currency (Create Wallet takes a currency; the sandbox refuses a second in the same one), so at most
 * as many as the currencies ISO 4217 lists, as the runtime knows them. A bank that answered more
 * would show in gateway_operation_bank_calls_over_estimate_total. Any other such list is unbounded.
 */
export const LIST_LENGTHS: Readonly<Record<string, number>> = {
  'Cardholder.wallets': Intl.supportedValuesOf('currency').length,
};
