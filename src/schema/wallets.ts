import { builder } from '../builder.ts';
import type { GatewayContext } from '../context.ts';
import { moneyOf } from '../upstream/models.ts';
import type { Wallet, WalletHistoryEntry } from '../upstream/wallets.ts';
import { CardholderNode } from './cardholders.ts';
import { pagedConnection } from './connections.ts';
import { TimeWindowInput, windowOrderRule } from './dates.ts';
import { BANK_ORDER, sortedByTime } from './list-order.ts';
import { perRequestLoader } from './loaders.ts';
import { money, Money } from './money.ts';
import { MUTATION_ERRORS } from './mutation-errors.ts';
import { idempotencyKeyArg } from './mutation-inputs.ts';
import { bankIdIn, recordIdDescription } from './record-ids.ts';

/**
 * Document 2, sections 2.5, 2.6 and 4.3 in the graph: a cardholder's wallets and their history. A
 * wallet is read by its cardholder (the bank has no read by wallet id), so it is not a Node.
 */

/** The cardholder's wallets, earliest created first (those without a creation time last, in the bank's order). */
const walletsOf = perRequestLoader('Wallets', async (cardholderId: string, context: GatewayContext) =>
  sortedByTime(await context.upstream.wallets.list(cardholderId), (wallet) => wallet.createdAt, 'earliest'),
);

const WalletLimits = builder.objectRef<Wallet>('WalletLimits').implement({
  description: 'Spending limits of a wallet, in its currency, as the bank reports them (0 included); null where the bank sends none.',
  fields: (t) => ({
    daily: t.field({ type: Money, description: 'Per day.', resolve: (w) => moneyOf(w.dailyLimitAmount, w.currency) }),
    weekly: t.field({ type: Money, description: 'Per week.', resolve: (w) => moneyOf(w.weeklyLimitAmount, w.currency) }),
    monthly: t.field({ type: Money, description: 'Per month.', resolve: (w) => moneyOf(w.monthlyLimitAmount, w.currency) }),
    yearly: t.field({ type: Money, description: 'Per year.', resolve: (w) => moneyOf(w.yearlyLimitAmount, w.currency) }),
    total: t.field({ type: Money, description: 'Over the life of the wallet.', resolve: (w) => moneyOf(w.totalLimitAmount, w.currency) }),
  }),
});

const WalletTransaction = builder.objectRef<WalletHistoryEntry>('WalletTransaction').implement({
  readPermission: 'wallets:read',
  description: 'One entry of a wallet history: a load, a card purchase, a refund, a fee.',
  fields: (t) => ({
    upstreamId: t.exposeString('slNo', { nullable: false, description: "The bank's serial number of the entry (slNo)." }),
    genericSerialNumber: t.exposeInt('genericSlNo', { description: "The bank's running number of the entry (genericSlNo)." }),
    referenceId: t.exposeString('txnRefId', { description: 'Reference of the transaction behind the entry (txn_ref_id).' }),
    amount: t.field({ type: Money, description: 'Amount of the transaction (txn_amount, txn_currency).', resolve: (e) => moneyOf(e.txnAmount, e.txnCurrency) }),
    available: t.field({
      type: Money,
      description: 'Available amount reported with the entry (available_amount, available_currency).',
      resolve: (e) => moneyOf(e.availableAmount, e.availableCurrency),
    }),
    acquirerAmount: t.field({
      type: Money,
      description: 'Amount on the acquirer side (acquirer_amount, acquirer_currency).',
      resolve: (e) => moneyOf(e.acquirerAmount, e.acquirerCurrency),
    }),
    settleAmount: t.field({ type: Money, description: 'Settled amount (settle_amount, settle_currency).', resolve: (e) => moneyOf(e.settleAmount, e.settleCurrency) }),
    billingAmount: t.field({ type: Money, description: 'Billed amount (billing_amount, billing_currency).', resolve: (e) => moneyOf(e.billingAmount, e.billingCurrency) }),
    type: t.exposeString('txnType', { nullable: false, description: 'Kind of entry; values seen: LOAD, PURCHASE, REFUND, FEE, fee_SCTF.' }),
    direction: t.exposeString('txnDirection', { description: 'Which way money moved; values seen: CREDIT, DEBIT.' }),
    status: t.exposeString('txnStatus', { description: 'State of the transaction; values seen: APPROVED, SUCCESS.' }),
    description: t.exposeString('txnDescription', { description: 'Description, if any.' }),
    email: t.exposeString('txnEmail', { description: 'E-mail attached to the transaction, if any.' }),
    cardAcceptorName: t.exposeString('cardAcceptorName', { description: 'Merchant name for card transactions.' }),
    cardUpstreamId: t.exposeString('cardId', { description: "The bank's id of the card used, for card transactions." }),
    walletUpstreamId: t.exposeString('walletId', { description: "The bank's id of the wallet." }),
    programCode: t.exposeString('programCode', { description: 'Program the wallet belongs to, as the bank codes it.' }),
    initiatedBy: t.exposeString('initiatedBy', { description: 'Who or what started the transaction.' }),
    initiatedAt: t.expose('initiatedAt', { type: 'DateTime', description: 'When it started.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed; null if never.' }),
  }),
});

