import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../builder.ts';
import type { GatewayContext } from '../context.ts';
import type { Delivery, PublishedEvent } from '../events/bus.ts';
import { SubscriberFellBehindError } from '../events/errors.ts';
import { isFellBehind } from '../events/fanout.ts';
import type { EventKind } from '../events/models.ts';
import { moneyOf } from '../upstream/models.ts';
import { AccountNode } from './accounts.ts';
import { CardholderNode } from './cardholders.ts';
import { EVENT_PERMISSIONS, eventVisibility, visiblePayload } from './event-visibility.ts';
import { CardNode } from './cards.ts';
import { readLink } from './links.ts';
import { forgetRequestReads, perRequestLoader } from './loaders.ts';
import { Money } from './money.ts';
import { upstreamIdFrom } from './record-ids.ts';
import { DirectDebitNode, keyOf as directDebitKey } from './direct-debit.ts';
import { ConversionNode } from './fx.ts';
import { PayoutNode } from './payouts.ts';

/**
 * Document 3, section 6 as GraphQL subscriptions: a generic stream of every bank event, and typed
 * streams whose payloads link into the graph and resolve through the usual loaders, with the
 * subscriber's own token. Each event is resolved afresh (no reads cached from an earlier event).
 * Every stream can resume after the cursor of the last event a client saw (`after`).
 */

/** The published event of one kind, as its typed update resolves it. */
type EventOfKind<K extends EventKind> = Extract<PublishedEvent, { kind: K }>;

/**
 * An event's id in the graph: the global id of its occurrence (events/models.ts occurrenceKey), which
 * a redelivery and the catch-up share and another occurrence of the same transition does not.
 */
function eventIdOf(event: PublishedEvent): string {
  return encodeGlobalID('BankEvent', event.occurrence);
}

export const BankEventType = builder.objectRef<PublishedEvent>('BankEvent').implement({
  description:
    'An event the bank sent (Document 3, section 2.3), delivered once per occurrence however often the bank retried it. The bank repeats an id whenever a transition repeats (a card blocked twice); each occurrence is its own event, told apart by when the bank created it, with its own `id`.',
  fields: (t) => ({
    id: t.field({
      type: 'ID',
      nullable: false,
      description:
        "Unique per occurrence: two occurrences of one transition (a card blocked twice) have different ids, and a redelivery or a catch-up of the same occurrence has the same one, so normalized caches (Apollo Client, Relay) keep each occurrence apart. Opaque; the bank's own id is `upstreamId`.",
      resolve: (e) => eventIdOf(e),
    }),
    upstreamId: t.exposeString('id', {
      nullable: false,
      description: "The bank's event id, e.g. crd_x_issuing.card.active. Not unique: it repeats when the same transition happens again.",
    }),
    name: t.exposeString('name', { nullable: false, description: 'Event name, e.g. issuing.card.active.' }),
    cursor: t.exposeString('cursor', {
      nullable: false,
      description:
        'Where this event is in the gateway\'s event log: opaque text. Subscribe again with `after` set to the cursor of the last event you received to get what happened since, in order and none twice, then live events.',
    }),
    accountId: t.exposeString('accountId', { description: 'Account the event belongs to.' }),
    occurredAt: t.field({
      type: 'DateTime',
      nullable: false,
      description: "When the bank created the event (created_at); for a delivery without created_at, when the gateway accepted it.",
      resolve: (e) => new Date(e.createdAt ?? e.receivedAt),
    }),
    receivedAt: t.field({ type: 'DateTime', nullable: false, description: 'When the gateway accepted the delivery.', resolve: (e) => new Date(e.receivedAt) }),
    version: t.exposeString('version', { description: 'Event schema version date.' }),
    data: t.field({
      type: 'JSONObject',
      nullable: false,
      description:
        "The payload as the bank sent it, less the parts that describe another domain's record the caller may not read (a payout funding event's `beneficiary` without beneficiaries:read, its `payer` without business:read).",
      resolve: (e, _args, context) => visiblePayload(e, context.caller.access.permissions),
    }),
  }),
});

