import { US_STATES } from './lists.ts';

/**
 * What the rule sets of other combinations vary by bank country. The document shows the
 * rules of one combination only; these are the sandbox's choices, modelled on each
 * country's real formats.
 */
export interface CountryProfile {
  postcode: { pattern: string; required: boolean };
  /** Subdivision codes the state must be one of; null: free text and optional. */
  states: readonly string[] | null;
  accountNumber: { local: string; swift: string };
  /** LOCAL transfers route on account_routing_type1 / value1. */
  routing: { type: string; value: string };
}

// US accounts are not IBANs; the document gives their pattern for SWIFT, LOCAL reuses it.
const US_ACCOUNT = '^[A-Za-z0-9]{1,26}$';
const ANY_ACCOUNT = '^[A-Za-z0-9]{1,34}$';
const DEFAULT_POSTCODE = '^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$';

const POSTCODES: Readonly<Record<string, string>> = {
  US: '^\\d{5}(-\\d{4})?$',
  GB: '^[A-Z]{1,2}\\d[A-Z\\d]? ?\\d[A-Z]{2}$',
  CA: '^[A-Z]\\d[A-Z] ?\\d[A-Z]\\d$',
  JP: '^\\d{3}-\\d{4}$',
  NL: '^\\d{4} ?[A-Z]{2}$',
  DE: '^\\d{5}$',
  FR: '^\\d{5}$',
  ES: '^\\d{5}$',
  IT: '^\\d{5}$',
  SG: '^\\d{6}$',
  IN: '^\\d{6}$',
  CN: '^\\d{6}$',
  AU: '^\\d{4}$',
  CH: '^\\d{4}$',
};

// Countries without a postal code system: the field is optional there.
const NO_POSTCODE = new Set([
  'AE',
  'AG',
  'AO',
  'BS',
  'BZ',
  'DJ',
  'DM',
  'FJ',
  'GD',
  'HK',
  'KI',
  'KN',
  'LC',
  'MO',
  'QA',
  'SB',
  'SC',
  'SR',
  'TV',
  'UG',
  'VU',
  'ZW',
]);

// Where accounts are IBANs, bank-country prefixed.
const IBAN_COUNTRIES = new Set([
  'AD',
  'AE',
  'AL',
  'AT',
  'AZ',
  'BA',
  'BE',
  'BG',
  'BH',
  'BR',
  'CH',
  'CR',
  'CY',
  'CZ',
  'DE',
  'DK',
  'DO',
  'EE',
  'EG',
  'ES',
  'FI',
  'FO',
  'FR',
  'GB',
  'GE',
  'GI',
  'GL',
  'GR',
  'GT',
  'HR',
  'HU',
  'IE',
  'IL',
  'IS',
  'IT',
  'JO',
  'KW',
  'KZ',
  'LB',
  'LI',
  'LT',
  'LU',
  'LV',
  'MC',
  'MD',
  'ME',
  'MK',
  'MR',
  'MT',
  'MU',
  'NL',
  'NO',
  'PK',
  'PL',
  'PS',
  'PT',
  'QA',
  'RO',
  'RS',
  'SA',
  'SE',
  'SI',
  'SK',
  'SM',
  'TN',
  'TR',
  'UA',
  'VA',
  'VG',
  'XK',
]);

const ROUTING: Readonly<Record<string, { type: string; value: string }>> = {
  US: { type: 'aba', value: '^\\d{9}$' },
  GB: { type: 'sort_code', value: '^\\d{6}$' },
};
const DEFAULT_ROUTING = { type: 'bank_code', value: '^[A-Za-z0-9]{3,12}$' };

/** `country` is a 2-letter code here; anything else gets the defaults (its own rule fails). */
export function countryProfile(country: string): CountryProfile {
  return {
    postcode: { pattern: POSTCODES[country] ?? DEFAULT_POSTCODE, required: !NO_POSTCODE.has(country) },
    states: country === 'US' ? US_STATES : null,
    accountNumber: accountNumbers(country),
    routing: ROUTING[country] ?? DEFAULT_ROUTING,
  };
}

function accountNumbers(country: string): { local: string; swift: string } {
  if (country === 'US') return { local: US_ACCOUNT, swift: US_ACCOUNT };
  if (!IBAN_COUNTRIES.has(country)) return { local: ANY_ACCOUNT, swift: ANY_ACCOUNT };
  const iban = `^${country}\\d{2}[A-Z0-9]{11,30}$`;
  // UK domestic payments use the 8-digit account number with the sort code, not the IBAN.
  return { local: country === 'GB' ? '^\\d{8}$' : iban, swift: iban };
}
