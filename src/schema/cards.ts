import { builder } from '../builder.ts';
import type { GatewayContext } from '../context.ts';
import {
  CARD_LIST_FILTER_STATUSES,
  CARD_STATUSES,
  LIMIT_INTERVALS,
  type CardListFilterStatus,
  type Card,
  type CardDetail,
  type CardTransaction,
} from '../upstream/cards.ts';
import { extended } from '../upstream/lazy-model.ts';
import { moneyOf } from '../upstream/models.ts';
import { CardholderNode } from './cardholders.ts';
import { AddressType } from './addresses.ts';
import { loadByIdOrList } from './batched-reads.ts';
import { pagedConnection } from './connections.ts';
import { DateRangeInput, dateRangeRule } from './dates.ts';
import { readLink } from './links.ts';
import { BANK_ORDER } from './list-order.ts';
import { perRequestLoader } from './loaders.ts';
import { Money, money } from './money.ts';
import { upstreamIdFrom, globalIdRule } from './record-ids.ts';
import { loaderBatch } from './loader-batch.ts';

/** Document 2, sections 2.1-2.3 and 4.1 in the graph: cards, their details, their transactions. */

const STATUS_TEXT: Record<(typeof CARD_STATUSES)[number], string> = {
  ACTIVE: 'Usable for authorisations.',
  INACTIVE: 'Not usable: a physical card before activation, or a card switched off.',
  CLOSED: 'Closed for good.',
};
export const CardStatus = builder.enumType('CardStatus', {
  description: 'Whether a card can be used.',
  values: Object.fromEntries(CARD_STATUSES.map((s) => [s, { value: s, description: STATUS_TEXT[s] }])),
});

/** Its own enum, so CLOSED cannot reach GET /card, whose status filter the bank refuses it for. */
const CardStatusFilter = builder.enumType('CardStatusFilter', {
  description: "The card list's status filter: the values Document 2, 4.1 allows (CLOSED is not one of them).",
  values: Object.fromEntries(CARD_LIST_FILTER_STATUSES.map((s) => [s, { value: s, description: STATUS_TEXT[s] }])),
});

export const CardType = builder.enumType('CardType', {
  description: 'Virtual or physical card (the card list spells physical "PHY").',
  values: {
    VIRTUAL: { value: 'VIRTUAL' as const, description: 'A card number for online use; active at once.' },
    PHYSICAL: { value: 'PHYSICAL' as const, description: 'A plastic card; inactive until activated.' },
  },
});

const LIMIT_TEXT: Record<(typeof LIMIT_INTERVALS)[number], string> = {
  PER_TRANSACTION: 'Each transaction.',
  DAILY: 'Per day.',
  WEEKLY: 'Per week.',
  MONTHLY: 'Per month.',
  ALL_TIME: 'Over the life of the card.',
};
export const LimitInterval = builder.enumType('CardLimitInterval', {
  description: 'The period a spending limit applies to.',
  values: Object.fromEntries(LIMIT_INTERVALS.map((i) => [i, { value: i, description: LIMIT_TEXT[i] }])),
});

export const AllowedTransactionCount = builder.enumType('CardAllowedTransactionCount', {
  description: 'How many successful debits a card allows.',
  values: {
    SINGLE: { value: 'SINGLE' as const, description: 'One successful debit only.' },
    MULTIPLE: { value: 'MULTIPLE' as const, description: 'Any number.' },
  },
});

export const IssuanceAction = builder.enumType('CardIssuanceAction', {
  description: 'Why a card is issued.',
  values: {
    NEW: { value: 'NEW' as const, description: 'A new card.' },
    REPLACEMENT: { value: 'REPLACEMENT' as const, description: 'A replacement for an existing card.' },
  },
});

// --- Detail, fetched only when a query asks for one of its fields -------------------------------

const cardDetail = perRequestLoader('CardDetail', (id: string, context: GatewayContext) => context.upstream.cards.detail(id));
const detailOf = (card: Card, context: GatewayContext): Promise<CardDetail | null> => cardDetail(context).load(card.cardHashId);

