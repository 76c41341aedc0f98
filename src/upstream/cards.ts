import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { orNullIfNotFound, type Caller } from './caller.ts';
import { records } from './cache-policy.ts';
import { endpoint } from './endpoint.ts';
import { addressModel, cardNumber, currencyCode, decimal, noData, optionalText, orNull, single, upstreamDateTime } from './models.ts';

/** Document 2, sections 2.1-2.3 and 4.1: cards, their details and their transactions. */

export const CARD_STATUSES = ['ACTIVE', 'INACTIVE', 'CLOSED'] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];
/** Document 2, 4.1: GET /card filters by ACTIVE or INACTIVE only; CLOSED is not a filter value. */
export const CARD_LIST_FILTER_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export type CardListFilterStatus = (typeof CARD_LIST_FILTER_STATUSES)[number];
export const LIMIT_INTERVALS = ['PER_TRANSACTION', 'DAILY', 'WEEKLY', 'MONTHLY', 'ALL_TIME'] as const;
export type LimitInterval = (typeof LIMIT_INTERVALS)[number];
export type CardType = 'VIRTUAL' | 'PHYSICAL';

/** The list says PHY where create says PHYSICAL: one spelling in the graph. */
const cardType = z
  .string()
  .transform((v) => v.toUpperCase())
  .transform((v): CardType | string => (v === 'PHY' ? 'PHYSICAL' : v))
  .pipe(z.enum(['VIRTUAL', 'PHYSICAL']));

const cardStatus = z.string().transform((v) => v.toUpperCase()).pipe(z.enum(CARD_STATUSES));
const bool = orNull(z.boolean());

export const cardModel = z
  .object({
    cardHashId: z.string().min(1),
    cardStatus,
    maskedCardNumber: cardNumber,
    cardholderId: z.string().min(1),
    createdAt: orNull(upstreamDateTime),
    updatedAt: orNull(upstreamDateTime),
    nameOnCard: optionalText,
    cardType,
    currency: currencyCode,
  })
  .transform((c) => ({
    id: c.cardHashId,
    status: c.cardStatus,
    maskedNumber: c.maskedCardNumber,
    cardholderId: c.cardholderId,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    nameOnCard: c.nameOnCard,
    type: c.cardType,
    currency: c.currency,
  }));
export type Card = z.output<typeof cardModel>;

const cardholderSummary = z
  .object({
    cardholder_id: optionalText,
    email: optionalText,
    number_of_cards: orNull(z.number()),
    first_name: optionalText,
    last_name: optionalText,
    create_time: optionalText,
    cardholder_status: optionalText,
    date_of_birth: optionalText,
    country_code: optionalText,
    phone_number: optionalText,
  })
  .transform((c) => ({
    cardholderId: c.cardholder_id,
    email: c.email,
    numberOfCards: c.number_of_cards,
    firstName: c.first_name,
    lastName: c.last_name,
    createdAt: c.create_time,
    status: c.cardholder_status,
    dateOfBirth: c.date_of_birth,
    countryCode: c.country_code,
    phoneNumber: c.phone_number,
  }));

const spendingControl = z
  .object({ amount: decimal, interval: z.enum(LIMIT_INTERVALS), remaining: orNull(decimal) });

const authorizationControls = z
  .object({
    active_from: orNull(upstreamDateTime),
    active_to: orNull(upstreamDateTime),
    allowed_currencies: orNull(z.array(currencyCode)),
    allowed_merchant_categories: orNull(z.array(z.string())),
  })
  .transform((a) => ({
    activeFrom: a.active_from,
    activeTo: a.active_to,
    allowedCurrencies: a.allowed_currencies ?? [],
    allowedMerchantCategories: a.allowed_merchant_categories ?? [],
  }));

const delivery = z
  .object({
    delivery_mode: optionalText,
    delivery_vendor: optionalText,
    status: optionalText,
    tracked: bool,
    tracking_link: optionalText,
    tracking_number: optionalText,
    updated_at: orNull(upstreamDateTime),
  })
  .transform((d) => ({
    mode: d.delivery_mode,
    vendor: d.delivery_vendor,
    status: d.status,
    tracked: d.tracked,
    trackingLink: d.tracking_link,
    trackingNumber: d.tracking_number,
    updatedAt: d.updated_at,
  }));

