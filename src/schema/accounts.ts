import { z } from 'zod';
import { builder } from '../builder.ts';
import type { GatewayContext } from '../context.ts';
import {
  ACCOUNT_STATUSES,
  TRANSFER_METHODS,
  type Account,
  type AccountTransaction,
  type BalanceHistoryEntry,
  type Balance as BalanceShape,
} from '../upstream/accounts.ts';
import { arrayConnection, pagedConnection } from './connections.ts';
import { DateRangeInput, dateRangeRule } from './dates.ts';
import { BANK_ORDER } from './list-order.ts';
import { Money, money } from './money.ts';
import { MUTATION_ERRORS } from './mutation-errors.ts';
import { idempotencyKeyArg } from './mutation-inputs.ts';
import { upstreamIdFrom, bankIdIn, globalIdRule, recordIdDescription } from './record-ids.ts';
import { loaderBatch } from './loader-batch.ts';

/** Document 1, sections 4.1-4.2 in the graph: accounts, balances, transactions, balance history. */

const TRANSACTIONS_MAX_DAYS = 31;
const BALANCE_HISTORY_MAX_DAYS = 7;

const STATUS_TEXT: Record<(typeof ACCOUNT_STATUSES)[number], string> = {
  ACTIVE: 'Open: can receive and send money.',
  INACTIVE: 'Open but not usable for now.',
  CLOSED: 'Closed for good.',
};

const AccountStatus = builder.enumType('AccountStatus', {
  description: 'Lifecycle of an account. CLOSED is final.',
  values: Object.fromEntries(ACCOUNT_STATUSES.map((s) => [s, { value: s, description: STATUS_TEXT[s] }])),
});

export const TransferMethod = builder.enumType('TransferMethod', {
  description: 'How money moves: LOCAL through the domestic clearing system, SWIFT internationally.',
  values: {
    LOCAL: { value: 'LOCAL' as const, description: 'Domestic clearing (e.g. FAST, GIRO, RTGS, bank transfer).' },
    SWIFT: { value: 'SWIFT' as const, description: 'International wire over SWIFT.' },
  },
});
// Keeps the enum and the upstream model in step: a new upstream method must be added to both.
TRANSFER_METHODS satisfies readonly ('LOCAL' | 'SWIFT')[];

type Institution = NonNullable<Account['institution']>;
type Feature = Account['supportedFeatures'][number];
type RoutingCode = Feature['routingCodes'][number];

const InstitutionType = builder.objectRef<Institution>('Institution').implement({
  description: 'The bank that holds an account.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Name of the bank.' }),
    address: t.exposeString('address', { description: 'Street address of the bank.' }),
    city: t.exposeString('city', { description: 'City of the bank.' }),
    zipCode: t.exposeString('zipCode', { description: 'Postal code of the bank.' }),
  }),
});

export const RoutingCodeType = builder.objectRef<RoutingCode>('RoutingCode').implement({
  description: 'A code that routes payments to the account, such as a bank code or SWIFT BIC.',
  fields: (t) => ({
    type: t.exposeString('type', { nullable: false, description: 'Kind of code; values seen: bank_code, branch_code, swift.' }),
    value: t.exposeString('value', { nullable: false, description: 'The code itself.' }),
  }),
});

const SupportedFeature = builder.objectRef<Feature>('AccountFeature').implement({
  description: 'A way the account can receive money in one currency, with its routing details.',
  fields: (t) => ({
    currency: t.expose('currency', { type: 'Currency', nullable: false, description: 'Currency received this way.' }),
    transferMethod: t.expose('transferMethod', { type: TransferMethod, nullable: false, description: 'LOCAL or SWIFT.' }),
    localClearingSystem: t.exposeString('localClearingSystem', {
      description: 'Clearing system for LOCAL transfers (values seen: FAST, RTGS, GIRO, BANK_TRANSFER); null for SWIFT.',
    }),
    type: t.exposeString('type', { description: 'Kind of feature; value seen: DEPOSIT.' }),
    routingCodes: t.field({
      type: [RoutingCodeType],
      nullable: false,
      description: 'Codes a payer needs to route money here.',
      resolve: (f) => f.routingCodes,
    }),
  }),
});

