import type { Address } from '../../address.ts';
import type { CardholderRecord, CardholderStatus, CardholderType, Employer, Identification } from './types.ts';
import { recordDefault, type EventDefault } from '../../events/defaults.ts';
import type { SandboxStore } from '../../store.ts';

/** The cardholder events of Document 3, section 6, and their data. */
declare module '../../events/bus.ts' {
  interface EventPayloads {
    'issuing.cardholder.deleted': CardholderDeletedData;
    'issuing.cardholder.pending': CardholderData;
    'issuing.cardholder.ready': CardholderData;
  }
}

export interface CardholderData {
  cardholder_id: string;
  email: string;
  individual: {
    address: Address;
    date_of_birth: string;
    employers: Employer[];
    identification: Identification | null;
    name: { title: string | null; first_name: string; middle_name: string | null; last_name: string; name_on_card: string };
    nationality: string | null;
  } | null;
  mobile_number: string;
  postal_address: Address | null;
  status: CardholderStatus;
  type: CardholderType;
}

interface CardholderDeletedData {
  cardholder_id: string;
  deleted: true;
}

/**
 * issuing.card.active and .blocked: the documented fields of active, plus what links the event
 * to its card (card_id, cardholder_id, card_status). No cash withdrawal limits are kept.
 */
export function cardholderData(record: CardholderRecord): CardholderData {
  const individual = record.individual;
  return {
    cardholder_id: record.id,
    email: record.email,
    individual:
      individual === null
        ? null
        : {
            address: individual.address,
            date_of_birth: individual.date_of_birth,
            employers: individual.employers,
            identification: individual.identification,
            name: { ...individual.name, name_on_card: `${individual.name.first_name} ${individual.name.last_name}` },
            nationality: individual.identification?.country ?? record.country_code,
          },
    mobile_number: record.mobile_number,
    postal_address: record.postal_address,
    status: record.status,
    type: record.type,
  };
}

const cardholders = (store: SandboxStore) => store.cardholders;
const cardholderDefault = recordDefault('cardholder', cardholders, cardholderData);

export const cardholderEventDefaults = {
  // Only DELETE /card/cardholder removes a cardholder: sent for one still held, the event would
  // announce a deletion that did not happen (and the cards domain would close its cards).
  'issuing.cardholder.deleted': {
    record: { noun: 'cardholder', has: (store, id) => cardholders(store).has(id), removed: true },
    data: ({ id }) => ({ cardholder_id: id, deleted: true }),
  },
  'issuing.cardholder.pending': cardholderDefault,
  'issuing.cardholder.ready': cardholderDefault,
} satisfies Record<string, EventDefault>;