/** Every typed update carries the event it came from. */
const EVENT_FIELD_DESCRIPTION = 'The bank event behind this update.';

/**
 * A subscription keeps one context: forget the previous event's reads before resolving this one. A
 * subscriber that fell too far behind gets an error naming the cursor to resume after, and its stream ends.
 */
function resolveEventAfresh<T extends PublishedEvent>(delivery: Delivery, _args: unknown, context: GatewayContext): T {
  if (isFellBehind(delivery)) throw new SubscriberFellBehindError(delivery.resumeAfter);
  forgetRequestReads(context);
  return delivery as T;
}

// --- Cards ---------------------------------------------------------------------------------------

const CardStatusChange = builder.objectRef<EventOfKind<'cardStatus'>>('CardStatusChange').implement({
  readPermission: EVENT_PERMISSIONS.cardStatus.read,
  description: 'A card became active or was blocked (issuing.card.active, issuing.card.blocked).',
  fields: (t) => ({
    event: t.field({ type: BankEventType, nullable: false, description: EVENT_FIELD_DESCRIPTION, resolve: (e) => e }),
    status: t.string({ nullable: false, description: 'The status the event reports.', resolve: (e) => e.details.status }),
    cardUpstreamId: t.string({ nullable: false, description: "The bank's id of the card.", resolve: (e) => e.details.cardId }),
    card: t.field({
      type: CardNode,
      description: 'The card, read now. An error (NOT_FOUND) when the bank does not find it; the id is in `cardUpstreamId` either way.',
      resolve: (e, _args, context) => readLink(CardNode, e.details.cardId, e.details.cardId, context),
    }),
  }),
});

const CardTransactionEvent = builder.objectRef<EventOfKind<'cardTransaction'>>('CardTransactionSucceeded').implement({
  readPermission: EVENT_PERMISSIONS.cardTransaction.read,
  description: 'A card transaction succeeded (issuing.transaction.succeeded).',
  fields: (t) => ({
    event: t.field({ type: BankEventType, nullable: false, description: EVENT_FIELD_DESCRIPTION, resolve: (e) => e }),
    transactionId: t.string({ description: "The bank's transaction id.", resolve: (e) => e.details.transactionId }),
    type: t.string({ description: 'Transaction type, e.g. PURCHASE.', resolve: (e) => e.details.transactionType }),
    amount: t.field({ type: Money, description: 'Amount.', resolve: (e) => moneyOf(e.details.amount, e.details.currency) }),
    merchantName: t.string({ description: 'Merchant.', resolve: (e) => e.details.merchantName }),
    cardUpstreamId: t.string({ nullable: false, description: "The bank's id of the card.", resolve: (e) => e.details.cardId }),
    card: t.field({
      type: CardNode,
      description: 'The card, read now. An error (NOT_FOUND) when the bank does not find it; the id is in `cardUpstreamId` either way.',
      resolve: (e, _args, context) => readLink(CardNode, e.details.cardId, e.details.cardId, context),
    }),
  }),
});

const CardholderStatusChange = builder.objectRef<EventOfKind<'cardholderStatus'>>('CardholderStatusChange').implement({
  readPermission: EVENT_PERMISSIONS.cardholderStatus.read,
  description: 'A cardholder is pending review, ready, or deleted (issuing.cardholder.*).',
  fields: (t) => ({
    event: t.field({ type: BankEventType, nullable: false, description: EVENT_FIELD_DESCRIPTION, resolve: (e) => e }),
    status: t.string({ nullable: false, description: 'PENDING, READY or DELETED.', resolve: (e) => e.details.status }),
    cardholderUpstreamId: t.string({ nullable: false, description: "The bank's cardholder id.", resolve: (e) => e.details.cardholderId }),
    cardholder: t.field({
      type: CardholderNode,
      description: 'The cardholder, read now; null once deleted. An error (NOT_FOUND) when the bank does not find it; the id is in `cardholderUpstreamId` either way.',
      resolve: (e, _args, context) => (e.details.status === 'DELETED' ? null : readLink(CardholderNode, e.details.cardholderId, e.details.cardholderId, context)),
    }),
  }),
});

