import { TRANSFER_METHODS } from '../../codes.ts';
import { countryProfile, type CountryProfile } from './countries.ts';
import { ACCOUNT_CURRENCIES, ADDRESS_COUNTRIES, BANK_COUNTRIES } from './lists.ts';
import { ENTITY_TYPES } from './types.ts';

/**
 * The beneficiary rule sets (Document 1, section 2.8): one module serves both the schema
 * endpoint and create/update validation, so what the schema promises is what is enforced.
 */
export interface SchemaRule {
  key: string;
  /** Dotted path into the create body; `transfer_method` applies to each of transfer_methods. */
  path: string;
  required: boolean;
  rule?: { type: 'string'; pattern: string };
}

export interface Combination {
  bankCountry: string;
  currency: string;
  entityType: string;
  transferMethod: string;
}

const BANK = 'beneficiary.bank_details';
const ADDRESS = 'beneficiary.address';

const oneOf = (values: readonly string[]): string => `^(${values.join('|')})$`;

const row = (key: string, path: string, required: boolean, pattern: string): SchemaRule => ({
  key,
  path,
  required,
  rule: { type: 'string', pattern },
});

/**
 * For US/USD/COMPANY/SWIFT exactly the 15 documented rows, in the documented order. Other
 * combinations keep those keys with the bank country's formats (countries.ts); LOCAL adds
 * the routing pair after the account fields and makes swift_code optional. The entity type
 * changes no rule: for PERSONAL, company_name holds the person's full name.
 */
export function rulesFor(combination: Combination): SchemaRule[] {
  // Only a well-formed code goes into a pattern; a bad one fails its own row anyway.
  const country = /^[A-Z]{2}$/.test(combination.bankCountry) ? combination.bankCountry : '';
  const profile = countryProfile(country);
  const local = combination.transferMethod === 'LOCAL';
  return [
    row('entity_type', 'beneficiary.entity_type', true, oneOf(ENTITY_TYPES)),
    row('bank_country_code', `${BANK}.bank_country_code`, true, oneOf(BANK_COUNTRIES)),
    row('account_currency', `${BANK}.account_currency`, true, oneOf(ACCOUNT_CURRENCIES)),
    row('transfer_method', 'transfer_method', true, oneOf(TRANSFER_METHODS)),
    row('company_name', 'beneficiary.company_name', true, '^.{1,100}$'),
    row('swift_code', `${BANK}.swift_code`, !local, `^[A-Z]{4}${country || '[A-Z]{2}'}[A-Z0-9]{2}([A-Z0-9]{3})?$`),
    row('account_number', `${BANK}.account_number`, true, local ? profile.accountNumber.local : profile.accountNumber.swift),
    row('account_name', `${BANK}.account_name`, true, '^.{2,200}$'),
    ...(local ? routingRows(profile) : []),
    row('country_code', `${ADDRESS}.country_code`, true, oneOf(ADDRESS_COUNTRIES)),
    row('postcode', `${ADDRESS}.postcode`, profile.postcode.required, profile.postcode.pattern),
    row('street_address', `${ADDRESS}.street_address`, true, '^(?!\\d+$).{5,200}$'),
    row('city', `${ADDRESS}.city`, true, '^.{1,50}$'),
    profile.states ? row('state', `${ADDRESS}.state`, true, oneOf(profile.states)) : row('state', `${ADDRESS}.state`, false, '^.{1,50}$'),
    { key: 'nickname', path: 'nickname', required: false },
    row('personal_email', 'beneficiary.additional_info.personal_email', false, '^\\S*@\\S*$'),
  ];
}

function routingRows(profile: CountryProfile): SchemaRule[] {
  return [
    row('account_routing_type1', `${BANK}.account_routing_type1`, true, `^${profile.routing.type}$`),
    row('account_routing_value1', `${BANK}.account_routing_value1`, true, profile.routing.value),
  ];
}
