export interface Institution {
  address: string;
  city: string;
  name: string;
  zip_code: string;
}

/**
 * The bank that holds virtual accounts opened in a country. Names, codes and BICs are
 * fictional on purpose: sandbox data must never be mistaken for a real bank's details.
 */
export interface Bank {
  institution: Institution;
  bankCode: string;
  branchCode: string | null;
  swift: string;
  accountNumberLength: number;
  /** Bank part of the BBAN for IBAN countries; null where IBANs are not used. */
  ibanBankCode: string | null;
}

const BANKS: Record<string, Bank> = {
  US: {
    institution: { name: 'Hudson Commerce Bank, N.A.', address: '245 Park Avenue', city: 'New York', zip_code: '10167' },
    bankCode: '026019994',
    branchCode: null,
    swift: 'HUCBUS33',
    accountNumberLength: 12,
    ibanBankCode: null,
  },
  GB: {
    institution: { name: 'Thames Clearing Bank plc', address: '1 Poultry', city: 'London', zip_code: 'EC2R 8EJ' },
    bankCode: '990012',
    branchCode: null,
    swift: 'TCBKGB2L',
    accountNumberLength: 8,
    ibanBankCode: 'TCBK990012',
  },
  DE: {
    institution: { name: 'Rhein Handelsbank AG', address: 'Friedrichstrasse 68', city: 'Berlin', zip_code: '10117' },
    bankCode: '10099999',
    branchCode: null,
    swift: 'RHHBDEBB',
    accountNumberLength: 10,
    ibanBankCode: '10099999',
  },
  SG: {
    institution: { name: 'Marina Commerce Bank Ltd', address: '8 Marina View', city: 'Singapore', zip_code: '018960' },
    bankCode: '7999',
    branchCode: '001',
    swift: 'MCBLSGSG',
    accountNumberLength: 10,
    ibanBankCode: null,
  },
  HK: {
    institution: { name: 'Victoria Harbour Bank Ltd', address: "1 Queen's Road Central", city: 'Hong Kong', zip_code: '999077' },
    bankCode: '399',
    branchCode: '001',
    swift: 'VHBLHKHH',
    accountNumberLength: 12,
    ibanBankCode: null,
  },
  AU: {
    institution: { name: 'Southern Cross Bank Ltd', address: '1 Martin Place', city: 'Sydney', zip_code: '2000' },
    bankCode: '802999',
    branchCode: null,
    swift: 'SCBLAU2S',
    accountNumberLength: 9,
    ibanBankCode: null,
  },
};

const FALLBACK_BANK: Bank = {
  institution: { name: 'Sandbox International Bank S.A.', address: '1 Rue du Marche', city: 'Luxembourg', zip_code: 'L-1110' },
  bankCode: '999',
  branchCode: null,
  swift: 'SIBKLULL',
  accountNumberLength: 10,
  ibanBankCode: null,
};

export function bankFor(country: string): Bank {
  return BANKS[country] ?? FALLBACK_BANK;
}

/** Country whose IBAN a EUR or GBP account gets when its own country does not use IBANs. */
const IBAN_HOME: Record<string, string> = { EUR: 'DE', GBP: 'GB' };

/** Only EUR and GBP accounts carry an IBAN; returns the IBAN country, or null for none. */
export function ibanCountry(accountCountry: string, currency: string): string | null {
  const home = IBAN_HOME[currency];
  if (home === undefined) return null;
  return bankFor(accountCountry).ibanBankCode === null ? home : accountCountry;
}

// The contract lists FAST, RTGS, GIRO and BANK_TRANSFER as clearing systems seen; each
// currency gets the one its local instant or bulk scheme would use.
const LOCAL_CLEARING: Record<string, string> = {
  SGD: 'FAST',
  HKD: 'RTGS',
  MYR: 'GIRO',
  USD: 'BANK_TRANSFER',
  EUR: 'BANK_TRANSFER',
  GBP: 'BANK_TRANSFER',
  AUD: 'BANK_TRANSFER',
};

export function localClearingSystem(currency: string): string {
  return LOCAL_CLEARING[currency] ?? 'BANK_TRANSFER';
}

/** ISO 13616 check digits (mod 97), so generated IBANs pass validators. */
export function withCheckDigits(country: string, bban: string): string {
  const numeric = `${bban}${country}00`.toUpperCase().replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  let remainder = 0;
  for (const digit of numeric) remainder = (remainder * 10 + Number(digit)) % 97;
  return `${country}${String(98 - remainder).padStart(2, '0')}${bban}`;
}
