import { z } from 'zod';
import type { BoundCall } from './bound-call.ts';
import { records } from './cache-policy.ts';
import { camelObject } from './camel-case.ts';
import { endpoint } from './endpoint.ts';
import {
  countryCode,
  currencyCode,
  decimal,
  fieldOf,
  moneyOf,
  optionalText,
  orEmpty,
  orEmptyObject,
  orNull,
  single,
  upstreamDate,
  upstreamDateTime,
} from './models.ts';

/** Document 2, sections 2.9, 2.10 and 4.5: the business's own profile and its account RFIs. */

export const RFI_ANSWER_TYPES = ['TEXT', 'ATTACHMENT', 'IDENTITY_DOCUMENT', 'LIVENESS', 'ADDRESS'] as const;

const businessAddress = camelObject({
  country_code: orNull(countryCode),
  address_line1: optionalText,
  postcode: optionalText,
  suburb: optionalText,
  state: optionalText,
});

const registrationAddress = camelObject({
  country: orNull(countryCode),
  city: optionalText,
  state: optionalText,
  postal_code: optionalText,
  line1: optionalText,
  line2: optionalText,
});

const accountDetails = camelObject({
  industry_category_code: optionalText,
  business_name: optionalText,
  operating_country: orEmpty(countryCode),
  business_address: orNull(businessAddress),
  registration_number: optionalText,
  description_of_goods_or_services: optionalText,
  trade_name: optionalText,
  /** One Money, or null when either half is missing. */
  monthly_estimated_revenue: orNull(z.object({ amount: orNull(decimal), currency: orNull(currencyCode) })).transform((revenue) =>
    moneyOf(revenue?.amount ?? null, revenue?.currency ?? null),
  ),
  account_usage: orEmptyObject(camelObject({ account_purpose: orEmpty(z.string()), product_reference: orEmpty(z.string()) })),
  business_structure: optionalText,
  website_url: optionalText,
  registration_address: orNull(registrationAddress),
  incorporation_date: orNull(upstreamDate),
});

/** Section 2.9 says only "array"; the items are read as people objects {id, first_name, last_name, role, email}, as the sandbox sends them. */
const representative = camelObject({
  id: optionalText,
  first_name: optionalText,
  last_name: optionalText,
  role: optionalText,
  email: optionalText,
});

const userProfileModel = camelObject({
  id: z.string().min(1),
  status: optionalText,
  entity_type: optionalText,
  tos_acceptance: orNull(camelObject({ date: orNull(upstreamDateTime), ip: optionalText, user_agent: optionalText })),
  account_details: orNull(accountDetails),
  agreements: orEmptyObject(camelObject({ agreed_to_terms_and_conditions: orNull(z.boolean()) })),
  contact_details: orNull(z.object({ phone: optionalText, email: optionalText })),
  representatives: orEmpty(representative),
});
export type UserProfile = z.output<typeof userProfileModel>;

/** `{ "en": "...", "zh": "..." }` → one entry per language, in the upstream's order. */
const localisedText = orNull(z.record(z.string(), z.string())).transform((texts) =>
  Object.entries(texts ?? {}).map(([language, text]) => ({ language, text })),
);

const question = camelObject({
  id: z.string().min(1),
  trigger: optionalText,
  title: localisedText,
  description: localisedText,
  attachments: orEmpty(z.unknown()),
  uploaded_orders: orEmpty(z.unknown()),
  sources: orEmpty(
    camelObject({
      id: optionalText,
      type: optionalText,
      person: orNull(camelObject({ first_name: optionalText, last_name: optionalText })),
    }),
  ),
  answer: orNull(z.object({ type: z.enum(RFI_ANSWER_TYPES) })),
  key: optionalText,
  liveness: orNull(z.object({ url: optionalText, status: optionalText })),
});

const rfiRequest = camelObject({
  created_at: orNull(upstreamDateTime),
  updated_at: orNull(upstreamDateTime),
  questions: orEmpty(question),
});
export type RfiRequest = z.output<typeof rfiRequest>;

const accountRfiModel = camelObject({
  id: z.string().min(1),
  account_id: optionalText,
  type: z.string(),
  status: z.string(),
  created_at: orNull(upstreamDateTime),
  updated_at: orNull(upstreamDateTime),
  active_request: orNull(rfiRequest),
  answered_requests: orEmpty(rfiRequest),
});
export type AccountRfi = z.output<typeof accountRfiModel>;

const userReads = records('user');

export const onboardingEndpoints = {
  profile: endpoint({ method: 'GET', path: '/{svc}/api/v1/user', headers: 'standard', data: single(userProfileModel), cache: userReads }),
  rfis: endpoint({
    method: 'GET',
    path: '/{svc}/api/v1/user/rfi',
    headers: 'standard',
    cache: userReads,
    data: fieldOf(single(z.object({ items: orEmpty(accountRfiModel) })), 'items'),
  }),
};

export function onboardingApi(call: BoundCall) {
  return {
    profile: () => call(onboardingEndpoints.profile),
    rfis: () => call(onboardingEndpoints.rfis),
  };
}
