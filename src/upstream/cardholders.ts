import { z } from 'zod';
import { orNullIfNotFound, type BoundCall } from './bound-call.ts';
import { records } from './cache-policy.ts';
import { camelObject } from './camel-case.ts';
import { endpoint } from './endpoint.ts';
import { addressModel, countryCode, noData, optionalText, orEmpty, orNull, single, upstreamDate, upstreamDateTime } from './models.ts';

/**
 * Document 2, sections 2.4 and 4.2: cardholders, the people (INDIVIDUAL) or delegates (DELEGATE)
 * cards are issued to. New ones are PENDING until name screening passes, then READY.
 */

export const CARDHOLDER_STATUSES = ['PENDING', 'READY'] as const;
export type CardholderStatus = (typeof CARDHOLDER_STATUSES)[number];
export const CARDHOLDER_TYPES = ['INDIVIDUAL', 'DELEGATE'] as const;
type CardholderType = (typeof CARDHOLDER_TYPES)[number];

const nameModel = camelObject({ title: optionalText, first_name: optionalText, middle_name: optionalText, last_name: optionalText });

const identificationModel = camelObject({
  country: orNull(countryCode),
  expiry_date: orNull(upstreamDate),
  number: optionalText,
  type: optionalText,
});

const businessIdentifierModel = camelObject({ country_code: orNull(countryCode), number: optionalText, type: optionalText });

const employerModel = camelObject({ business_identifiers: orEmpty(businessIdentifierModel), business_name: optionalText });

const individualModel = camelObject({
  date_of_birth: orNull(upstreamDate),
  name: orNull(nameModel),
  address: orNull(addressModel),
  identification: orNull(identificationModel),
  employers: orEmpty(employerModel),
});

/** Section 2.4; `country_code` (nationality) is read when a bank adds it, which the document does not show. `identification` comes on list responses only. */
const cardholderModel = camelObject({
  id: z.string().min(1),
  email: z.string(),
  status: z.enum(CARDHOLDER_STATUSES),
  type: z.enum(CARDHOLDER_TYPES),
  mobile_number: z.string(),
  country_code: orNull(countryCode),
  postal_address: orNull(addressModel),
  created_by: optionalText,
  created_at: orNull(upstreamDateTime),
  individual: orNull(individualModel),
});
export type Cardholder = z.output<typeof cardholderModel>;
export type CardholderIndividual = z.output<typeof individualModel>;

const CARDHOLDER = '/{svc}/api/v1/card/cardholder';
const cardholderReads = records('cardholders');
/** A cardholder's cards, wallets and KYC go with it. */
const CARDHOLDER_WRITE = ['cardholders', 'cards', 'wallets', 'kyc'] as const;

export const cardholderEndpoints = {
  list: endpoint({ method: 'GET', path: CARDHOLDER, headers: 'standard', data: z.array(cardholderModel), cache: cardholderReads }),
  get: endpoint({ method: 'GET', path: CARDHOLDER, headers: 'standard', data: single(cardholderModel), cache: cardholderReads }),
  create: endpoint({
    method: 'POST',
    path: CARDHOLDER,
    headers: 'standard',
    data: single(z.object({ id: z.string().min(1) })),
    changes: CARDHOLDER_WRITE,
  }),
  update: endpoint({ method: 'PATCH', path: CARDHOLDER, headers: 'standard', data: noData, changes: CARDHOLDER_WRITE }),
  delete: endpoint({ method: 'DELETE', path: CARDHOLDER, headers: 'standard', data: noData, changes: CARDHOLDER_WRITE }),
};

// --- Writes ------------------------------------------------------------------------------------

type Given<T> = T | null | undefined;

/** An address as written: every member but line2 is required when an address is given. */
export interface AddressRequest {
  line1: string;
  line2?: Given<string>;
  city: string;
  state: string;
  postcode: string;
  country: string;
}