const RequiredFeature = builder.objectRef<Account['requiredFeatures'][number]>('AccountRequiredFeature').implement({
  description: 'A currency and transfer method asked for when the account was opened.',
  fields: (t) => ({
    currency: t.expose('currency', { type: 'Currency', nullable: false, description: 'Currency asked for.' }),
    transferMethod: t.expose('transferMethod', { type: TransferMethod, nullable: false, description: 'Method asked for.' }),
  }),
});

/**
 * Accounts load through one per-request DataLoader: one id is one filtered call; several ids at once
 * are one call for the whole (unpaged) list, which is cheaper than one call each.
 */
async function loadAccounts(ids: string[], context: GatewayContext): Promise<Account[]> {
  if (ids.length === 1) return context.upstream.accounts.list({ id: ids[0] as string });
  return context.upstream.accounts.list();
}

export const AccountNode = builder.loadableNode('Account', {
  authScopes: { permission: 'accounts:read' },
  description: 'A virtual account that holds and receives money, with the features it was opened with.',
  id: { resolve: (account) => account.id },
  load: loaderBatch('Account', loadAccounts),
  sort: (account) => account.id,
  // Records a list or a mutation returns are cached for later reads by id in the same request.
  cacheResolved: (account) => account.id,
  fields: (t) => ({
    upstreamId: t.exposeString('id', {
      nullable: false,
      description: "The bank's own identifier of the account (x-account-id upstream).",
    }),
    status: t.expose('status', { type: AccountStatus, nullable: false, description: 'ACTIVE, INACTIVE or CLOSED.' }),
    accountNumber: t.exposeString('accountNumber', { nullable: false, description: 'Account number payers send money to.' }),
    accountHolderName: t.exposeString('accountHolderName', { nullable: false, description: 'Name the account is held in.' }),
    label: t.exposeString('label', { description: 'Label given when the account was opened.' }),
    accountType: t.exposeString('accountType', { description: 'Kind of account as the bank reports it.' }),
    country: t.expose('countryCode', { type: 'CountryCode', nullable: false, description: 'Country of the account.' }),
    institution: t.field({ type: InstitutionType, description: 'The bank holding the account.', resolve: (a) => a.institution }),
    supportedFeatures: t.field({
      type: [SupportedFeature],
      nullable: false,
      description: 'Currencies and methods the account can receive, with routing codes.',
      resolve: (a) => a.supportedFeatures,
    }),
    requiredFeatures: t.field({
      type: [RequiredFeature],
      nullable: false,
      description: 'Features asked for when the account was opened.',
      resolve: (a) => a.requiredFeatures,
    }),
    swiftCode: t.exposeString('swiftCode', { description: 'SWIFT BIC for international payments, if any.' }),
    iban: t.exposeString('iban', { description: 'IBAN, where the account has one.' }),
    transactions: t.connection({
      type: AccountTransactionType,
      description: `Money in and out of this account. ${BANK_ORDER} A date range may span at most ${TRANSACTIONS_MAX_DAYS} days.`,
      args: {
        dateRange: t.arg({
          type: DateRangeInput,
          description: `Only transactions on these days (at most ${TRANSACTIONS_MAX_DAYS} days).`,
          validate: dateRangeRule(TRANSACTIONS_MAX_DAYS),
        }),
      },
      resolve: (account, args, context) =>
        pagedConnection(args, (slice) =>
          context.upstream.accounts.transactions(account.id, { ...slice, fromDate: args.dateRange?.from, toDate: args.dateRange?.to }),
        ),
    }, { name: 'AccountTransactionConnection' }, { name: 'AccountTransactionEdge' }),
  }),
});