/** Section 2.2: fields seen as null are kept, nullable, as the bank may fill them later. */
export const cardDetailModel = z
  .object({
    card_id: z.string().min(1),
    personalized: bool,
    is_personalized: bool,
    card_bin: optionalText,
    mode_type: optionalText,
    card_product_id: optionalText,
    available_balance: orNull(decimal),
    no_pin_payment_amount: orNull(decimal),
    risk_controls: orNull(z.unknown()),
    purpose: optionalText,
    created_at: orNull(upstreamDateTime),
    card_scheme: optionalText,
    brand: optionalText,
    card_currency: currencyCode,
    card_number: orNull(cardNumber),
    form_factor: optionalText,
    card_limit: orNull(decimal),
    cardholder: orNull(cardholderSummary),
    spending_controls: orNull(z.array(spendingControl)),
    authorization_controls: orNull(authorizationControls),
    metadata: orNull(z.record(z.string(), z.unknown())),
    card_status: orNull(cardStatus),
    cardholder_id: optionalText,
    created_by: optionalText,
    name_on_card: optionalText,
    nick_name: optionalText,
    program: orNull(z.object({ purpose: optionalText, type: optionalText })),
    delivery_details: orNull(delivery),
    postal_address: orNull(addressModel),
  })
  .transform((d) => ({
    id: d.card_id,
    personalized: d.is_personalized ?? d.personalized,
    bin: d.card_bin,
    modeType: d.mode_type,
    productId: d.card_product_id,
    availableBalance: d.available_balance,
    noPinPaymentAmount: d.no_pin_payment_amount,
    riskControls: d.risk_controls,
    purpose: d.purpose,
    createdAt: d.created_at,
    scheme: d.card_scheme,
    brand: d.brand,
    currency: d.card_currency,
    maskedNumber: d.card_number,
    formFactor: d.form_factor,
    limit: d.card_limit,
    cardholder: d.cardholder,
    spendingControls: d.spending_controls ?? [],
    authorizationControls: d.authorization_controls,
    metadata: d.metadata,
    status: d.card_status,
    createdBy: d.created_by,
    nameOnCard: d.name_on_card,
    nickname: d.nick_name,
    program: d.program,
    delivery: d.delivery_details,
    postalAddress: d.postal_address,
  }));
export type CardDetail = z.output<typeof cardDetailModel>;

const merchant = z
  .object({
    category_code: optionalText,
    city: optionalText,
    country: optionalText,
    identifier: optionalText,
    name: optionalText,
    postcode: optionalText,
    state: optionalText,
  })
  .transform((m) => ({
    categoryCode: m.category_code,
    city: m.city,
    country: m.country,
    identifier: m.identifier,
    name: m.name,
    postcode: m.postcode,
    state: m.state,
  }));