// --- Money movements -----------------------------------------------------------------------------

/**
 * ga.new names the receiving account by number alone: the account list holds it (read once per
 * number per request). The account itself is returned, so the `account` link needs no second read.
 */
const accountByNumber = perRequestLoader('AccountByNumber', async (accountNumber: string, context: GatewayContext) => {
  const accounts = await context.upstream.accounts.list();
  return accounts.find((account) => account.accountNumber === accountNumber) ?? null;
});

/** The account's number, by which ga.new names it; null when the bank has no such account. */
async function accountNumberOf(accountId: string, context: GatewayContext): Promise<string | null> {
  const [account] = await context.upstream.accounts.list({ id: accountId });
  return account?.accountNumber ?? null;
}

/** The receiving account named by number (ga.new), or null where the event names it by id or not at all. */
async function accountNamedByNumber(e: EventOfKind<'deposit'>, context: GatewayContext) {
  if (e.details.globalAccountId !== null || e.details.accountNumber === null) return null;
  return accountByNumber(context).load(e.details.accountNumber);
}

const DepositUpdate = builder.objectRef<EventOfKind<'deposit'>>('DepositUpdate').implement({
  readPermission: EVENT_PERMISSIONS.deposit.read,
  description: 'A deposit arriving and settling: ga.new (NEW, PENDING, SETTLED or FAILED), deposit.settled or rejected, balance.ga.top_up.',
  fields: (t) => ({
    event: t.field({ type: BankEventType, nullable: false, description: EVENT_FIELD_DESCRIPTION, resolve: (e) => e }),
    depositId: t.string({ nullable: false, description: "The bank's deposit id.", resolve: (e) => e.details.depositId }),
    status: t.string({ description: 'Processing status the event reports.', resolve: (e) => e.details.status }),
    amount: t.field({ type: Money, description: 'Amount deposited.', resolve: (e) => moneyOf(e.details.amount, e.details.currency) }),
    balanceAfter: t.field({ type: Money, description: 'Balance after the top-up (balance.ga.top_up only).', resolve: (e) => moneyOf(e.details.balanceAfter, e.details.currency) }),
    payerName: t.string({ description: 'Who paid.', resolve: (e) => e.details.payerName }),
    accountUpstreamId: t.string({
      description:
        "The bank's id of the receiving account: global_account_id where the event names it; for ga.new, which names only the account number (settlement_info.beneficiary_account_number), the id of the account with that number in the account list (null if none has it).",
      resolve: async (e, _args, context) => e.details.globalAccountId ?? (await accountNamedByNumber(e, context))?.id ?? null,
    }),
    account: t.field({
      type: AccountNode,
      description: 'The receiving account, read now. An error (NOT_FOUND) when the bank does not find it; the id is in `accountUpstreamId` either way.',
      resolve: async (e, _args, context) =>
        e.details.globalAccountId !== null
          ? readLink(AccountNode, e.details.globalAccountId, e.details.globalAccountId, context)
          : accountNamedByNumber(e, context),
    }),
  }),
});

const ConversionUpdate = builder.objectRef<EventOfKind<'conversion'>>('ConversionUpdate').implement({
  readPermission: EVENT_PERMISSIONS.conversion.read,
  description: 'A conversion was scheduled, settled, cancelled or became overdue (conversion.*).',
  fields: (t) => ({
    event: t.field({ type: BankEventType, nullable: false, description: EVENT_FIELD_DESCRIPTION, resolve: (e) => e }),
    status: t.string({ nullable: false, description: 'Status the event reports.', resolve: (e) => e.details.status }),
    conversionUpstreamId: t.string({ nullable: false, description: "The bank's id of the conversion.", resolve: (e) => e.details.conversionId }),
    conversion: t.field({
      type: ConversionNode,
      description: 'The conversion, read now. An error (NOT_FOUND) when the bank does not find it; the id is in `conversionUpstreamId` either way.',
      resolve: (e, _args, context) => readLink(ConversionNode, e.details.conversionId, e.details.conversionId, context),
    }),
  }),
});

