import { DEMO_BUSINESS_NAME } from '../../credentials.ts';
import type { SandboxStore } from '../../store.ts';
import { VIRTUAL_ACCOUNT } from '../../codes.ts';
import { withCheckDigits } from '../../institutions.ts';
import { bankFor } from '../../institutions.ts';
import type { GlobalAccount, GlobalAccountInstitution } from './types.ts';

/** The one connected account the sandbox knows; it holds the NL global account. */
export const CONNECTED_ACCOUNT_ID = 'conn_demo_1';
const CONNECTED_BUSINESS_NAME = 'Acme Benelux B.V.';

/**
 * The direct debit scheme of each country with a direct-debit-capable global account; a
 * mandate's payment_scheme is its account's.
 */
export const PAYMENT_SCHEMES: Readonly<Record<string, string>> = { GB: 'BACS', US: 'ACH', AU: 'BECS', CA: 'PAD', NL: 'SEPA' };

/**
 * The documented BSB of section 4.3's Australian row. The document names none: this is the
 * sandbox's choice, and its AU account carries it.
 */
const DOCUMENTED_BSB = '062-000';

type Fixture = Omit<GlobalAccount, 'account_name' | 'account_type' | 'request_id' | 'capability'> & {
  /** The connected account that holds it; default the platform (null), named DEMO_BUSINESS_NAME. */
  owner?: { id: string; name: string };
  clearing_systems: string[];
  payment_methods: string[];
};

const LOCAL_AND_SWIFT = ['LOCAL', 'SWIFT'];

/**
 * In the countries Document 1's accounts already use, the same (fictional) bank holds the
 * global account; section 2.4 adds a branch name.
 */
function branchOf(country: string, branch_name: string): GlobalAccountInstitution {
  const { address, city, name, zip_code } = bankFor(country).institution;
  return { address, branch_name, city, name, zip_code };
}

const FIXTURES: readonly Fixture[] = [
  {
    id: 'ga_demo_gb',
    nick_name: 'GBP Collections',
    account_number: '41234567',
    country_code: 'GB',
    currency: 'GBP',
    iban: withCheckDigits('GB', 'TCBK99001241234567'),
    institution: branchOf('GB', 'City of London'),
    routing_codes: [{ type: 'sort_code', value: '990012' }],
    clearing_systems: ['BACS', 'FASTER_PAYMENTS', 'CHAPS'],
    payment_methods: LOCAL_AND_SWIFT,
  },
  {
    // Section 4.3's first US row: ACH routing code ending 0024.
    id: 'ga_demo_us',
    nick_name: 'USD Collections',
    account_number: '804512339017',
    country_code: 'US',
    currency: 'USD',
    iban: null,
    institution: branchOf('US', 'Park Avenue'),
    routing_codes: [{ type: 'ach', value: '026170024' }],
    clearing_systems: ['ACH', 'FEDWIRE'],
    payment_methods: LOCAL_AND_SWIFT,
  },
  {
    // Section 4.3's fourth US row: ACH routing code ending 3150.
    id: 'ga_demo_us2',
    nick_name: 'USD Payroll Collections',
    account_number: '310077521846',
    country_code: 'US',
    currency: 'USD',
    iban: null,
    institution: {
      address: '33 Liberty Street',
      branch_name: 'Lower Manhattan',
      city: 'New York',
      name: 'Liberty Street Savings Bank',
      zip_code: '10045',
    },
    routing_codes: [{ type: 'ach', value: '026183150' }],
    clearing_systems: ['ACH'],
    payment_methods: ['LOCAL'],
  },
  {
    id: 'ga_demo_au',
    nick_name: 'AUD Collections',
    account_number: '412345678',
    country_code: 'AU',
    currency: 'AUD',
    iban: null,
    institution: branchOf('AU', 'Martin Place'),
    routing_codes: [{ type: 'bsb', value: DOCUMENTED_BSB }],
    clearing_systems: ['BECS', 'NPP'],
    payment_methods: ['LOCAL'],
  },
  {
    id: 'ga_demo_ca',
    nick_name: 'CAD Collections',
    account_number: '5012345',
    country_code: 'CA',
    currency: 'CAD',
    iban: null,
    institution: {
      address: '200 8 Avenue SW',
      branch_name: 'Calgary Main',
      city: 'Calgary',
      name: 'Prairie Commerce Bank',
      zip_code: 'T2P 1B5',
    },
    routing_codes: [{ type: 'institution_number', value: '621' }],
    clearing_systems: ['ACSS', 'LYNX'],
    payment_methods: ['LOCAL'],
  },
  {
    id: 'ga_demo_nl',
    owner: { id: CONNECTED_ACCOUNT_ID, name: CONNECTED_BUSINESS_NAME },
    nick_name: 'EUR Collections NL',
    account_number: '4012345678',
    country_code: 'NL',
    currency: 'EUR',
    iban: withCheckDigits('NL', 'PLDR4012345678'),
    institution: {
      address: 'Gustav Mahlerplein 10',
      branch_name: 'Zuidas',
      city: 'Amsterdam',
      name: 'Polder Handelsbank N.V.',
      zip_code: '1082 MA',
    },
    routing_codes: [{ type: 'swift', value: 'PLDRNL2A' }],
    clearing_systems: ['SEPA', 'SEPA_INSTANT'],
    payment_methods: LOCAL_AND_SWIFT,
  },
  {
    id: 'ga_demo_sg',
    nick_name: 'SGD Receivables',
    account_number: '7012345678',
    country_code: 'SG',
    currency: 'SGD',
    iban: null,
    institution: branchOf('SG', 'Marina View'),
    routing_codes: [
      { type: 'bank_code', value: bankFor('SG').bankCode },
      { type: 'swift', value: bankFor('SG').swift },
    ],
    clearing_systems: ['FAST', 'GIRO'],
    payment_methods: ['LOCAL'],
  },
];

/** The seven global accounts; only SG lacks direct debit (its country has no scheme above). */
export function seedGlobalAccounts(store: SandboxStore): void {
  for (const [index, fixture] of FIXTURES.entries()) {
    // In section 2.4's (alphabetical) order.
    const account: GlobalAccount = {
      account_name: fixture.owner?.name ?? DEMO_BUSINESS_NAME,
      account_number: fixture.account_number,
      // Section 2.4 shows no values: the sandbox's global accounts are Document 1's kind.
      account_type: VIRTUAL_ACCOUNT,
      capability: {
        clearing_systems: fixture.clearing_systems,
        payment_methods: fixture.payment_methods,
        support_direct_debit: PAYMENT_SCHEMES[fixture.country_code] !== undefined,
      },
      country_code: fixture.country_code,
      currency: fixture.currency,
      iban: fixture.iban,
      id: fixture.id,
      institution: fixture.institution,
      nick_name: fixture.nick_name,
      // The id of the request that opened the account (a UUID); fixed, as the demo data is.
      request_id: `5d0c3a9e-7b21-4c6f-9a3e-${String(index + 1).padStart(12, '0')}`,
      routing_codes: fixture.routing_codes,
    };
    store.globalAccounts.set(account.id, structuredClone({ id: account.id, ownerId: fixture.owner?.id ?? null, account }));
  }
}
