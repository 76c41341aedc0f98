import { filter, pipe } from 'graphql-yoga';
import { builder } from '../builder.ts';
import type { GatewayContext } from '../context.ts';
import type { BankEvent, EventKind } from '../events/models.ts';
import { moneyOf } from '../upstream/models.ts';
import { AccountNode } from './accounts.ts';
import { CardholderNode } from './cardholders.ts';
import { CardNode } from './cards.ts';
import { Money, forgetRequestReads, upstreamIdFrom } from './common.ts';
import { DirectDebitNode, keyOf as directDebitKey } from './direct-debit.ts';
import { ConversionNode } from './fx.ts';
import { PayoutNode } from './payouts.ts';

/**
 * Document 3, section 6 as GraphQL subscriptions: a generic stream of every bank event, and typed
 * streams whose payloads link into the graph and resolve through the usual loaders, with the
 * subscriber's own token. Each event is resolved afresh (no reads cached from an earlier event).
 */

type Of<K extends EventKind> = Extract<BankEvent, { kind: K }>;

const BankEventType = builder.objectRef<BankEvent>('BankEvent').implement({
  description: 'An event the bank sent (Document 3, section 2.3), delivered once however often the bank retried it.',
  fields: (t) => ({
    id: t.exposeString('id', { nullable: false, description: "The bank's event id, e.g. crd_x_issuing.card.active." }),
    name: t.exposeString('name', { nullable: false, description: 'Event name, e.g. issuing.card.active.' }),
    accountId: t.exposeString('accountId', { description: 'Account the event belongs to.' }),
    occurredAt: t.field({ type: 'DateTime', nullable: false, description: 'When the bank created the event.', resolve: (e) => new Date(e.createdAt) }),
    version: t.exposeString('version', { description: 'Event schema version date.' }),
    data: t.field({ type: 'JSONObject', nullable: false, description: 'The payload as the bank sent it.', resolve: (e) => e.data }),
  }),
});

/** Every typed update carries the event it came from. */
const EVENT_FIELD_DESCRIPTION = 'The bank event behind this update.';

function subscribeTo<K extends Exclude<EventKind, 'other'>>(kind: K, matches: (event: Of<K>) => boolean = () => true) {
  return (_root: unknown, _args: unknown, context: GatewayContext) =>
    pipe(
      context.events.subscribe(),
      filter((event: BankEvent): event is Of<K> => event.kind === kind && matches(event as Of<K>)),
    );
}

/** A subscription keeps one context: forget the previous event's reads before resolving this one. */
function fresh<T>(event: T, _args: unknown, context: GatewayContext): T {
  forgetRequestReads(context);
  return event;
}

const idArg = (typename: string, id: string | number | null | undefined) => (id == null ? null : upstreamIdFrom(String(id), typename));

// --- Cards ---------------------------------------------------------------------------------------

const CardStatusChange = builder.objectRef<Of<'cardStatus'>>('CardStatusChange').implement({
  description: 'A card became active or was blocked (issuing.card.active, issuing.card.blocked).',
  fields: (t) => ({
    event: t.field({ type: BankEventType, nullable: false, description: EVENT_FIELD_DESCRIPTION, resolve: (e) => e }),
    status: t.string({ nullable: false, description: 'The status the event reports.', resolve: (e) => e.details.status }),
    card: t.field({ type: CardNode, description: 'The card, read now.', resolve: (e) => e.details.cardId }),
  }),
});

const CardTransactionEvent = builder.objectRef<Of<'cardTransaction'>>('CardTransactionSucceeded').implement({
  description: 'A card transaction succeeded (issuing.transaction.succeeded).',
  fields: (t) => ({
    event: t.field({ type: BankEventType, nullable: false, description: EVENT_FIELD_DESCRIPTION, resolve: (e) => e }),
    transactionId: t.string({ description: "The bank's transaction id.", resolve: (e) => e.details.transactionId }),
    type: t.string({ description: 'Transaction type, e.g. PURCHASE.', resolve: (e) => e.details.transactionType }),
    amount: t.field({ type: Money, description: 'Amount.', resolve: (e) => moneyOf(e.details.amount, e.details.currency) }),
    merchantName: t.string({ description: 'Merchant.', resolve: (e) => e.details.merchantName }),
    card: t.field({ type: CardNode, description: 'The card, read now.', resolve: (e) => e.details.cardId }),
  }),
});

const CardholderStatusChange = builder.objectRef<Of<'cardholderStatus'>>('CardholderStatusChange').implement({
  description: 'A cardholder is pending review, ready, or deleted (issuing.cardholder.*).',
  fields: (t) => ({
    event: t.field({ type: BankEventType, nullable: false, description: EVENT_FIELD_DESCRIPTION, resolve: (e) => e }),
    status: t.string({ nullable: false, description: 'PENDING, READY or DELETED.', resolve: (e) => e.details.status }),
    cardholderUpstreamId: t.string({ nullable: false, description: "The bank's cardholder id.", resolve: (e) => e.details.cardholderId }),
    cardholder: t.field({
      type: CardholderNode,
      description: 'The cardholder, read now (null once deleted).',
      resolve: (e) => (e.details.status === 'DELETED' ? null : e.details.cardholderId),
    }),
  }),
});