const PayoutFundingUpdate = builder.objectRef<EventOfKind<'payoutFunding'>>('PayoutFundingUpdate').implement({
  readPermission: EVENT_PERMISSIONS.payoutFunding.read,
  description: 'A payout\u2019s funding was scheduled or funded (payout.transfer.funding.*).',
  fields: (t) => ({
    event: t.field({ type: BankEventType, nullable: false, description: EVENT_FIELD_DESCRIPTION, resolve: (e) => e }),
    fundingStatus: t.string({ nullable: false, description: 'SCHEDULED or FUNDED.', resolve: (e) => e.details.fundingStatus }),
    transferAmount: t.field({ type: Money, description: 'Amount transferred.', resolve: (e) => moneyOf(e.details.transferAmount, e.details.transferCurrency) }),
    payoutUpstreamId: t.string({ nullable: false, description: "The bank's id of the payout.", resolve: (e) => e.details.payoutId }),
    payout: t.field({
      type: PayoutNode,
      description: 'The payout, read now. An error (NOT_FOUND) when the bank does not find it; the id is in `payoutUpstreamId` either way.',
      resolve: (e, _args, context) => readLink(PayoutNode, e.details.payoutId, e.details.payoutId, context),
    }),
  }),
});

// --- Account, RFIs, direct debit -----------------------------------------------------------------

const AccountStatusChange = builder.objectRef<EventOfKind<'accountStatus'>>('AccountStatusChange').implement({
  readPermission: EVENT_PERMISSIONS.accountStatus.read,
  description: 'The business account was submitted, activated or suspended (account.*).',
  fields: (t) => ({
    event: t.field({ type: BankEventType, nullable: false, description: EVENT_FIELD_DESCRIPTION, resolve: (e) => e }),
    status: t.string({ nullable: false, description: 'SUBMITTED, ACTIVE or SUSPENDED.', resolve: (e) => e.details.status }),
  }),
});

const RfiRequested = builder.objectRef<EventOfKind<'rfi'>>('RfiActionRequired').implement({
  readPermission: EVENT_PERMISSIONS.rfi.read,
  description: 'The bank needs information (rfi.action_required); see viewer.rfis.',
  fields: (t) => ({
    event: t.field({ type: BankEventType, nullable: false, description: EVENT_FIELD_DESCRIPTION, resolve: (e) => e }),
    rfiId: t.string({ nullable: false, description: "The bank's RFI id.", resolve: (e) => e.details.rfiId }),
    type: t.string({ description: 'KYC, AML, ADDRESS or IDENTITY.', resolve: (e) => e.details.type }),
  }),
});

const DirectDebitStatusChange = builder.objectRef<EventOfKind<'directDebit'>>('DirectDebitStatusChange').implement({
  readPermission: EVENT_PERMISSIONS.directDebit.read,
  description: 'A direct debit payout changed status (NEW, IN_REVIEW, PENDING, SETTLED, REJECTED, RETURNED).',
  fields: (t) => ({
    event: t.field({ type: BankEventType, nullable: false, description: EVENT_FIELD_DESCRIPTION, resolve: (e) => e }),
    status: t.string({ description: 'Status the event reports.', resolve: (e) => e.details.status }),
    directDebitUpstreamId: t.string({ nullable: false, description: "The bank's id of the direct debit payout (transaction_id).", resolve: (e) => e.details.transactionId }),
    transactionId: t.string({
      nullable: false,
      deprecationReason: 'Use directDebitUpstreamId: ids of linked records are named <link>UpstreamId.',
      description: "The bank's direct debit transaction id.",
      resolve: (e) => e.details.transactionId,
    }),
    mandateUpstreamId: t.string({ description: "The bank's id of the mandate it was collected under (mandate_id), where the event names it.", resolve: (e) => e.details.mandateId }),
    mandateId: t.string({
      deprecationReason: 'Use mandateUpstreamId: ids of linked records are named <link>UpstreamId.',
      description: 'Mandate it was collected under.',
      resolve: (e) => e.details.mandateId,
    }),
    accountUpstreamId: t.string({ description: "The bank's id of the global account collected from (global_account_id), where the event names it.", resolve: (e) => e.details.globalAccountId }),
    amount: t.field({ type: Money, description: 'Amount.', resolve: (e) => moneyOf(e.details.amount, e.details.currency) }),
    directDebit: t.field({
      type: DirectDebitNode,
      description:
        "The payout, read now as the platform. An error (NOT_FOUND) when the bank does not find it (a connected account's payout is not visible to the platform); the id is in `directDebitUpstreamId` either way.",
      resolve: (e, _args, context) => readLink(DirectDebitNode, directDebitKey(null, e.details.transactionId), e.details.transactionId, context),
    }),
  }),
});