/**
 * A detail field's resolver: `pick` from the card's detail (read once per card per request), null
 * without one. No async function: a card's detail fields are most of a cards screen's, and each
 * would add a promise and a suspended frame of its own to the loader's.
 */
function fromDetail<T>(pick: (detail: CardDetail) => T) {
  const picked = (detail: CardDetail | null): T | null => (detail ? pick(detail) : null);
  return (card: Card, _args: unknown, context: GatewayContext): Promise<T | null> => detailOf(card, context).then(picked);
}

type Detail = CardDetail;
const SpendingControl = builder.objectRef<Detail['spendingControls'][number] & { currency: string }>('CardSpendingControl').implement({
  description: 'A spending limit and what is left of it.',
  fields: (t) => ({
    interval: t.expose('interval', { type: LimitInterval, nullable: false, description: 'Period of the limit.' }),
    limit: t.field({ type: Money, nullable: false, description: 'The limit.', resolve: (s) => money(s.amount, s.currency) }),
    remaining: t.field({
      type: Money,
      description: 'What can still be spent in the current period.',
      resolve: (s) => (s.remaining === null ? null : money(s.remaining, s.currency)),
    }),
  }),
});

const AuthorizationControls = builder.objectRef<NonNullable<Detail['authorizationControls']>>('CardAuthorizationControls').implement({
  description: 'When, in which currencies and at which merchants a card may be used.',
  fields: (t) => ({
    activeFrom: t.expose('activeFrom', { type: 'DateTime', description: 'Usable from.' }),
    activeTo: t.expose('activeTo', { type: 'DateTime', description: 'Usable until.' }),
    allowedCurrencies: t.exposeStringList('allowedCurrencies', { nullable: false, description: 'Currencies allowed; empty means any.' }),
    allowedMerchantCategories: t.exposeStringList('allowedMerchantCategories', {
      nullable: false,
      description: 'Merchant category codes (4 digits) allowed; empty means any.',
    }),
  }),
});

const Delivery = builder.objectRef<NonNullable<Detail['deliveryDetails']>>('CardDelivery').implement({
  description: 'Delivery of a physical card.',
  fields: (t) => ({
    mode: t.exposeString('deliveryMode', { description: 'Delivery mode.' }),
    vendor: t.exposeString('deliveryVendor', { description: 'Carrier.' }),
    status: t.exposeString('status', { description: 'Delivery state; value seen: PRINTED.' }),
    tracked: t.exposeBoolean('tracked', { description: 'Whether the delivery can be tracked.' }),
    trackingLink: t.exposeString('trackingLink', { description: 'Tracking page.' }),
    trackingNumber: t.exposeString('trackingNumber', { description: 'Tracking number.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'Last delivery update.' }),
  }),
});

const CardholderSummary = builder.objectRef<NonNullable<Detail['cardholder']>>('CardCardholderSummary').implement({
  readPermission: 'cardholders:read',
  description: 'The cardholder as the card detail summarises them (the full record is `Card.cardholder`).',
  fields: (t) => ({
    cardholderUpstreamId: t.exposeString('cardholderId', { description: "The bank's id of the cardholder (cardholder.cardholder_id)." }),
    email: t.exposeString('email', { description: 'E-mail.' }),
    firstName: t.exposeString('firstName', { description: 'First name.' }),
    lastName: t.exposeString('lastName', { description: 'Last name.' }),
    status: t.exposeString('cardholderStatus', { description: 'Cardholder status.' }),
    dateOfBirth: t.exposeString('dateOfBirth', { description: 'Date of birth.' }),
    countryCode: t.exposeString('countryCode', { description: 'Country.' }),
    phoneNumber: t.exposeString('phoneNumber', { description: 'Phone number.' }),
    numberOfCards: t.exposeInt('numberOfCards', { description: 'How many cards they hold.' }),
    createdAt: t.exposeString('createTime', { description: 'When the cardholder was created, as the bank writes it.' }),
  }),
});

const Program = builder.objectRef<NonNullable<Detail['program']>>('CardProgram').implement({
  description: 'The card program a card belongs to.',
  fields: (t) => ({
    purpose: t.exposeString('purpose', { description: 'Purpose; value seen: COMMERCIAL.' }),
    type: t.exposeString('type', { description: 'Funding type; value seen: DEBIT.' }),
  }),
});

// --- Transactions -------------------------------------------------------------------------------

const Merchant = builder.objectRef<NonNullable<CardTransaction['merchant']>>('CardMerchant').implement({
  description: 'Where a card was used.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Merchant name.' }),
    categoryCode: t.exposeString('categoryCode', { description: 'Merchant category code (MCC).' }),
    city: t.exposeString('city', { description: 'City.' }),
    state: t.exposeString('state', { description: 'State or region.' }),
    postcode: t.exposeString('postcode', { description: 'Postal code.' }),
    country: t.exposeString('country', { description: 'Country.' }),
    identifier: t.exposeString('identifier', { description: 'Merchant identifier at the acquirer.' }),
  }),
});

