/**
 * The lists of Document 1, section 2.8, copied in the document's order. They make the
 * patterns of the documented US/USD/COMPANY/SWIFT rule set and bound every other combination.
 */

/** Bank country list. */
export const BANK_COUNTRIES: readonly string[] = [
  'AD', 'AE', 'AG', 'AI', 'AL', 'AM', 'AO', 'AR', 'AS', 'AT', 'AU', 'AW', 'AZ', 'BA', 'BB', 'BD', 'BE', 'BF',
  'BG', 'BH', 'BJ', 'BL', 'BM', 'BN', 'BO', 'BR', 'BS', 'BT', 'BW', 'BZ', 'CA', 'CF', 'CG', 'CH', 'CI', 'CK',
  'CL', 'CM', 'CN', 'CO', 'CR', 'CV', 'CW', 'CY', 'CZ', 'DE', 'DJ', 'DK', 'DM', 'DO', 'DZ', 'EC', 'EE', 'EG',
  'ES', 'ET', 'FI', 'FJ', 'FK', 'FM', 'FO', 'FR', 'GA', 'GB', 'GD', 'GE', 'GF', 'GG', 'GH', 'GI', 'GL', 'GM',
  'GN', 'GQ', 'GR', 'GT', 'GW', 'GY', 'HK', 'HN', 'HR', 'HU', 'IC', 'ID', 'IE', 'IL', 'IM', 'IN', 'IS', 'IT',
  'JE', 'JM', 'JO', 'JP', 'KE', 'KG', 'KH', 'KI', 'KN', 'KR', 'KW', 'KY', 'KZ', 'LA', 'LB', 'LC', 'LI', 'LK',
  'LR', 'LS', 'LT', 'LU', 'LV', 'MA', 'MC', 'MD', 'ME', 'MF', 'MG', 'MH', 'MK', 'MN', 'MO', 'MP', 'MQ', 'MR',
  'MS', 'MT', 'MU', 'MV', 'MW', 'MX', 'MY', 'NA', 'NC', 'NE', 'NG', 'NI', 'NL', 'NO', 'NP', 'NZ', 'OM', 'PA',
  'PE', 'PF', 'PG', 'PH', 'PK', 'PL', 'PM', 'PR', 'PS', 'PT', 'PW', 'PY', 'QA', 'RE', 'RO', 'RS', 'RW', 'SA',
  'SB', 'SC', 'SE', 'SG', 'SH', 'SI', 'SK', 'SL', 'SM', 'SN', 'SR', 'ST', 'SV', 'SZ', 'TC', 'TD', 'TF', 'TG',
  'TH', 'TJ', 'TL', 'TN', 'TO', 'TR', 'TT', 'TV', 'TW', 'TZ', 'UA', 'UG', 'US', 'UY', 'UZ', 'VA', 'VC', 'VG',
  'VN', 'VU', 'WF', 'WS', 'XK', 'YT', 'ZA', 'ZM', 'ZW',
];

/** Address countries beyond the bank country list. */
const ADDRESS_ONLY_COUNTRIES: readonly string[] = [
  'AF', 'AN', 'AQ', 'AX', 'BI', 'BQ', 'BV', 'CC', 'CD', 'CX', 'EH', 'ER', 'GP', 'GS', 'GU', 'HM', 'HT', 'IO',
  'IQ', 'KM', 'ML', 'MZ', 'NF', 'NR', 'NU', 'PN', 'SD', 'SJ', 'SO', 'SS', 'SX', 'TK', 'TM', 'UM', 'VE', 'VI',
  'YE',
];

/** Address country list: every bank country, then the extras, as the document lists them. */
export const ADDRESS_COUNTRIES: readonly string[] = [...BANK_COUNTRIES, ...ADDRESS_ONLY_COUNTRIES];

/** Currency list. */
export const ACCOUNT_CURRENCIES: readonly string[] = [
  'AED', 'AOA', 'ARS', 'AUD', 'BDT', 'BGN', 'BHD', 'BOB', 'BRL', 'BWP', 'CAD', 'CHF', 'CLP', 'CNY', 'COP',
  'CZK', 'DKK', 'EGP', 'EUR', 'GBP', 'GMD', 'HKD', 'HUF', 'IDR', 'ILS', 'INR', 'JPY', 'KES', 'KRW', 'LKR',
  'LSL', 'MAD', 'MGA', 'MWK', 'MXN', 'MYR', 'NAD', 'NGN', 'NOK', 'NPR', 'NZD', 'PEN', 'PHP', 'PKR', 'PLN',
  'PYG', 'RON', 'RWF', 'SAR', 'SEK', 'SGD', 'THB', 'TRY', 'USD', 'UYU', 'VND', 'XAF', 'XOF', 'ZAR', 'ZMW',
];

/** State list (US bank accounts). */
export const US_STATES: readonly string[] = [
  'US-AK', 'US-AL', 'US-AR', 'US-AS', 'US-AZ', 'US-CA', 'US-CO', 'US-CT', 'US-DC', 'US-DE', 'US-FL', 'US-GA',
  'US-GU', 'US-HI', 'US-IA', 'US-ID', 'US-IL', 'US-IN', 'US-KS', 'US-KY', 'US-LA', 'US-MA', 'US-MD', 'US-ME',
  'US-MI', 'US-MN', 'US-MO', 'US-MP', 'US-MS', 'US-MT', 'US-NC', 'US-ND', 'US-NE', 'US-NH', 'US-NJ', 'US-NM',
  'US-NV', 'US-NY', 'US-OH', 'US-OK', 'US-OR', 'US-PA', 'US-PR', 'US-RI', 'US-SC', 'US-SD', 'US-TN', 'US-TX',
  'US-UM', 'US-UT', 'US-VA', 'US-VI', 'US-VT', 'US-WA', 'US-WI', 'US-WV', 'US-WY',
];