// --- The subscriptions ---------------------------------------------------------------------------

const AFTER_DESCRIPTION =
  'Resume after this cursor (BankEvent.cursor of the last event received): the retained events after it come first, in order, then live ones, with none twice. A cursor older than the retention (EVENT_LOG_MAX_EVENTS, EVENT_LOG_MAX_AGE_MS) is refused with CURSOR_EXPIRED: refetch, then subscribe without it.';

/** One resource a typed stream can be narrowed to: its argument, and the id an event names it by. */
interface Narrowing<K extends Exclude<EventKind, 'other'>> {
  arg: string;
  /** The node type whose global IDs the argument takes (besides the bank's id); none: the bank's id only. */
  typename?: string;
  description: string;
  idOf: (event: EventOfKind<K>) => string | null | undefined;
  /**
   * A second name the wanted record goes by in some events, read once when the subscription starts
   * (ga.new names an account by its number only), and where an event carries it.
   */
  alias?: { of: (wanted: string, context: GatewayContext) => Promise<string | null>; in: (event: EventOfKind<K>) => string | null | undefined };
}

/** The events of one kind, optionally of one resource, after a cursor. */
function subscribeTo<K extends Exclude<EventKind, 'other'>>(kind: K, narrowing?: Narrowing<K>) {
  return async (_root: unknown, args: Record<string, unknown>, context: GatewayContext) => {
    // An ID or a String argument (below), which GraphQL has made text.
    const given = narrowing ? (args[narrowing.arg] as string | null | undefined) : undefined;
    const wanted = given == null ? null : narrowing!.typename ? upstreamIdFrom(given, narrowing!.typename) : given;
    const alias = wanted !== null && narrowing?.alias ? await narrowing.alias.of(wanted, context) : null;
    const isWanted = (event: EventOfKind<K>) => narrowing!.idOf(event) === wanted || (alias !== null && narrowing!.alias!.in(event) === alias);
    return subscribeVisible(context, args.after, (event) => event.kind === kind && (wanted === null || isWanted(event as EventOfKind<K>)));
  };
}

/** The events `wanted` accepts after a cursor, of those the caller may see (event-visibility.ts). */
async function subscribeVisible(context: GatewayContext, after: unknown, wanted: ((event: PublishedEvent) => boolean) | undefined) {
  const visibility = eventVisibility(context);
  const visible = visibility.filter;
  const filter = visible && wanted ? (event: PublishedEvent) => wanted(event) && visible(event) : (visible ?? wanted);
  return visibility.narrow(await context.events.subscribe({ after: after as string | null | undefined, filter }));
}

