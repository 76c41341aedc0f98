import type { SandboxStore } from '../../store.ts';
import { DAY_MS, startOfUtcDay } from '../../time.ts';
import type { BeneficiaryFields, BeneficiaryRecord } from './types.ts';

interface DemoBeneficiary extends BeneficiaryFields {
  id: string;
  addedDaysAgo: number;
}

const NO_ROUTING = { account_routing_type1: null, account_routing_value1: null };

/**
 * One beneficiary per kind of rule set: the documented US/USD/COMPANY/SWIFT one, a UK and a
 * Singapore LOCAL one (sort code, bank code) and a German SWIFT one (IBAN). Each passes the
 * rules of its combination. Names and banks are fictional.
 */
const DEMO_BENEFICIARIES: readonly DemoBeneficiary[] = [
  {
    id: 'ben_demo_us',
    addedDaysAgo: 120,
    nickname: 'Northwind US',
    transfer_methods: ['SWIFT'],
    beneficiary: {
      entity_type: 'COMPANY',
      company_name: 'Northwind Supplies Inc.',
      address: { city: 'Chicago', country_code: 'US', postcode: '60601', state: 'US-IL', street_address: '200 East Randolph Street' },
      bank_details: {
        account_currency: 'USD',
        account_name: 'Northwind Supplies Inc.',
        account_number: '483920175502',
        bank_country_code: 'US',
        bank_name: 'Lakeshore National Bank',
        swift_code: 'LKNBUS44',
        ...NO_ROUTING,
      },
      additional_info: { personal_email: 'payables@northwind.example' },
    },
  },
  {
    id: 'ben_demo_gb',
    addedDaysAgo: 90,
    nickname: 'Contoso UK',
    transfer_methods: ['LOCAL'],
    beneficiary: {
      entity_type: 'COMPANY',
      company_name: 'Contoso Logistics Ltd',
      address: { city: 'London', country_code: 'GB', postcode: 'EC1A 1BB', state: null, street_address: '12 Aldersgate Street' },
      bank_details: {
        account_currency: 'GBP',
        account_name: 'Contoso Logistics Ltd',
        account_number: '31926819',
        bank_country_code: 'GB',
        bank_name: 'Albion Mercantile Bank plc',
        swift_code: null,
        account_routing_type1: 'sort_code',
        account_routing_value1: '401276',
      },
      additional_info: { personal_email: null },
    },
  },
  {
    id: 'ben_demo_de',
    addedDaysAgo: 60,
    nickname: null,
    transfer_methods: ['SWIFT'],
    beneficiary: {
      entity_type: 'COMPANY',
      company_name: 'Fabrikam Components GmbH',
      address: { city: 'Munich', country_code: 'DE', postcode: '80331', state: null, street_address: 'Sendlinger Strasse 7' },
      bank_details: {
        account_currency: 'EUR',
        account_name: 'Fabrikam Components GmbH',
        account_number: 'DE89370400440532013000',
        bank_country_code: 'DE',
        bank_name: 'Isar Handelsbank AG',
        swift_code: 'ISHBDEMM',
        ...NO_ROUTING,
      },
      additional_info: { personal_email: 'finance@fabrikam.example' },
    },
  },
  {
    id: 'ben_demo_sg',
    addedDaysAgo: 30,
    nickname: 'Tailspin SG',
    transfer_methods: ['LOCAL'],
    beneficiary: {
      entity_type: 'COMPANY',
      company_name: 'Tailspin Freight Pte Ltd',
      address: { city: 'Singapore', country_code: 'SG', postcode: '018989', state: null, street_address: '10 Marina Boulevard' },
      bank_details: {
        account_currency: 'SGD',
        account_name: 'Tailspin Freight Pte Ltd',
        account_number: '0123456789',
        bank_country_code: 'SG',
        bank_name: 'Straits Merchant Bank Ltd',
        swift_code: null,
        account_routing_type1: 'bank_code',
        account_routing_value1: '7171',
      },
      additional_info: { personal_email: null },
    },
  },
];

const ADDED_HOUR_MS = 11 * 3_600_000;

export function seedBeneficiaries(store: SandboxStore, now: number): void {
  const today = startOfUtcDay(now);
  for (const { addedDaysAgo, ...demo } of DEMO_BENEFICIARIES) {
    const record: BeneficiaryRecord = {
      ...structuredClone(demo),
      payer_entity_type: 'COMPANY',
      createdAt: today - addedDaysAgo * DAY_MS + ADDED_HOUR_MS,
    };
    store.beneficiaries.set(record.id, record);
  }
}