const CardTransactionType = builder.objectRef<CardTransaction>('CardTransaction').implement({
  readPermission: 'cards:read',
  description: 'An authorisation, purchase or refund on a card.',
  fields: (t) => ({
    upstreamId: t.exposeString('transactionId', { nullable: false, description: "The bank's transaction id." }),
    amount: t.field({ type: Money, nullable: false, description: 'Amount in the transaction currency.', resolve: (x) => money(x.transactionAmount, x.transactionCurrency) }),
    billingAmount: t.field({
      type: Money,
      description: 'Amount billed in the card currency.',
      resolve: (x) => moneyOf(x.billingAmount, x.billingCurrency),
    }),
    type: t.exposeString('transactionType', { nullable: false, description: 'Kind; values seen: PURCHASE, REFUND.' }),
    status: t.exposeString('status', { nullable: false, description: 'State; values seen: APPROVED, DECLINED, SETTLED.' }),
    failureReason: t.exposeString('failureReason', { description: 'Why it was declined, e.g. INSUFFICIENT_FUNDS.' }),
    transactionDate: t.expose('transactionDate', { type: 'DateTime', nullable: false, description: 'When it happened.' }),
    postedAt: t.expose('postedDate', { type: 'DateTime', description: 'When it was posted (settled).' }),
    merchant: t.field({ type: Merchant, description: 'Where.', resolve: (x) => x.merchant }),
    cardUpstreamId: t.exposeString('cardId', { description: "The bank's id of the card (card_id)." }),
    maskedCardNumber: t.exposeString('maskedCardNumber', { description: 'The card, masked.' }),
    cardNickname: t.exposeString('cardNickname', { description: 'Nickname of the card.' }),
    authCode: t.exposeString('authCode', { description: 'Authorisation code.' }),
    retrievalRef: t.exposeString('retrievalRef', { description: 'Retrieval reference number.' }),
    networkTransactionId: t.exposeString('networkTransactionId', { description: 'Card network transaction id.' }),
    lifecycleId: t.exposeString('lifecycleId', { description: 'Id shared by the transactions of one purchase lifecycle.' }),
    matchedAuthorizations: t.exposeStringList('matchedAuthorizations', { nullable: false, description: 'Authorisations this one settles.' }),
    digitalWalletTokenId: t.exposeString('digitalWalletTokenId', { description: 'Digital wallet token used, if any.' }),
    acquiringInstitutionIdentifier: t.exposeString('acquiringInstitutionIdentifier', { description: 'Acquirer id.' }),
    clientData: t.exposeString('clientData', { description: 'Free data attached by the client.' }),
    riskActionsPerformed: t.stringList({
      nullable: false,
      description: 'Risk actions taken, e.g. TRANSACTION_BLOCKED.',
      resolve: (x) => x.riskDetails.riskActionsPerformed,
    }),
    riskFactors: t.stringList({ nullable: false, description: 'Risk factors seen.', resolve: (x) => x.riskDetails.riskFactors }),
    threeDSecureOutcome: t.string({ description: '3-D Secure outcome, e.g. AUTHENTICATED.', resolve: (x) => x.riskDetails.threeDsecureOutcome }),
  }),
});

// --- The card -----------------------------------------------------------------------------------