export interface CardholderIndividualRequest {
  dateOfBirth: string;
  name: { title?: Given<string>; firstName: string; middleName?: Given<string>; lastName: string };
  address: AddressRequest;
  employers?: Given<
    {
      businessName?: Given<string>;
      businessIdentifiers?: Given<{ countryCode?: Given<string>; number?: Given<string>; type?: Given<string> }[]>;
    }[]
  >;
}

export interface CardholderCreateRequest {
  type: CardholderType;
  email: string;
  mobileNumber: string;
  countryCode?: Given<string>;
  individual?: Given<CardholderIndividualRequest>;
  postalAddress?: Given<AddressRequest>;
  createdBy: string;
  /** Sent as the optional `agent-code` and `subagent-code` headers. */
  agentCode?: Given<string>;
  subagentCode?: Given<string>;
}

/** Only given fields change; a given individual or postal address replaces the whole object. */
export interface CardholderUpdateRequest {
  mobileNumber?: Given<string>;
  countryCode?: Given<string>;
  individual?: Given<CardholderIndividualRequest>;
  postalAddress?: Given<AddressRequest>;
  updatedBy: string;
}

const given = <T>(value: Given<T>): T | undefined => value ?? undefined;

function addressBody(address: Given<AddressRequest>) {
  if (!address) return undefined;
  const { city, country, line1, line2, state, postcode } = address;
  return { city, country, line1, line2: given(line2), state, postcode };
}

function individualBody(individual: Given<CardholderIndividualRequest>) {
  if (!individual) return undefined;
  const { name } = individual;
  return {
    date_of_birth: individual.dateOfBirth,
    name: { title: given(name.title), first_name: name.firstName, middle_name: given(name.middleName), last_name: name.lastName },
    address: addressBody(individual.address),
    employers: individual.employers?.map((e) => ({
      business_name: given(e.businessName),
      business_identifiers: e.businessIdentifiers?.map((b) => ({
        country_code: given(b.countryCode),
        number: given(b.number),
        type: given(b.type),
      })),
    })),
  };
}

/** The optional headers of Create Cardholder, only those given. */
function agentHeaders(request: CardholderCreateRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  if (request.agentCode) headers['agent-code'] = request.agentCode;
  if (request.subagentCode) headers['subagent-code'] = request.subagentCode;
  return headers;
}

export function cardholdersApi(call: BoundCall) {
  return {
    /** `page` is page_num (1-based) and `size` page_size. */
    list: (filter: { status?: Given<CardholderStatus>; page?: number; size?: number } = {}) =>
      call(cardholderEndpoints.list, { query: { status: filter.status, page_num: filter.page, page_size: filter.size } }),
    get: (id: string) => orNullIfNotFound(call(cardholderEndpoints.get, { query: { id } })),
    create: (request: CardholderCreateRequest, idempotencyKey?: Given<string>) =>
      call(cardholderEndpoints.create, {
        idempotencyKey: idempotencyKey ?? undefined,
        headers: agentHeaders(request),
        body: {
          email: request.email,
          mobile_number: request.mobileNumber,
          country_code: given(request.countryCode),
          individual: individualBody(request.individual),
          postal_address: addressBody(request.postalAddress),
          type: request.type,
          created_by: request.createdBy,
        },
      }),
    update: (id: string, request: CardholderUpdateRequest, idempotencyKey?: Given<string>) =>
      call(cardholderEndpoints.update, {
        query: { id },
        idempotencyKey: idempotencyKey ?? undefined,
        body: {
          mobile_number: given(request.mobileNumber),
          country_code: given(request.countryCode),
          individual: individualBody(request.individual),
          postal_address: addressBody(request.postalAddress),
          updated_by: request.updatedBy,
        },
      }),
    delete: (id: string, idempotencyKey?: Given<string>) =>
      call(cardholderEndpoints.delete, { query: { id }, idempotencyKey: idempotencyKey ?? undefined }),
  };
}
