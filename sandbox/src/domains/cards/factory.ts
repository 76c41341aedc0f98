import { DEMO_BUSINESS_NAME } from '../../credentials.ts';
import { cardData } from './events.ts';
import { sendEmail } from '../../outbox.ts';
import type { SandboxLogger } from '../../logger.ts';
import type { RecordOf, SandboxStore } from '../../store.ts';
import { formatApiTime } from '../../time.ts';
import type { Address } from '../../address.ts';
import { maskedNumber, type CardNumberParts } from './card-number.ts';
import type { CardRecord, CardType, Delivery, SpendingControls } from './types.ts';

// Another domain's records, named through the core (store.ts).
type CardholderRecord = RecordOf<'cardholders'>;

export interface CardSpec {
  id: string;
  cardholder: CardholderRecord;
  type: CardType;
  currency: string;
  personalized: boolean;
  assigned: boolean;
  createdBy: string;
  number: CardNumberParts;
  controls: SpendingControls;
  postalAddress: Address | null;
  /** A physical card's activation code; drawn at random unless the seed names one. */
  activationCode?: string;
}

/**
 * Stores a new card. Virtual cards are ACTIVE at once; physical ones (created in the Banking
 * program, or assigned in the Cards program) are INACTIVE until activated with the code
 * e-mailed to the cardholder now. Used by Create Card, Assign Card and the demo seed.
 */
export function issueCard(store: SandboxStore, logger: SandboxLogger | null, spec: CardSpec, at: number): CardRecord {
  const physical = spec.type === 'PHYSICAL';
  const card: CardRecord = {
    id: spec.id,
    cardholderId: spec.cardholder.id,
    type: spec.type,
    status: physical ? 'INACTIVE' : 'ACTIVE',
    currency: spec.currency,
    firstSix: spec.number.firstSix,
    lastFour: spec.number.lastFour,
    numberDigest: spec.number.digest,
    scheme: spec.number.scheme,
    nameOnCard: nameOnCard(spec.cardholder, spec.personalized),
    nickName: `${physical ? 'Physical' : 'Virtual'} card ${spec.number.lastFour}`,
    createdBy: spec.createdBy,
    personalized: spec.personalized,
    assigned: spec.assigned,
    activated: !physical,
    activationCode: physical ? (spec.activationCode ?? store.random.digits(6)) : null,
    pinDigest: null,
    postalAddress: spec.postalAddress,
    delivery: physical ? delivery(store, spec.assigned, at) : null,
    controls: spec.controls,
    createdAt: at,
    updatedAt: at,
  };
  store.cards.set(card.id, card);
  if (card.status === 'ACTIVE') store.events.emit('issuing.card.active', cardData(card), card.id, at);
  if (card.activationCode !== null) {
    sendEmail(store, logger, {
      to: spec.cardholder.email,
      subject: `Activate your card ${maskedNumber(card)}`,
      kind: 'card_activation',
      cardId: card.id,
      activationCode: card.activationCode,
      time: new Date(at).toISOString(),
    });
  }
  return card;
}

/** Only a personalized card of an INDIVIDUAL carries a person's name; the rest the business's. */
function nameOnCard(cardholder: CardholderRecord, personalized: boolean): string {
  const name = cardholder.individual?.name;
  return personalized && name !== undefined ? `${name.first_name} ${name.last_name}` : DEMO_BUSINESS_NAME;
}

/** A pre-issued (assigned) card is already in the holder's hands; a created one is printed and shipped. */
function delivery(store: SandboxStore, assigned: boolean, at: number): Delivery {
  const updated_at = formatApiTime(at);
  if (assigned) {
    return {
      delivery_mode: 'PRE_ISSUED',
      delivery_vendor: null,
      status: 'DELIVERED',
      tracked: false,
      tracking_link: null,
      tracking_number: null,
      updated_at,
    };
  }
  const tracking = `SBX${store.random.digits(10)}`;
  return {
    delivery_mode: 'COURIER',
    delivery_vendor: 'Sandbox Express',
    status: 'PRINTED',
    tracked: true,
    tracking_link: `https://track.sandbox.example/${tracking}`,
    tracking_number: tracking,
    updated_at,
  };
}

/** Controls of a new card: its limits, no time window, any currency and merchant. */
export function initialControls(
  count: SpendingControls['allowedTransactionCount'],
  currency: string,
  limits: SpendingControls['limits'],
): SpendingControls {
  return {
    allowedTransactionCount: count,
    limitCurrency: currency,
    limits,
    activeFrom: null,
    activeTo: null,
    allowedCurrencies: [],
    allowedMerchantCategories: [],
  };
}