// --- Money movements -----------------------------------------------------------------------------

const DepositUpdate = builder.objectRef<Of<'deposit'>>('DepositUpdate').implement({
  description: 'A deposit arriving and settling: ga.new (NEW, PENDING, SETTLED or FAILED), deposit.settled or rejected, balance.ga.top_up.',
  fields: (t) => ({
    event: t.field({ type: BankEventType, nullable: false, description: EVENT_FIELD_DESCRIPTION, resolve: (e) => e }),
    depositId: t.string({ nullable: false, description: "The bank's deposit id.", resolve: (e) => e.details.depositId }),
    status: t.string({ description: 'Processing status the event reports.', resolve: (e) => e.details.status }),
    amount: t.field({ type: Money, description: 'Amount deposited.', resolve: (e) => moneyOf(e.details.amount, e.details.currency) }),
    balanceAfter: t.field({ type: Money, description: 'Balance after the top-up (balance.ga.top_up only).', resolve: (e) => moneyOf(e.details.balanceAfter, e.details.currency) }),
    payerName: t.string({ description: 'Who paid.', resolve: (e) => e.details.payerName }),
    account: t.field({ type: AccountNode, description: 'The receiving account, read now.', resolve: (e) => e.details.globalAccountId }),
  }),
});

const ConversionUpdate = builder.objectRef<Of<'conversion'>>('ConversionUpdate').implement({
  description: 'A conversion was scheduled, settled, cancelled or became overdue (conversion.*).',
  fields: (t) => ({
    event: t.field({ type: BankEventType, nullable: false, description: EVENT_FIELD_DESCRIPTION, resolve: (e) => e }),
    status: t.string({ nullable: false, description: 'Status the event reports.', resolve: (e) => e.details.status }),
    conversion: t.field({ type: ConversionNode, description: 'The conversion, read now.', resolve: (e) => e.details.conversionId }),
  }),
});

const PayoutFundingUpdate = builder.objectRef<Of<'payoutFunding'>>('PayoutFundingUpdate').implement({
  description: 'A payout\u2019s funding was scheduled or funded (payout.transfer.funding.*).',
  fields: (t) => ({
    event: t.field({ type: BankEventType, nullable: false, description: EVENT_FIELD_DESCRIPTION, resolve: (e) => e }),
    fundingStatus: t.string({ nullable: false, description: 'SCHEDULED or FUNDED.', resolve: (e) => e.details.fundingStatus }),
    transferAmount: t.field({ type: Money, description: 'Amount transferred.', resolve: (e) => moneyOf(e.details.transferAmount, e.details.transferCurrency) }),
    payout: t.field({ type: PayoutNode, description: 'The payout, read now.', resolve: (e) => e.details.payoutId }),
  }),
});

// --- Account, RFIs, direct debit -----------------------------------------------------------------

const AccountStatusChange = builder.objectRef<Of<'accountStatus'>>('AccountStatusChange').implement({
  description: 'The business account was submitted, activated or suspended (account.*).',
  fields: (t) => ({
    event: t.field({ type: BankEventType, nullable: false, description: EVENT_FIELD_DESCRIPTION, resolve: (e) => e }),
    status: t.string({ nullable: false, description: 'SUBMITTED, ACTIVE or SUSPENDED.', resolve: (e) => e.details.status }),
  }),
});

const RfiRequested = builder.objectRef<Of<'rfi'>>('RfiActionRequired').implement({
  description: 'The bank needs information (rfi.action_required); see viewer.rfis.',
  fields: (t) => ({
    event: t.field({ type: BankEventType, nullable: false, description: EVENT_FIELD_DESCRIPTION, resolve: (e) => e }),
    rfiId: t.string({ nullable: false, description: "The bank's RFI id.", resolve: (e) => e.details.rfiId }),
    type: t.string({ description: 'KYC, AML, ADDRESS or IDENTITY.', resolve: (e) => e.details.type }),
  }),
});

const DirectDebitStatusChange = builder.objectRef<Of<'directDebit'>>('DirectDebitStatusChange').implement({
  description: 'A direct debit payout changed status (NEW, IN_REVIEW, PENDING, SETTLED, REJECTED, RETURNED).',
  fields: (t) => ({
    event: t.field({ type: BankEventType, nullable: false, description: EVENT_FIELD_DESCRIPTION, resolve: (e) => e }),
    status: t.string({ description: 'Status the event reports.', resolve: (e) => e.details.status }),
    transactionId: t.string({ nullable: false, description: "The bank's direct debit transaction id.", resolve: (e) => e.details.transactionId }),
    mandateId: t.string({ description: 'Mandate it was collected under.', resolve: (e) => e.details.mandateId }),
    amount: t.field({ type: Money, description: 'Amount.', resolve: (e) => moneyOf(e.details.amount, e.details.currency) }),
    directDebit: t.field({
      type: DirectDebitNode,
      description: "The payout, read now (as the platform; a connected account's payouts resolve to null).",
      resolve: (e) => directDebitKey(null, e.details.transactionId),
    }),
  }),
});

