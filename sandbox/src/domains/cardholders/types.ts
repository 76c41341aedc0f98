import type { Address } from '../../address.ts';
/** Document 2, section 2.4, and the records that hold it. */

export const CARDHOLDER_TYPES = ['INDIVIDUAL', 'DELEGATE'] as const;
export type CardholderType = (typeof CARDHOLDER_TYPES)[number];

export const CARDHOLDER_STATUSES = ['PENDING', 'READY'] as const;
export type CardholderStatus = (typeof CARDHOLDER_STATUSES)[number];

export interface PersonName {
  title: string | null;
  first_name: string;
  middle_name: string | null;
  last_name: string;
}

export interface Identification {
  country: string;
  expiry_date: string;
  number: string;
  type: string;
}

interface BusinessIdentifier {
  country_code: string | null;
  number: string | null;
  type: string | null;
}

export interface Employer {
  business_identifiers: BusinessIdentifier[];
  business_name: string | null;
}

export interface Individual {
  date_of_birth: string;
  name: PersonName;
  address: Address;
  /** No request sets it: only the seeded cardholders carry one (list responses show it). */
  identification: Identification | null;
  employers: Employer[];
}

export interface CardholderRecord {
  id: string;
  createdAt: number;
  email: string;
  status: CardholderStatus;
  type: CardholderType;
  mobile_number: string;
  country_code: string | null;
  postal_address: Address | null;
  created_by: string;
  /** Null for a DELEGATE. */
  individual: Individual | null;
}

/** The domain's collections in the store, fresh for each store. */
export function cardholderCollections() {
  return {
    cardholders: new Map<string, CardholderRecord>(),
  };
}

declare module '../../store.ts' {
  interface SandboxCollections extends ReturnType<typeof cardholderCollections> {}
}
