import { z } from 'zod';
import type { Caller } from './caller.ts';
import { records } from './cache-policy.ts';
import { endpoint } from './endpoint.ts';
import { countryCode, currencyCode, decimal, moneyOf, optionalText, orEmpty, orNull, single, upstreamDate, upstreamDateTime } from './models.ts';

/** Document 2, sections 2.9, 2.10 and 4.5: the business's own profile and its account RFIs. */

export const RFI_ANSWER_TYPES = ['TEXT', 'ATTACHMENT', 'IDENTITY_DOCUMENT', 'LIVENESS', 'ADDRESS'] as const;
export type RfiAnswerType = (typeof RFI_ANSWER_TYPES)[number];

const businessAddress = z
  .object({ country_code: orNull(countryCode), address_line1: optionalText, postcode: optionalText, suburb: optionalText, state: optionalText })
  .transform((a) => ({ countryCode: a.country_code, addressLine1: a.address_line1, postcode: a.postcode, suburb: a.suburb, state: a.state }));

const registrationAddress = z
  .object({ country: orNull(countryCode), city: optionalText, state: optionalText, postal_code: optionalText, line1: optionalText, line2: optionalText })
  .transform((a) => ({ country: a.country, city: a.city, state: a.state, postalCode: a.postal_code, line1: a.line1, line2: a.line2 }));

const accountDetails = z
  .object({
    industry_category_code: optionalText,
    business_name: optionalText,
    operating_country: orEmpty(countryCode),
    business_address: orNull(businessAddress),
    registration_number: optionalText,
    description_of_goods_or_services: optionalText,
    trade_name: optionalText,
    monthly_estimated_revenue: orNull(z.object({ amount: orNull(decimal), currency: orNull(currencyCode) })),
    account_usage: orNull(z.object({ account_purpose: orEmpty(z.string()), product_reference: orEmpty(z.string()) })),
    business_structure: optionalText,
    website_url: optionalText,
    registration_address: orNull(registrationAddress),
    incorporation_date: orNull(upstreamDate),
  })
  .transform((d) => ({
    industryCategoryCode: d.industry_category_code,
    businessName: d.business_name,
    operatingCountries: d.operating_country,
    businessAddress: d.business_address,
    registrationNumber: d.registration_number,
    descriptionOfGoodsOrServices: d.description_of_goods_or_services,
    tradeName: d.trade_name,
    monthlyEstimatedRevenue: moneyOf(d.monthly_estimated_revenue?.amount ?? null, d.monthly_estimated_revenue?.currency ?? null),
    accountPurposes: d.account_usage?.account_purpose ?? [],
    productReferences: d.account_usage?.product_reference ?? [],
    businessStructure: d.business_structure,
    websiteUrl: d.website_url,
    registrationAddress: d.registration_address,
    incorporationDate: d.incorporation_date,
  }));

/** Section 2.9 says only "array"; the items are read as people objects {id, first_name, last_name, role, email}, as the sandbox sends them. */
const representative = z
  .object({ id: optionalText, first_name: optionalText, last_name: optionalText, role: optionalText, email: optionalText })
  .transform((r) => ({ id: r.id, firstName: r.first_name, lastName: r.last_name, role: r.role, email: r.email }));

export const userProfileModel = z
  .object({
    id: z.string().min(1),
    status: optionalText,
    entity_type: optionalText,
    tos_acceptance: orNull(z.object({ date: orNull(upstreamDateTime), ip: optionalText, user_agent: optionalText })),
    account_details: orNull(accountDetails),
    agreements: orNull(z.object({ agreed_to_terms_and_conditions: orNull(z.boolean()) })),
    contact_details: orNull(z.object({ phone: optionalText, email: optionalText })),
    representatives: orEmpty(representative),
  })
  .transform((p) => ({
    id: p.id,
    status: p.status,
    entityType: p.entity_type,
    termsOfService: p.tos_acceptance && { acceptedAt: p.tos_acceptance.date, ip: p.tos_acceptance.ip, userAgent: p.tos_acceptance.user_agent },
    accountDetails: p.account_details,
    agreedToTermsAndConditions: p.agreements?.agreed_to_terms_and_conditions ?? null,
    contactDetails: p.contact_details,
    representatives: p.representatives,
  }));
export type UserProfile = z.output<typeof userProfileModel>;

/** `{ "en": "...", "zh": "..." }` → one entry per language, in the upstream's order. */
const localisedText = orNull(z.record(z.string(), z.string())).transform((texts) =>
  Object.entries(texts ?? {}).map(([language, text]) => ({ language, text })),
);

const question = z
  .object({
    id: z.string().min(1),
    trigger: optionalText,
    title: localisedText,
    description: localisedText,
    attachments: orEmpty(z.unknown()),
    uploaded_orders: orEmpty(z.unknown()),
    sources: orEmpty(
      z
        .object({ id: optionalText, type: optionalText, person: orNull(z.object({ first_name: optionalText, last_name: optionalText })) })
        .transform((s) => ({ id: s.id, type: s.type, person: s.person && { firstName: s.person.first_name, lastName: s.person.last_name } })),
    ),
    answer: orNull(z.object({ type: z.enum(RFI_ANSWER_TYPES) })),
    key: optionalText,
    liveness: orNull(z.object({ url: optionalText, status: optionalText })),
  })
  .transform((q) => ({
    id: q.id,
    trigger: q.trigger,
    title: q.title,
    description: q.description,
    attachments: q.attachments,
    uploadedOrders: q.uploaded_orders,
    sources: q.sources,
    answerType: q.answer?.type ?? null,
    key: q.key,
    liveness: q.liveness,
  }));

const rfiRequest = z
  .object({ created_at: orNull(upstreamDateTime), updated_at: orNull(upstreamDateTime), questions: orEmpty(question) })
  .transform((r) => ({ createdAt: r.created_at, updatedAt: r.updated_at, questions: r.questions }));
export type RfiRequest = z.output<typeof rfiRequest>;

export const accountRfiModel = z
  .object({
    id: z.string().min(1),
    account_id: optionalText,
    type: z.string(),
    status: z.string(),
    created_at: orNull(upstreamDateTime),
    updated_at: orNull(upstreamDateTime),
    active_request: orNull(rfiRequest),
    answered_requests: orEmpty(rfiRequest),
  })
  .transform((r) => ({
    id: r.id,
    accountId: r.account_id,
    type: r.type,
    status: r.status,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    activeRequest: r.active_request,
    answeredRequests: r.answered_requests,
  }));
export type AccountRfi = z.output<typeof accountRfiModel>;

const userReads = records('user');

export const onboardingEndpoints = {
  profile: endpoint({ method: 'GET', path: '/{svc}/api/v1/user', headers: 'standard', data: single(userProfileModel), cache: userReads }),
  rfis: endpoint({
    method: 'GET',
    path: '/{svc}/api/v1/user/rfi',
    headers: 'standard',
    cache: userReads,
    data: single(z.object({ items: orEmpty(accountRfiModel) })).transform((page) => page.items),
  }),
};

export function onboardingApi(call: Caller) {
  return {
    profile: () => call(onboardingEndpoints.profile),
    rfis: () => call(onboardingEndpoints.rfis),
  };
}
export type OnboardingApi = ReturnType<typeof onboardingApi>;
