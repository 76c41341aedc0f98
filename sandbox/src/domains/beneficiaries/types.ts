/** Document 1, section 2.7. Every member is kept, null when not given. */

export const ENTITY_TYPES = ['COMPANY', 'PERSONAL'] as const;

export interface Address {
  city: string | null;
  country_code: string | null;
  postcode: string | null;
  state: string | null;
  street_address: string | null;
}

export interface BankDetails {
  account_currency: string | null;
  account_name: string | null;
  account_number: string | null;
  bank_country_code: string | null;
  bank_name: string | null;
  swift_code: string | null;
  account_routing_type1: string | null;
  account_routing_value1: string | null;
}

export interface BeneficiaryDetails {
  entity_type: string | null;
  /** For a PERSONAL beneficiary, the person's full name. */
  company_name: string | null;
  address: Address;
  bank_details: BankDetails;
  additional_info: { personal_email: string | null };
}

/** What a client sets; create and update both produce one and check it against the rules. */
export interface BeneficiaryFields {
  nickname: string | null;
  /** LOCAL or SWIFT once validated; kept as text so the rules can name a bad item. */
  transfer_methods: string[];
  beneficiary: BeneficiaryDetails;
}

export interface BeneficiaryRecord extends BeneficiaryFields {
  id: string;
  /** The business paying: the demo user is always a company. */
  payer_entity_type: 'COMPANY';
  createdAt: number;
}

/** The domain's collections in the store, fresh for each store. */
export function beneficiaryCollections() {
  return {
    beneficiaries: new Map<string, BeneficiaryRecord>(),
  };
}

declare module '../../store.ts' {
  interface SandboxCollections extends ReturnType<typeof beneficiaryCollections> {}
}
