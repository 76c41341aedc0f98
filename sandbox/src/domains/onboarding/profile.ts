import { DEMO_BUSINESS_NAME, DEMO_CREDENTIALS } from '../../credentials.ts';
import type { SandboxStore } from '../../store.ts';
import type { UserProfile } from './types.ts';

/**
 * The demo business as onboarding recorded it (section 2.9). Ava Chen, its owner, is also
 * the demo INDIVIDUAL cardholder.
 */
export const DEMO_PROFILE: UserProfile = {
  status: 'ACTIVE',
  entity_type: 'BUSINESS',
  tos_acceptance: {
    date: '2025-06-02T09:15:00+0000',
    ip: '203.0.113.24',
    user_agent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  },
  account_details: {
    industry_category_code: 'WHOLESALE_TRADE',
    business_name: DEMO_BUSINESS_NAME,
    operating_country: ['US', 'GB', 'SG'],
    business_address: { country_code: 'US', address_line1: '100 Market Street', postcode: '94105', suburb: 'San Francisco', state: 'CA' },
    registration_number: 'C4839201',
    description_of_goods_or_services: 'Wholesale of electronic components to retailers',
    trade_name: 'Acme Trading',
    monthly_estimated_revenue: { amount: '250000', currency: 'USD' },
    account_usage: {
      account_purpose: ['PAYING_SUPPLIERS', 'RECEIVING_PAYMENTS', 'CARD_SPENDING'],
      product_reference: ['ACCOUNTS', 'PAYOUTS', 'CARDS'],
    },
    business_structure: 'SOLE_PROPRIETOR',
    website_url: 'https://acme-trading.example',
    registration_address: {
      country: 'US',
      city: 'San Francisco',
      state: 'CA',
      postal_code: '94105',
      line1: '100 Market Street',
      line2: 'Suite 400',
    },
    incorporation_date: '2019-04-15',
  },
  agreements: { agreed_to_terms_and_conditions: true },
  contact_details: { phone: '+14155550100', email: DEMO_CREDENTIALS.email },
  representatives: [
    { id: 'rep_demo_ava', first_name: 'Ava', last_name: 'Chen', role: 'OWNER', email: 'ava.chen@acme.example' },
    {
      id: 'rep_demo_jordan',
      first_name: 'Jordan',
      last_name: 'Miles',
      role: 'AUTHORIZED_REPRESENTATIVE',
      email: 'jordan.miles@acme.example',
    },
  ],
};

/** The business as onboarding recorded it; the demo profile when the sandbox runs unseeded. */
export function businessProfile(store: SandboxStore): UserProfile {
  return store.userProfile.get('profile') ?? DEMO_PROFILE;
}