// --- The subscriptions ---------------------------------------------------------------------------

builder.subscriptionFields((t) => ({
  bankEvents: t.field({
    type: BankEventType,
    nullable: false,
    description: 'Every bank event, optionally only some names.',
    args: { names: t.arg.stringList({ description: 'Only these event names, e.g. ["ga.new", "issuing.card.active"].' }) },
    subscribe: (_root, args, context) =>
      pipe(
        context.events.subscribe(),
        filter((event: BankEvent) => !args.names || args.names.includes(event.name)),
      ),
    resolve: fresh,
  }),
  cardStatusChanged: t.field({
    type: CardStatusChange,
    nullable: false,
    description: 'Cards becoming active or blocked; one card with cardId.',
    args: { cardId: t.arg.id({ description: "Only this card (global ID or the bank's id)." }) },
    subscribe: (root, args, context) => subscribeTo('cardStatus', (e) => !args.cardId || e.details.cardId === idArg('Card', args.cardId))(root, args, context),
    resolve: fresh,
  }),
  cardTransactionSucceeded: t.field({
    type: CardTransactionEvent,
    nullable: false,
    description: 'Successful card transactions; one card with cardId.',
    args: { cardId: t.arg.id({ description: "Only this card (global ID or the bank's id)." }) },
    subscribe: (root, args, context) => subscribeTo('cardTransaction', (e) => !args.cardId || e.details.cardId === idArg('Card', args.cardId))(root, args, context),
    resolve: fresh,
  }),
  cardholderStatusChanged: t.field({
    type: CardholderStatusChange,
    nullable: false,
    description: 'Cardholders pending, ready or deleted; one cardholder with cardholderId.',
    args: { cardholderId: t.arg.id({ description: "Only this cardholder (global ID or the bank's id)." }) },
    subscribe: (root, args, context) =>
      subscribeTo('cardholderStatus', (e) => !args.cardholderId || e.details.cardholderId === idArg('Cardholder', args.cardholderId))(root, args, context),
    resolve: fresh,
  }),
  depositUpdated: t.field({
    type: DepositUpdate,
    nullable: false,
    description: 'Deposits from arrival (ga.new) to settlement and top-up; one account with accountId.',
    args: { accountId: t.arg.id({ description: "Only deposits to this account (global ID or the bank's id)." }) },
    subscribe: (root, args, context) =>
      subscribeTo('deposit', (e) => !args.accountId || e.details.globalAccountId === idArg('Account', args.accountId))(root, args, context),
    resolve: fresh,
  }),
  conversionUpdated: t.field({
    type: ConversionUpdate,
    nullable: false,
    description: 'Conversions scheduled, settled, cancelled or overdue; one conversion with conversionId.',
    args: { conversionId: t.arg.id({ description: "Only this conversion (global ID or the bank's id)." }) },
    subscribe: (root, args, context) =>
      subscribeTo('conversion', (e) => !args.conversionId || e.details.conversionId === idArg('Conversion', args.conversionId))(root, args, context),
    resolve: fresh,
  }),
  payoutFundingUpdated: t.field({
    type: PayoutFundingUpdate,
    nullable: false,
    description: 'Payout funding scheduled or funded; one payout with payoutId.',
    args: { payoutId: t.arg.id({ description: "Only this payout (global ID or the bank's id)." }) },
    subscribe: (root, args, context) =>
      subscribeTo('payoutFunding', (e) => !args.payoutId || e.details.payoutId === idArg('Payout', args.payoutId))(root, args, context),
    resolve: fresh,
  }),
  accountStatusChanged: t.field({
    type: AccountStatusChange,
    nullable: false,
    description: 'The business account submitted, active or suspended.',
    subscribe: (root, args, context) => subscribeTo('accountStatus')(root, args, context),
    resolve: fresh,
  }),
  rfiActionRequired: t.field({
    type: RfiRequested,
    nullable: false,
    description: 'Requests for information from the bank.',
    subscribe: (root, args, context) => subscribeTo('rfi')(root, args, context),
    resolve: fresh,
  }),
  directDebitStatusChanged: t.field({
    type: DirectDebitStatusChange,
    nullable: false,
    description: 'Direct debit payouts changing status; one payout with transactionId.',
    args: { transactionId: t.arg.string({ description: "Only this direct debit (the bank's transaction id)." }) },
    subscribe: (root, args, context) =>
      subscribeTo('directDebit', (e) => !args.transactionId || e.details.transactionId === args.transactionId)(root, args, context),
    resolve: fresh,
  }),
}));