export const WalletType = builder.objectRef<Wallet>('Wallet').implement({
  authScopes: { permission: 'wallets:read' },
  description:
    "A cardholder's wallet: the money their cards spend (programs with wallets only). The bank reads a wallet by its cardholder, so it has no global ID of its own.",
  fields: (t) => ({
    upstreamId: t.exposeString('id', { nullable: false, description: "The bank's id of the wallet (wal_...)." }),
    status: t.exposeString('status', { nullable: false, description: 'State of the wallet; value seen: ACTIVE (set on creation).' }),
    amount: t.field({ type: Money, nullable: false, description: 'What the wallet holds.', resolve: (w) => money(w.amount, w.currency) }),
    holding: t.field({ type: Money, description: 'Holding amount, in the holding currency.', resolve: (w) => moneyOf(w.holdingAmount, w.holdingCurrency) }),
    limits: t.field({ type: WalletLimits, nullable: false, description: 'Spending limits.', resolve: (w) => w }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the wallet was created.' }),
    cardholder: t.field({ type: CardholderNode, description: 'Whose wallet it is.', resolve: (w) => w.cardholderId }),
    history: t.connection(
      {
        type: WalletTransaction,
        description: `Entries of the wallet. ${BANK_ORDER}`,
        args: {
          window: t.arg({
            type: TimeWindowInput,
            description: 'Only entries in this window: days or instants, either end may be left out (no maximum length).',
            validate: windowOrderRule,
          }),
        },
        resolve: (wallet, args, context) =>
          pagedConnection(args, (slice) =>
            context.upstream.wallets.history(wallet, { ...slice, from: args.window?.from ?? undefined, to: args.window?.to ?? undefined }),
          ),
      },
      { name: 'WalletTransactionConnection' },
      { name: 'WalletTransactionEdge' },
    ),
  }),
});

builder.objectFields(CardholderNode, (t) => ({
  wallets: t.field({
    type: [WalletType],
    nullable: { list: true, items: false },
    description:
      'Every wallet of the cardholder, earliest created first; empty when it has none; null only with an error (PROGRAM_NOT_SUPPORTED on programs without wallets). Read from the bank only when asked for, once per request with `wallet`.',
    resolve: (cardholder, _args, context) => walletsOf(context).load(cardholder.id),
  }),
  wallet: t.field({
    type: WalletType,
    description:
      'One wallet of the cardholder, by a fixed rule: with `currency`, the wallet in that currency; without it, the earliest created. Null when none matches, never an error for zero or several (all of them: `wallets`). A PROGRAM_NOT_SUPPORTED error on programs without wallets.',
    args: { currency: t.arg({ type: 'Currency', description: 'The wallet in this currency (the one its cards in that currency spend from).' }) },
    resolve: (cardholder, args, context) =>
      walletsOf(context)
        .load(cardholder.id)
        .then((wallets) => wallets.find((wallet) => args.currency == null || wallet.currency === args.currency) ?? null),
  }),
}));

const WalletCreateInput = builder.inputType('WalletCreateInput', {
  description: 'A wallet for a cardholder, who must be READY with KYC completed and have no wallet in that currency yet.',
  fields: (t) => ({
    cardholderId: t.id({ required: true, description: recordIdDescription('Cardholder', 'The cardholder') }),
    currency: t.field({ type: 'Currency', required: true, description: 'Currency of the wallet.' }),
  }),
});

builder.mutationField('walletCreate', (t) =>
  t.field({
    authScopes: { permission: 'wallets:write' },
    type: WalletType,
    nullable: false,
    description:
      'Creates a wallet for a cardholder in a currency. The bank refuses a cardholder not READY, without completed KYC, or (the sandbox) with a wallet in that currency already (UpstreamRejection); a program without wallets is ProgramNotSupported.',
    errors: { types: MUTATION_ERRORS, dataField: { name: 'wallet', description: 'The new wallet.' } },
    args: { input: t.arg({ type: WalletCreateInput, required: true, description: 'The cardholder and currency.' }), ...idempotencyKeyArg() },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      const cardholderId = bankIdIn(input.cardholderId, ['input', 'cardholderId'], 'Cardholder');
      const wallet = await context.upstream.wallets.create(cardholderId, input.currency, idempotencyKey);
      walletsOf(context).clear(cardholderId);
      return wallet;
    },
  }),
);