builder.subscriptionFields((t) => {
  /**
   * A typed stream: its payload type, description and optional narrowing, all resumable with `after`;
   * it needs the permission its kind of event needs (event-visibility.ts).
   */
  const typed = <K extends Exclude<EventKind, 'other'>>(
    kind: K,
    type: Parameters<typeof t.field>[0]['type'],
    description: string,
    narrowing?: Narrowing<K>,
  ) =>
    t.field({
      authScopes: { permission: EVENT_PERMISSIONS[kind].read },
      type,
      nullable: false,
      description,
      args: {
        after: t.arg.string({ description: AFTER_DESCRIPTION }),
        ...(narrowing ? { [narrowing.arg]: narrowing.typename ? t.arg.id({ description: narrowing.description }) : t.arg.string({ description: narrowing.description }) } : {}),
      },
      // Pothos cannot carry a field's resolver types through a helper generic in the payload type; the
      // stream's items are this kind's events by construction (subscribeTo filters on it).
      subscribe: subscribeTo(kind, narrowing) as never,
      resolve: resolveEventAfresh as never,
    });

  return {
    bankEvents: t.field({
      authScopes: { permission: 'events:read' },
      type: BankEventType,
      nullable: false,
      description:
        "Every bank event the caller may read, optionally only some names. An event needs the read permission of its resource's domain besides events:read (a card's events cards:read, a cardholder's cardholders:read, a deposit's accounts:read...); an event the gateway has no model for needs every read permission. The others are skipped for this caller, and the stream goes on.",
      args: {
        names: t.arg.stringList({ description: 'Only these event names, e.g. ["ga.new", "issuing.card.active"].' }),
        after: t.arg.string({ description: AFTER_DESCRIPTION }),
      },
      subscribe: (_root, args, context) => {
        const names = args.names ? new Set(args.names) : null;
        return subscribeVisible(context, args.after, names ? (event) => names.has(event.name) : undefined);
      },
      resolve: resolveEventAfresh,
    }),
    cardStatusChanged: typed('cardStatus', CardStatusChange, 'Cards becoming active or blocked; one card with cardId.', {
      arg: 'cardId',
      typename: 'Card',
      description: "Only this card (global ID or the bank's id).",
      idOf: (e) => e.details.cardId,
    }),
    cardTransactionSucceeded: typed('cardTransaction', CardTransactionEvent, 'Successful card transactions; one card with cardId.', {
      arg: 'cardId',
      typename: 'Card',
      description: "Only this card (global ID or the bank's id).",
      idOf: (e) => e.details.cardId,
    }),
    cardholderStatusChanged: typed('cardholderStatus', CardholderStatusChange, 'Cardholders pending, ready or deleted; one cardholder with cardholderId.', {
      arg: 'cardholderId',
      typename: 'Cardholder',
      description: "Only this cardholder (global ID or the bank's id).",
      idOf: (e) => e.details.cardholderId,
    }),
    depositUpdated: typed('deposit', DepositUpdate, 'Deposits from arrival (ga.new) to settlement and top-up; one account with accountId.', {
      arg: 'accountId',
      typename: 'Account',
      description: "Only deposits to this account (global ID or the bank's id).",
      idOf: (e) => e.details.globalAccountId,
      alias: { of: accountNumberOf, in: (e) => e.details.accountNumber },
    }),
    conversionUpdated: typed('conversion', ConversionUpdate, 'Conversions scheduled, settled, cancelled or overdue; one conversion with conversionId.', {
      arg: 'conversionId',
      typename: 'Conversion',
      description: "Only this conversion (global ID or the bank's id).",
      idOf: (e) => e.details.conversionId,
    }),
    payoutFundingUpdated: typed('payoutFunding', PayoutFundingUpdate, 'Payout funding scheduled or funded; one payout with payoutId.', {
      arg: 'payoutId',
      typename: 'Payout',
      description: "Only this payout (global ID or the bank's id).",
      idOf: (e) => e.details.payoutId,
    }),
    accountStatusChanged: typed('accountStatus', AccountStatusChange, 'The business account submitted, active or suspended.'),
    rfiActionRequired: typed('rfi', RfiRequested, 'Requests for information from the bank.'),
    directDebitStatusChanged: typed('directDebit', DirectDebitStatusChange, 'Direct debit payouts changing status; one payout with transactionId.', {
      arg: 'transactionId',
      description: "Only this direct debit (the bank's transaction id).",
      idOf: (e) => e.details.transactionId,
    }),
  };
});
