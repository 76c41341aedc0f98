/** Document 2, sections 2.9 and 2.10: the business's profile and its account RFIs. */

interface Representative {
  id: string;
  first_name: string;
  last_name: string;
  role: string;
  email: string;
}

/** The profile as stored; the wire adds `id`, the configured user's (x-user-id). */
export interface UserProfile {
  status: string;
  entity_type: string;
  tos_acceptance: { date: string; ip: string; user_agent: string };
  account_details: {
    industry_category_code: string;
    business_name: string;
    operating_country: string[];
    business_address: { country_code: string; address_line1: string; postcode: string; suburb: string; state: string };
    registration_number: string;
    description_of_goods_or_services: string;
    trade_name: string;
    monthly_estimated_revenue: { amount: string; currency: string };
    account_usage: { account_purpose: string[]; product_reference: string[] };
    business_structure: string;
    website_url: string;
    registration_address: { country: string; city: string; state: string; postal_code: string; line1: string; line2: string };
    incorporation_date: string;
  };
  agreements: { agreed_to_terms_and_conditions: boolean };
  contact_details: { phone: string; email: string };
  representatives: Representative[];
}

type Translated = Record<'en' | 'zh', string>;
type AnswerType = 'TEXT' | 'ATTACHMENT' | 'IDENTITY_DOCUMENT' | 'LIVENESS' | 'ADDRESS';

export interface RfiQuestion {
  id: string;
  trigger: string;
  title: Translated;
  description: Translated;
  attachments: unknown[];
  uploaded_orders: unknown[];
  sources: { id: string; type: 'PERSON'; person: { first_name: string; last_name: string } }[];
  answer: { type: AnswerType; [detail: string]: unknown };
  key?: string;
  liveness?: { url: string; status: string };
}

interface RfiRequest {
  created_at: string;
  updated_at: string;
  questions: RfiQuestion[];
}

export interface AccountRfi {
  account_id: string;
  id: string;
  type: string;
  status: string;
  created_at: string;
  updated_at: string;
  answered_requests: RfiRequest[];
  active_request: RfiRequest | null;
}

/** As stored: the wire adds account_id, the configured user's (the sandbox's one account). */
export interface AccountRfiRecord {
  id: string;
  createdAt: number;
  rfi: Omit<AccountRfi, 'account_id'>;
}

/** The domain's collections in the store, fresh for each store. */
export function onboardingCollections() {
  return {
    /** The business's profile (one entry, keyed `profile`). */
    userProfile: new Map<'profile', UserProfile>(),
    accountRfis: new Map<string, AccountRfiRecord>(),
  };
}

declare module '../../store.ts' {
  interface SandboxCollections extends ReturnType<typeof onboardingCollections> {}
}