const AccountTransactionType = builder.objectRef<AccountTransaction>('AccountTransaction').implement({
  readPermission: 'accounts:read',
  description: 'One movement of money on an account.',
  fields: (t) => ({
    upstreamId: t.exposeString('id', { nullable: false, description: "The bank's identifier of the transaction." }),
    amount: t.field({ type: Money, nullable: false, description: 'Amount moved.', resolve: (tx) => money(tx.amount, tx.currency) }),
    createdAt: t.expose('createTime', { type: 'DateTime', nullable: false, description: 'When it happened.' }),
    description: t.exposeString('description', { description: 'Description from the bank.' }),
    type: t.exposeString('type', { nullable: false, description: 'Direction; values seen: CREDIT, DEBIT.' }),
    status: t.exposeString('status', { nullable: false, description: 'Settlement state; value seen: SETTLED.' }),
  }),
});

const BalanceType = builder.objectRef<BalanceShape>('Balance').implement({
  readPermission: 'accounts:read',
  description: 'What the business holds in one currency.',
  fields: (t) => ({
    currency: t.expose('currency', { type: 'Currency', nullable: false, description: 'Currency of this balance.' }),
    available: t.field({ type: Money, nullable: false, description: 'Available to spend now.', resolve: (b) => money(b.availableBalance, b.currency) }),
    pending: t.field({ type: Money, nullable: false, description: 'Incoming or outgoing, not yet settled.', resolve: (b) => money(b.pendingAmount, b.currency) }),
    reserved: t.field({ type: Money, nullable: false, description: 'Held back for scheduled payments.', resolve: (b) => money(b.reservedAmount, b.currency) }),
  }),
});

const BalanceChange = builder.objectRef<BalanceHistoryEntry>('BalanceChange').implement({
  readPermission: 'accounts:read',
  description: 'One change to a currency balance, with the balance it left behind.',
  fields: (t) => ({
    upstreamId: t.exposeString('id', { nullable: false, description: "The bank's identifier of the change." }),
    amount: t.field({ type: Money, nullable: false, description: 'Change in the balance; negative for debits.', resolve: (h) => money(h.amount, h.currency) }),
    balanceAfter: t.field({ type: Money, nullable: false, description: 'The balance after this change.', resolve: (h) => money(h.balance, h.currency) }),
    fee: t.field({ type: Money, nullable: false, description: 'Fee charged for this change.', resolve: (h) => money(h.fee, h.currency) }),
    description: t.exposeString('description', { description: 'Description from the bank.' }),
    createdAt: t.expose('createTime', { type: 'DateTime', nullable: false, description: 'When the balance changed.' }),
    sourceType: t.exposeString('sourceType', { nullable: false, description: 'What caused it; values seen: PAYOUT, CONVERSION, DEPOSIT.' }),
    transactionType: t.exposeString('transactionType', {
      nullable: false,
      description: 'Kind of transaction; values seen: PAYOUT, CONVERSION_BUY, DEPOSIT.',
    }),
  }),
});

builder.queryFields((t) => ({
  account: t.field({
    authScopes: { permission: 'accounts:read' },
    type: AccountNode,
    description: "One account by its global ID or the bank's account id; null when there is none.",
    args: { id: t.arg.id({ required: true, description: 'Global ID (from `Account.id`) or the bank account id.', validate: globalIdRule('Account') }) },
    resolve: (_root, args) => upstreamIdFrom(String(args.id), 'Account'),
  }),
  accounts: t.connection({
    authScopes: { permission: 'accounts:read' },
    type: AccountNode,
    description: 'Accounts of the business, optionally filtered.',
    args: {
      currency: t.arg({ type: 'Currency', description: 'Only accounts with a feature in this currency.' }),
      status: t.arg({ type: AccountStatus, description: 'Only accounts in this state.' }),
    },
    resolve: async (_root, args, context) => {
      const accounts = await context.upstream.accounts.list({ currency: args.currency, status: args.status });
      return arrayConnection(args, accounts);
    },
  }, { name: 'AccountConnection' }, { name: 'AccountEdge' }),
  balances: t.field({
    authScopes: { permission: 'accounts:read' },
    type: [BalanceType],
    nullable: { list: true, items: false },
    description: 'Balances of the business, one per currency.',
    args: { currency: t.arg({ type: 'Currency', description: 'Only this currency.' }) },
    resolve: (_root, args, context) => context.upstream.accounts.balances(args.currency),
  }),
  balanceHistory: t.connection({
    authScopes: { permission: 'accounts:read' },
    type: BalanceChange,
    description: `Changes to the balances across currencies. ${BANK_ORDER} A date range may span at most ${BALANCE_HISTORY_MAX_DAYS} days.`,
    args: {
      dateRange: t.arg({
        type: DateRangeInput,
        description: `Only changes on these days (at most ${BALANCE_HISTORY_MAX_DAYS} days).`,
        validate: dateRangeRule(BALANCE_HISTORY_MAX_DAYS),
      }),
    },
    resolve: (_root, args, context) =>
      pagedConnection(args, (slice) =>
        context.upstream.accounts.balanceHistory({ ...slice, fromDate: args.dateRange?.from, toDate: args.dateRange?.to }),
      ),
  }, { name: 'BalanceChangeConnection' }, { name: 'BalanceChangeEdge' }),
}));