export const cardTransactionModel = z
  .object({
    transaction_id: z.string().min(1),
    acquiring_institution_identifier: optionalText,
    auth_code: optionalText,
    billing_amount: orNull(decimal),
    billing_currency: orNull(currencyCode),
    card_id: optionalText,
    card_nickname: optionalText,
    client_data: optionalText,
    digital_wallet_token_id: optionalText,
    failure_reason: optionalText,
    lifecycle_id: optionalText,
    masked_card_number: orNull(cardNumber),
    matched_authorizations: orNull(z.array(z.string())),
    merchant: orNull(merchant),
    network_transaction_id: optionalText,
    posted_date: orNull(upstreamDateTime),
    retrieval_ref: optionalText,
    risk_details: orNull(
      z.object({
        risk_actions_performed: orNull(z.array(z.string())),
        risk_factors: orNull(z.array(z.string())),
        three_dsecure_outcome: optionalText,
      }),
    ),
    status: z.string(),
    transaction_amount: decimal,
    transaction_currency: currencyCode,
    transaction_date: upstreamDateTime,
    transaction_type: z.string(),
  })
  .transform((t) => ({
    id: t.transaction_id,
    acquiringInstitutionIdentifier: t.acquiring_institution_identifier,
    authCode: t.auth_code,
    billingAmount: t.billing_amount,
    billingCurrency: t.billing_currency,
    cardId: t.card_id,
    cardNickname: t.card_nickname,
    clientData: t.client_data,
    digitalWalletTokenId: t.digital_wallet_token_id,
    failureReason: t.failure_reason,
    lifecycleId: t.lifecycle_id,
    maskedCardNumber: t.masked_card_number,
    matchedAuthorizations: t.matched_authorizations ?? [],
    merchant: t.merchant,
    networkTransactionId: t.network_transaction_id,
    postedAt: t.posted_date,
    retrievalRef: t.retrieval_ref,
    riskActionsPerformed: t.risk_details?.risk_actions_performed ?? [],
    riskFactors: t.risk_details?.risk_factors ?? [],
    threeDSecureOutcome: t.risk_details?.three_dsecure_outcome ?? null,
    status: t.status,
    amount: t.transaction_amount,
    currency: t.transaction_currency,
    transactionDate: t.transaction_date,
    type: t.transaction_type,
  }));
export type CardTransaction = z.output<typeof cardTransactionModel>;

const CARD = '/{svc}/api/v1/card';
const cardReads = records('cards');
/** A card's cardholder counts its cards, and its wallet funds it. */
const CARD_WRITE = ['cards', 'cardholders', 'wallets'] as const;

export const cardEndpoints = {
  create: endpoint({ method: 'POST', path: CARD, headers: 'standard', data: z.object({ id: z.string().min(1) }), changes: CARD_WRITE }),
  assign: endpoint({ method: 'POST', path: `${CARD}/assign`, headers: 'standard', data: noData, changes: CARD_WRITE }),
  list: endpoint({ method: 'GET', path: CARD, headers: 'standard', data: z.array(cardModel), cache: cardReads }),
  detail: endpoint({ method: 'GET', path: `${CARD}/detail`, headers: 'standard', data: single(cardDetailModel), cache: cardReads }),
  activate: endpoint({ method: 'POST', path: `${CARD}/activate`, headers: 'standard', data: noData, changes: CARD_WRITE }),
  pin: endpoint({ method: 'POST', path: `${CARD}/pin`, headers: 'standard', data: noData, changes: ['cards'] }),
  update: endpoint({ method: 'PATCH', path: CARD, headers: 'standard', data: noData, changes: CARD_WRITE }),
  recharge: endpoint({ method: 'POST', path: `${CARD}/recharge`, headers: 'standard', data: noData, changes: [...CARD_WRITE, 'accounts'] }),
  transactions: endpoint({
    method: 'GET',
    path: `${CARD}/transaction`,
    headers: 'standard',
    cache: cardReads,
    data: z
      .object({ has_more: orNull(z.boolean()), items: z.array(cardTransactionModel) })
      .transform((page) => ({ hasMore: page.has_more ?? false, items: page.items })),
  }),
};

export interface CardLimit {
  amount: string;
  interval: LimitInterval;
}

export interface CardCreateRequest {
  cardholderId: string;
  type: CardType;
  issuanceAction: 'NEW' | 'REPLACEMENT';
  createdBy: string;
  personalized: boolean;
  allowedTransactionCount: 'SINGLE' | 'MULTIPLE';
  limitCurrency: string;
  limits: CardLimit[];
  postalAddress?: Record<string, string | null | undefined> | null | undefined;
}

export interface CardUpdateRequest {
  status?: CardStatus | null | undefined;
  currency?: string | null | undefined;
  limits?: CardLimit[] | null | undefined;
  authorizationControls?:
    | {
        activeFrom?: Date | null | undefined;
        activeTo?: Date | null | undefined;
        allowedCurrencies?: string[] | null | undefined;
        allowedMerchantCategories?: string[] | null | undefined;
      }
    | null
    | undefined;
  updatedBy: string;
}

