import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { orNullIfNotFound, type BoundCall } from './bound-call.ts';
import { records } from './cache-policy.ts';
import { camelObject } from './camel-case.ts';
import { endpoint } from './endpoint.ts';
import {
  addressModel,
  anyCaseEnum,
  cardNumber,
  currencyCode,
  decimal,
  noData,
  optionalText,
  orEmpty,
  orEmptyObject,
  orFalse,
  orNull,
  single,
  upstreamDateTime,
} from './models.ts';

/** Document 2, sections 2.1-2.3 and 4.1: cards, their details and their transactions. */

export const CARD_STATUSES = ['ACTIVE', 'INACTIVE', 'CLOSED'] as const;
type CardStatus = (typeof CARD_STATUSES)[number];
/** Document 2, 4.1: GET /card filters by ACTIVE or INACTIVE only; CLOSED is not a filter value. */
export const CARD_LIST_FILTER_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export type CardListFilterStatus = (typeof CARD_LIST_FILTER_STATUSES)[number];
export const LIMIT_INTERVALS = ['PER_TRANSACTION', 'DAILY', 'WEEKLY', 'MONTHLY', 'ALL_TIME'] as const;
type LimitInterval = (typeof LIMIT_INTERVALS)[number];
type CardType = 'VIRTUAL' | 'PHYSICAL';

/** The list says PHY where create says PHYSICAL: one spelling in the graph. */
const cardType = anyCaseEnum(['VIRTUAL', 'PHYSICAL'], { aliases: { PHY: 'PHYSICAL' } });

const cardStatus = anyCaseEnum(CARD_STATUSES);
const bool = orNull(z.boolean());

/** The list's own camelCase spelling: `cardHashId` is the card's id. */
const cardModel = z.object({
  cardHashId: z.string().min(1),
  cardStatus,
  maskedCardNumber: cardNumber,
  cardholderId: z.string().min(1),
  createdAt: orNull(upstreamDateTime),
  updatedAt: orNull(upstreamDateTime),
  nameOnCard: optionalText,
  cardType,
  currency: currencyCode,
});
export type Card = z.output<typeof cardModel>;

const cardholderSummary = camelObject({
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
});

const spendingControl = z.object({ amount: decimal, interval: z.enum(LIMIT_INTERVALS), remaining: orNull(decimal) });

const authorizationControls = camelObject({
  active_from: orNull(upstreamDateTime),
  active_to: orNull(upstreamDateTime),
  allowed_currencies: orEmpty(currencyCode),
  allowed_merchant_categories: orEmpty(z.string()),
});

const delivery = camelObject({
  delivery_mode: optionalText,
  delivery_vendor: optionalText,
  status: optionalText,
  tracked: bool,
  tracking_link: optionalText,
  tracking_number: optionalText,
  updated_at: orNull(upstreamDateTime),
});

/** Section 2.2: fields seen as null are kept, nullable, as the bank may fill them later. */
const cardDetailModel = camelObject(
  {
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
    spending_controls: orEmpty(spendingControl),
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
    // The bank sends the flag under either name: `personalized` is the one the graph reads.
  },
  { preferring: { personalized: 'is_personalized' } },
);
export type CardDetail = z.output<typeof cardDetailModel>;

const merchant = camelObject({
  category_code: optionalText,
  city: optionalText,
  country: optionalText,
  identifier: optionalText,
  name: optionalText,
  postcode: optionalText,
  state: optionalText,
});

/** Absent risk details read as none: no actions, no factors, no 3-D Secure outcome. */
const riskDetails = orEmptyObject(
  camelObject({ risk_actions_performed: orEmpty(z.string()), risk_factors: orEmpty(z.string()), three_dsecure_outcome: optionalText }),
);

const cardTransactionModel = camelObject({
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
  matched_authorizations: orEmpty(z.string()),
  merchant: orNull(merchant),
  network_transaction_id: optionalText,
  posted_date: orNull(upstreamDateTime),
  retrieval_ref: optionalText,
  risk_details: riskDetails,
  status: z.string(),
  transaction_amount: decimal,
  transaction_currency: currencyCode,
  transaction_date: upstreamDateTime,
  transaction_type: z.string(),
});
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
    data: camelObject({ has_more: orFalse, items: z.array(cardTransactionModel) }),
  }),
};

interface CardLimit {
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

export function cardsApi(call: BoundCall) {
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
        idempotencyKey: idempotencyKey ?? undefined,
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
        idempotencyKey: idempotencyKey ?? undefined,
        body: { activation_code: secrets.activationCode ?? undefined, pin: secrets.pin ?? undefined },
      }),
    pinReset: (id: string, pin: string, idempotencyKey?: string | null) =>
      call(cardEndpoints.pin, { query: { id }, idempotencyKey: idempotencyKey ?? undefined, body: { pin } }),
    update: (id: string, request: CardUpdateRequest, idempotencyKey?: string | null) => {
      const controls = request.authorizationControls;
      return call(cardEndpoints.update, {
        query: { id },
        idempotencyKey: idempotencyKey ?? undefined,
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
      call(cardEndpoints.recharge, { query: { id }, idempotencyKey: idempotencyKey ?? undefined, body: { amount: Number(amount) } }),
    transactions: (id: string, page: { page: number; size: number; fromDate?: string | undefined; toDate?: string | undefined }) =>
      call(cardEndpoints.transactions, {
        query: { id, page_num: page.page, page_size: page.size, from_created_at: page.fromDate, to_created_at: page.toDate },
      }),
  };
}