// --- Mutations ---------------------------------------------------------------------------------

const RequiredFeatureInput = builder.inputType('AccountFeatureInput', {
  description: 'A currency and transfer method the new account must support.',
  fields: (t) => ({
    currency: t.field({ type: 'Currency', required: true, description: 'Currency to receive.' }),
    transferMethod: t.field({ type: TransferMethod, required: true, description: 'LOCAL or SWIFT.' }),
  }),
});

const AccountCreateInput = builder.inputType('AccountCreateInput', {
  description: 'A new virtual account (the only kind the bank opens through its API).',
  fields: (t) => ({
    country: t.field({ type: 'CountryCode', required: true, description: 'Country of the account.' }),
    currency: t.field({ type: 'Currency', required: true, description: 'Main currency of the account.' }),
    label: t.string({
      description: 'Your own label for the account.',
      validate: z.string().trim().min(1, 'must not be blank').max(100, 'must be at most 100 characters'),
    }),
    requiredFeatures: t.field({
      type: [RequiredFeatureInput],
      required: true,
      description: 'Currencies and methods the account must receive; at least one.',
      validate: z.array(z.unknown()).min(1, 'must list at least one feature').max(10, 'must list at most 10 features'),
    }),
  }),
});

builder.mutationField('accountCreate', (t) =>
  t.field({
    authScopes: { permission: 'accounts:write' },
    type: AccountNode,
    nullable: false,
    description: 'Opens a virtual account with the given features. Returns the account as the bank created it.',
    errors: { types: MUTATION_ERRORS, dataField: { name: 'account', description: 'The new account.' } },
    args: {
      input: t.arg({ type: AccountCreateInput, required: true, description: 'The account to open.' }),
      ...idempotencyKeyArg(),
    },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      const account = await context.upstream.accounts.create(input, idempotencyKey);
      return account;
    },
  }),
);

const AccountCloseInput = builder.inputType('AccountCloseInput', {
  description: 'The account to close.',
  fields: (t) => ({
    accountId: t.id({ required: true, description: recordIdDescription('Account', 'The account') }),
  }),
});

const AccountClosed = builder.objectRef<{ accountId: string }>('AccountClosed').implement({
  description: 'The account is closed; this cannot be undone.',
  fields: (t) => ({
    closedAccountId: t.exposeString('accountId', { nullable: false, description: "The bank's id of the closed account." }),
    account: t.field({
      type: AccountNode,
      description: 'The account as it stands now (read again only if asked for).',
      resolve: (closed) => closed.accountId,
    }),
  }),
});

builder.mutationField('accountClose', (t) =>
  t.field({
    authScopes: { permission: 'accounts:write' },
    type: AccountClosed,
    nullable: false,
    description: 'Closes an account permanently.',
    errors: { types: MUTATION_ERRORS, dataField: { name: 'result', description: 'What was closed.' } },
    args: {
      input: t.arg({ type: AccountCloseInput, required: true, description: 'The account to close.' }),
      ...idempotencyKeyArg(),
    },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      const accountId = bankIdIn(input.accountId, ['input', 'accountId'], 'Account');
      await context.upstream.accounts.close(accountId, idempotencyKey);
      // The cached copy still says ACTIVE.
      AccountNode.getDataloader(context).clear(accountId);
      return { accountId };
    },
  }),
);