/** The update body wants `YYYY-MM-DDTHH:mm:ssZ`, no milliseconds. */
const isoSeconds = (date: Date | null | undefined) => (date ? `${date.toISOString().slice(0, 19)}Z` : undefined);
const key = (idempotencyKey: string | null | undefined) => idempotencyKey ?? undefined;

export function cardsApi(call: Caller) {
  return {
    list: (filter: { cardholderId?: string | null; id?: string; status?: CardListFilterStatus | null; page?: number; size?: number }) =>
      call(cardEndpoints.list, {
        query: { cardholder_id: filter.cardholderId, id: filter.id, status: filter.status, page_num: filter.page, page_size: filter.size },
      }),
    detail: (id: string) => orNullIfNotFound(call(cardEndpoints.detail, { query: { id } })),
    create: (request: CardCreateRequest, idempotencyKey?: string | null) => {
      // request_id is the body's own idempotency key: the same one as x-request-id.
      const requestId = idempotencyKey ?? randomUUID();
      return call(cardEndpoints.create, {
        idempotencyKey: requestId,
        body: {
          card_issuance_action: request.issuanceAction,
          card_type: request.type,
          card_holder_id: request.cardholderId,
          created_by: request.createdBy,
          request_id: requestId,
          program: { purpose: 'COMMERCIAL' },
          authorization_controls: {
            allowed_transaction_count: request.allowedTransactionCount,
            transaction_limits: {
              currency: request.limitCurrency,
              limits: request.limits.map((l) => ({ amount: Number(l.amount), interval: l.interval })),
            },
          },
          postal_address: request.postalAddress ?? undefined,
          is_personalized: request.personalized,
        },
      });
    },
    assign: (
      request: { cardholderId: string; cardNumber: string; currency: string; mode: 'SINGLE'; createdBy: string },
      idempotencyKey?: string | null,
    ) =>
      call(cardEndpoints.assign, {
        idempotencyKey: key(idempotencyKey),
        body: {
          cardholder_id: request.cardholderId,
          card_number: request.cardNumber,
          card_currency: request.currency,
          card_mode: request.mode,
          created_by: request.createdBy,
        },
      }),
    activate: (id: string, secrets: { activationCode?: string | null; pin?: string | null }, idempotencyKey?: string | null) =>
      call(cardEndpoints.activate, {
        query: { id },
        idempotencyKey: key(idempotencyKey),
        body: { activation_code: secrets.activationCode ?? undefined, pin: secrets.pin ?? undefined },
      }),
    pinReset: (id: string, pin: string, idempotencyKey?: string | null) =>
      call(cardEndpoints.pin, { query: { id }, idempotencyKey: key(idempotencyKey), body: { pin } }),
    update: (id: string, request: CardUpdateRequest, idempotencyKey?: string | null) => {
      const controls = request.authorizationControls;
      return call(cardEndpoints.update, {
        query: { id },
        idempotencyKey: key(idempotencyKey),
        body: {
          card_status: request.status ?? undefined,
          currency: request.currency ?? undefined,
          // Update spells limits {type, value} where create spells them {amount, interval}.
          transaction_limits: request.limits?.map((l) => ({ type: l.interval, value: Number(l.amount) })),
          authorization_controls: controls
            ? {
                active_from: isoSeconds(controls.activeFrom),
                active_to: isoSeconds(controls.activeTo),
                allowed_currencies: controls.allowedCurrencies ?? undefined,
                allowed_merchant_categories: controls.allowedMerchantCategories ?? undefined,
              }
            : undefined,
          updated_by: request.updatedBy,
        },
      });
    },
    recharge: (id: string, amount: string, idempotencyKey?: string | null) =>
      call(cardEndpoints.recharge, { query: { id }, idempotencyKey: key(idempotencyKey), body: { amount: Number(amount) } }),
    transactions: (id: string, page: { page: number; size: number; fromDate?: string | undefined; toDate?: string | undefined }) =>
      call(cardEndpoints.transactions, {
        query: { id, page_num: page.page, page_size: page.size, from_created_at: page.fromDate, to_created_at: page.toDate },
      }),
  };
}
export type CardsApi = ReturnType<typeof cardsApi>;
