import { rulesOf, type Program } from '../../program.ts';
import type { RecordOf, SandboxStore } from '../../store.ts';
import { formatApiTime, formatMillisTime } from '../../time.ts';
import { maskedNumber } from './card-number.ts';
import { cardLimit, limitStates } from './spending.ts';
import type { CardRecord } from './types.ts';

// Another domain's records, named through the core (store.ts).
type CardholderRecord = RecordOf<'cardholders'>;

/** Section 2.1. The list spells a physical card PHY (the value seen). */
export function cardListItem(card: CardRecord) {
  return {
    cardHashId: card.id,
    cardStatus: card.status,
    maskedCardNumber: maskedNumber(card),
    cardholderId: card.cardholderId,
    createdAt: formatMillisTime(card.createdAt),
    updatedAt: formatMillisTime(card.updatedAt),
    nameOnCard: card.nameOnCard,
    cardType: card.type === 'PHYSICAL' ? 'PHY' : 'VIRTUAL',
    currency: card.currency,
  };
}

// A virtual card is never delivered: the object keeps its shape, empty.
const NO_DELIVERY = {
  delivery_mode: null,
  delivery_vendor: null,
  status: null,
  tracked: false,
  tracking_link: null,
  tracking_number: null,
  updated_at: null,
};

/**
 * Section 2.2, every field. Those "null in the shape seen" stay null, except the ones the
 * sandbox can fill: card_limit, spending_controls (remaining amounts as of `now`),
 * available_balance (the cardholder's wallet in the Cards program; null in Banking, where
 * cards spend the business balance), purpose.
 */
export function cardDetail(store: SandboxStore, program: Program, card: CardRecord, now: number) {
  const cardholder = store.cardholders.get(card.cardholderId);
  const { controls } = card;
  return {
    personalized: card.personalized,
    is_personalized: card.personalized,
    card_id: card.id,
    card_bin: null,
    mode_type: null,
    card_product_id: null,
    available_balance:
      rulesOf(program).funds === 'wallet' ? (store.services.walletIn(store, card.cardholderId, card.currency)?.amount ?? null) : null,
    no_pin_payment_amount: null,
    risk_controls: null,
    purpose: 'COMMERCIAL',
    created_at: null,
    card_scheme: card.scheme,
    brand: card.scheme,
    card_currency: card.currency,
    card_number: maskedNumber(card),
    form_factor: card.type,
    card_limit: cardLimit(card),
    // A deleted cardholder's (closed) cards have no cardholder left to describe.
    cardholder: cardholder === undefined ? null : cardholderSummary(store, cardholder),
    spending_controls: limitStates(store, card, now),
    authorization_controls: {
      active_from: controls.activeFrom,
      active_to: controls.activeTo,
      allowed_currencies: [...controls.allowedCurrencies],
      allowed_merchant_categories: [...controls.allowedMerchantCategories],
    },
    metadata: {},
    card_status: card.status,
    cardholder_id: card.cardholderId,
    created_by: card.createdBy,
    name_on_card: card.nameOnCard,
    nick_name: card.nickName,
    program: { purpose: 'COMMERCIAL', type: 'DEBIT' },
    delivery_details: card.delivery ?? NO_DELIVERY,
    postal_address: card.postalAddress,
  };
}

/** The person fields are null for a DELEGATE, which has no person behind it. */
function cardholderSummary(store: SandboxStore, cardholder: CardholderRecord) {
  const individual = cardholder.individual;
  const cards = [...store.cards.values()].filter((card) => card.cardholderId === cardholder.id && card.status !== 'CLOSED');
  return {
    cardholder_id: cardholder.id,
    email: cardholder.email,
    number_of_cards: cards.length,
    first_name: individual?.name.first_name ?? null,
    last_name: individual?.name.last_name ?? null,
    create_time: formatApiTime(cardholder.createdAt),
    cardholder_status: cardholder.status,
    date_of_birth: individual?.date_of_birth ?? null,
    country_code: cardholder.country_code,
    phone_number: cardholder.mobile_number,
  };
}