/** One filtered read each for a few cards; the card list (same items) for more. */
function loadCards(ids: string[], context: GatewayContext): Promise<Card[]> {
  return loadByIdOrList(ids, {
    one: async (id) => (await context.upstream.cards.list({ id }))[0] ?? null,
    page: (page, size) => context.upstream.cards.list({ page, size }),
    idOf: (card) => card.cardHashId,
  });
}

export const CardNode = builder.loadableNode('Card', {
  authScopes: { permission: 'cards:read' },
  description:
    'A card. Its list fields come with every read; the detail fields (controls, limits, delivery, program, address, cardholder summary) are fetched from the detail endpoint only when a query asks for one of them, once per card per request.',
  id: { resolve: (card) => card.cardHashId },
  load: loaderBatch('Card', loadCards),
  sort: (card) => card.cardHashId,
  // Records a list or a mutation returns are cached for later reads by id in the same request.
  cacheResolved: (card) => card.cardHashId,
  fields: (t) => ({
    upstreamId: t.exposeString('cardHashId', { nullable: false, description: "The bank's card id (cardHashId)." }),
    status: t.expose('cardStatus', { type: CardStatus, nullable: false, description: 'Whether it can be used.' }),
    type: t.expose('cardType', { type: CardType, nullable: false, description: 'Virtual or physical.' }),
    maskedNumber: t.exposeString('maskedCardNumber', { nullable: false, description: 'The card number, masked: first 6 and last 4 digits.' }),
    nameOnCard: t.exposeString('nameOnCard', { description: 'Name printed on the card.' }),
    currency: t.expose('currency', { type: 'Currency', nullable: false, description: 'Card currency.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    cardholderUpstreamId: t.exposeString('cardholderId', { nullable: false, description: "The bank's id of the cardholder (cardholderId)." }),
    cardholder: t.field({
      type: CardholderNode,
      description: 'Who holds it. An error (NOT_FOUND) when the bank does not find the record it names; the id is in `cardholderUpstreamId` either way.',
      resolve: (card, _args, context) => readLink(CardholderNode, card.cardholderId, card.cardholderId, context),
    }),
    // Detail fields.
    personalized: t.boolean({ description: 'Personalised (only these can be physical or in digital wallets).', resolve: fromDetail((d) => d.personalized) }),
    scheme: t.string({ description: 'Card network.', resolve: fromDetail((d) => d.cardScheme) }),
    brand: t.string({ description: 'Card brand.', resolve: fromDetail((d) => d.brand) }),
    formFactor: t.string({ description: 'Form factor; value seen: PHYSICAL.', resolve: fromDetail((d) => d.formFactor) }),
    nickname: t.string({ description: 'Nickname.', resolve: fromDetail((d) => d.nickName) }),
    createdBy: t.string({ description: 'Who requested it.', resolve: fromDetail((d) => d.createdBy) }),
    bin: t.string({ description: 'Bank identification number, where the bank gives it.', resolve: fromDetail((d) => d.cardBin) }),
    modeType: t.string({ description: 'Card mode, where the bank gives it.', resolve: fromDetail((d) => d.modeType) }),
    productId: t.string({ description: 'Card product id, where the bank gives it.', resolve: fromDetail((d) => d.cardProductId) }),
    purpose: t.string({ description: 'Purpose, where the bank gives it.', resolve: fromDetail((d) => d.purpose) }),
    limit: t.field({
      type: Money,
      description: 'Overall card limit.',
      resolve: fromDetail((d) => moneyOf(d.cardLimit, d.cardCurrency)),
    }),
    availableBalance: t.field({
      type: Money,
      description: 'Funds available to the card, where the program has them.',
      resolve: fromDetail((d) => moneyOf(d.availableBalance, d.cardCurrency)),
    }),
    noPinPaymentAmount: t.field({
      type: Money,
      description: 'Largest payment without PIN, where the bank gives it.',
      resolve: fromDetail((d) => moneyOf(d.noPinPaymentAmount, d.cardCurrency)),
    }),
    spendingControls: t.field({
      type: [SpendingControl],
      description: 'Spending limits and what is left of them.',
      resolve: fromDetail((d) => d.spendingControls.map((control) => extended(control, { currency: d.cardCurrency }))),
    }),
    authorizationControls: t.field({
      type: AuthorizationControls,
      description: 'When and where it may be used.',
      resolve: fromDetail((d) => d.authorizationControls),
    }),
    delivery: t.field({ type: Delivery, description: 'Delivery of a physical card.', resolve: fromDetail((d) => d.deliveryDetails) }),
    postalAddress: t.field({ type: AddressType, description: 'Delivery address.', resolve: fromDetail((d) => d.postalAddress) }),
    program: t.field({ type: Program, description: 'Program of the card.', resolve: fromDetail((d) => d.program) }),
    cardholderSummary: t.field({
      type: CardholderSummary,
      description: "The detail's summary of the cardholder.",
      resolve: fromDetail((d) => d.cardholder),
    }),
    riskControls: t.field({
      type: 'JSON',
      description: "The card's risk controls (risk_controls), passed through as the bank sends them: Document 2, 2.2 shows the field only as null and gives no shape.",
      resolve: fromDetail((d) => d.riskControls),
    }),
    metadata: t.field({ type: 'JSONObject', description: 'Free metadata attached to the card.', resolve: fromDetail((d) => d.metadata) }),
    transactions: t.connection(
      {
        type: CardTransactionType,
        description: `Transactions on this card. ${BANK_ORDER}`,
        args: {
          dateRange: t.arg({
            type: DateRangeInput,
            description: 'Only transactions created on these days (the bank takes the two dates together, Document 2, 4.1).',
            validate: dateRangeRule(Number.POSITIVE_INFINITY),
          }),
        },
        resolve: (card, args, context) =>
          pagedConnection(args, async (slice) =>
            (await context.upstream.cards.transactions(card.cardHashId, { ...slice, fromDate: args.dateRange?.from, toDate: args.dateRange?.to })).items,
          ),
      },
      { name: 'CardTransactionConnection' },
      { name: 'CardTransactionEdge' },
    ),
  }),
});

// --- Lists --------------------------------------------------------------------------------------

const cardListArgs = () => builder.args((t) => ({
  status: t.field({ type: CardStatusFilter, description: 'Only ACTIVE or only INACTIVE cards. Without it every card is listed, CLOSED ones included.' }),
}));

function cardsConnection(args: { first?: number | null; after?: string | null; last?: number | null; before?: string | null; status?: string | null }, context: GatewayContext, cardholderId?: string) {
  return pagedConnection(args, async ({ page, size }) => {
    const cards = await context.upstream.cards.list({ cardholderId, status: args.status as CardListFilterStatus | null, page, size });
    return cards;
  });
}

builder.queryFields((t) => ({
  card: t.field({
    authScopes: { permission: 'cards:read' },
    type: CardNode,
    description: "A card by its global ID or the bank's id; null when there is none.",
    args: { id: t.arg.id({ required: true, description: "Global ID or the bank's card id.", validate: globalIdRule('Card') }) },
    resolve: (_root, args) => upstreamIdFrom(String(args.id), 'Card'),
  }),
  cards: t.connection(
    {
      authScopes: { permission: 'cards:read' },
      type: CardNode,
      description: `Cards of the business. ${BANK_ORDER}`,
      args: {
        cardholderId: t.arg.id({ description: "Only the cards of this cardholder: its global ID or the bank's cardholder id.", validate: globalIdRule('Cardholder').nullish() }),
        ...cardListArgs(),
      },
      resolve: (_root, args, context) => cardsConnection(args, context, args.cardholderId == null ? undefined : upstreamIdFrom(String(args.cardholderId), 'Cardholder')),
    },
    { name: 'CardConnection' },
    { name: 'CardEdge' },
  ),
}));

builder.objectField(CardholderNode, 'cards', (t) =>
  t.connection({
    type: CardNode,
    description: `This cardholder's cards. ${BANK_ORDER}`,
    args: cardListArgs(),
    resolve: (cardholder, args, context) => cardsConnection(args, context, cardholder.id),
  }),
);
