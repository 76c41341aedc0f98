import { z } from 'zod';
import { TRANSFER_METHODS, type TransferMethod } from './accounts.ts';
import { orNullIfNotFound, type BoundCall } from './bound-call.ts';
import { records } from './cache-policy.ts';
import { camelObject, flattened } from './camel-case.ts';
import { endpoint } from './endpoint.ts';
import { countryCode, currencyCode, optionalText, orNull, single } from './models.ts';

/**
 * Document 1, sections 2.7, 2.8 and 4.3: beneficiaries and the rule sets they are checked against.
 * The upstream answers a beneficiary in three shapes (read by id, list entry, write result); each is
 * read into the one `Beneficiary` below, with null for what its shape does not carry.
 */

export const ENTITY_TYPES = ['COMPANY', 'PERSONAL'] as const;
type EntityType = (typeof ENTITY_TYPES)[number];

const addressModel = camelObject({
  city: optionalText,
  country_code: orNull(countryCode),
  postcode: optionalText,
  state: optionalText,
  street_address: optionalText,
});
export type BeneficiaryAddress = z.output<typeof addressModel>;

/** Bank details as the read-back (8 keys) and the list entries (12 keys) both spell them. */
const bankDetailsModel = camelObject({
  account_currency: orNull(currencyCode),
  account_name: optionalText,
  account_number: optionalText,
  bank_country_code: orNull(countryCode),
  bank_name: optionalText,
  swift_code: optionalText,
  local_clearing_system: optionalText,
  account_routing_type1: optionalText,
  account_routing_value1: optionalText,
  account_routing_type2: optionalText,
  account_routing_value2: optionalText,
  bank_branch: optionalText,
});
export type BeneficiaryBankDetails = z.output<typeof bankDetailsModel>;

export interface Beneficiary {
  id: string;
  nickname: string | null;
  /** Null where the shape does not carry them (list entries, write results). */
  transferMethods: TransferMethod[] | null;
  /** Who pays: value seen COMPANY (the business). */
  payerEntityType: string | null;
  entityType: EntityType | null;
  /** The company's name, or a person's full name (the list calls it fullName). */
  companyName: string | null;
  address: BeneficiaryAddress | null;
  bankDetails: BeneficiaryBankDetails | null;
  additionalInfo: { personalEmail: string | null } | null;
}

/** Bank details of which the bank said nothing: every field null. */
const NO_BANK_DETAILS: BeneficiaryBankDetails = bankDetailsModel.parse({});

/** A beneficiary from a shape that carries only some fields: the rest are null. */
function beneficiaryWith(fields: Partial<Beneficiary> & { id: string }): Beneficiary {
  return {
    nickname: null,
    transferMethods: null,
    payerEntityType: null,
    entityType: null,
    companyName: null,
    address: null,
    bankDetails: null,
    additionalInfo: null,
    ...fields,
  };
}

/**
 * `GET .../beneficiarylist/{id}`: `{ beneficiary, id, nickname, payer_entity_type, transfer_methods }`.
 * The record's own fields and its nested `beneficiary` are one Beneficiary in the graph.
 */
export const beneficiaryModel: z.ZodType<Beneficiary> = flattened(
  camelObject({
    id: z.string().min(1),
    nickname: optionalText,
    payer_entity_type: optionalText,
    transfer_methods: orNull(z.array(z.enum(TRANSFER_METHODS))),
    beneficiary: camelObject({
      entity_type: orNull(z.enum(ENTITY_TYPES)),
      company_name: optionalText,
      address: orNull(addressModel),
      bank_details: orNull(bankDetailsModel),
      additional_info: orNull(camelObject({ personal_email: optionalText })),
    }),
  }),
  'beneficiary',
);

/** `GET .../beneficiarylist`: `{ beneficiaryId, fullName, nickname, bankDetails }`. */
export const beneficiaryListEntryModel = z
  .object({ beneficiaryId: z.string().min(1), fullName: optionalText, nickname: optionalText, bankDetails: orNull(bankDetailsModel) })
  .transform((e) => beneficiaryWith({ id: e.beneficiaryId, nickname: e.nickname, companyName: e.fullName, bankDetails: e.bankDetails }));

/** Create and update answer `{ id, beneficiary_account_currency, beneficiary_account_number }` (both seen null). */
export const beneficiaryWriteResultModel = z
  .object({ id: z.string().min(1), beneficiary_account_currency: orNull(currencyCode), beneficiary_account_number: optionalText })
  .transform((r) =>
    beneficiaryWith({
      id: r.id,
      bankDetails:
        r.beneficiary_account_currency === null && r.beneficiary_account_number === null
          ? null
          : { ...NO_BANK_DETAILS, accountCurrency: r.beneficiary_account_currency, accountNumber: r.beneficiary_account_number },
    }),
  );

/** Source of a regular expression the upstream sends; one that does not compile breaks the contract. */
const pattern = z.string().refine((source) => {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}, 'must be a regular expression');

/** Section 2.8: one field of the create body, by its dotted path, with its rule (none for nickname). */
export const beneficiaryRuleModel = z
  .object({
    key: z.string().min(1),
    path: z.string().min(1),
    required: z.boolean(),
    rule: orNull(z.object({ type: z.string(), pattern })),
  })
  .transform(({ rule, ...field }) => ({ ...field, pattern: rule?.pattern ?? null }));
export type BeneficiaryRule = z.output<typeof beneficiaryRuleModel>;

/**
 * The rule set's `transfer_method` names the body's `transfer_methods` in the singular; it applies to
 * each item.
 */
export const BENEFICIARY_RULE_ALIASES: Readonly<Record<string, string>> = { transfer_method: 'transfer_methods' };

const beneficiaryReads = records('beneficiaries');
/** Upcoming payouts show their beneficiary. */
const BENEFICIARY_WRITE = ['beneficiaries', 'payouts'] as const;

export const beneficiaryEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/{svc}/api/v1/transfer/beneficiarylist',
    headers: 'standard',
    data: z.array(beneficiaryListEntryModel),
    cache: beneficiaryReads,
  }),
  get: endpoint({
    method: 'GET',
    path: '/{svc}/api/v1/transfer/beneficiarylist/{beneficiaryId}',
    headers: 'standard',
    data: single(beneficiaryModel),
    cache: beneficiaryReads,
  }),
  create: endpoint({
    method: 'POST',
    path: '/{svc}/api/v1/transfer/beneficiary',
    headers: 'standard',
    data: single(beneficiaryWriteResultModel),
    changes: BENEFICIARY_WRITE,
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/{svc}/api/v1/transfer/beneficiary/{beneficiaryId}',
    headers: 'standard',
    data: single(beneficiaryWriteResultModel),
    changes: BENEFICIARY_WRITE,
  }),
  delete: endpoint({
    method: 'DELETE',
    path: '/{svc}/api/v1/transfer/beneficiary/{beneficiaryId}',
    headers: 'standard',
    data: z.null(),
    changes: BENEFICIARY_WRITE,
  }),
  schema: endpoint({
    method: 'GET',
    path: '/{svc}/api/v1/transfer/beneficiaryschema',
    headers: 'standard',
    data: z.array(beneficiaryRuleModel),
    cache: { kinds: ['reference'], ttl: 'reference' },
  }),
};

// --- Writes ------------------------------------------------------------------------------------

type Given<T> = T | null | undefined;

/** The write body in camelCase, nested exactly as the upstream body. Null or absent means "not given". */
export interface BeneficiaryWriteRequest {
  nickname?: Given<string>;
  transferMethods?: Given<readonly TransferMethod[]>;
  beneficiary?: Given<{
    entityType?: Given<EntityType>;
    companyName?: Given<string>;
    address?: Given<{
      streetAddress?: Given<string>;
      city?: Given<string>;
      postcode?: Given<string>;
      state?: Given<string>;
      countryCode?: Given<string>;
    }>;
    bankDetails?: Given<{
      accountCurrency?: Given<string>;
      accountName?: Given<string>;
      accountNumber?: Given<string>;
      bankCountryCode?: Given<string>;
      bankName?: Given<string>;
      swiftCode?: Given<string>;
      accountRoutingType1?: Given<string>;
      accountRoutingValue1?: Given<string>;
    }>;
    additionalInfo?: Given<{ personalEmail?: Given<string> }>;
  }>;
}

/** The members that were given: null and undefined are left out of the body. */
function given(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null && value !== undefined));
}

/** The upstream body of a create or (partial) update: each member renamed to its snake_case twin. */
export function beneficiaryWriteBody(request: BeneficiaryWriteRequest): Record<string, unknown> {
  const b = request.beneficiary;
  const address = b?.address;
  const bank = b?.bankDetails;
  const info = b?.additionalInfo;
  return given({
    nickname: request.nickname,
    transfer_methods: request.transferMethods,
    beneficiary:
      b &&
      given({
        entity_type: b.entityType,
        company_name: b.companyName,
        address:
          address &&
          given({
            city: address.city,
            country_code: address.countryCode,
            postcode: address.postcode,
            state: address.state,
            street_address: address.streetAddress,
          }),
        bank_details:
          bank &&
          given({
            account_currency: bank.accountCurrency,
            account_name: bank.accountName,
            account_number: bank.accountNumber,
            bank_country_code: bank.bankCountryCode,
            bank_name: bank.bankName,
            swift_code: bank.swiftCode,
            account_routing_type1: bank.accountRoutingType1,
            account_routing_value1: bank.accountRoutingValue1,
          }),
        additional_info: info && given({ personal_email: info.personalEmail }),
      }),
  });
}

/**
 * What a beneficiary would be after a partial update, as a write request: each top-level member and
 * each of entity type, company name, address, bank details and additional info is taken from the
 * patch when given (address, bank details and additional info as a whole), else from the current one.
 */
export function mergeBeneficiaryUpdate(current: Beneficiary, patch: BeneficiaryWriteRequest): BeneficiaryWriteRequest {
  const p = patch.beneficiary;
  const bank = current.bankDetails;
  return {
    nickname: patch.nickname ?? current.nickname,
    transferMethods: patch.transferMethods ?? current.transferMethods,
    beneficiary: {
      entityType: p?.entityType ?? current.entityType,
      companyName: p?.companyName ?? current.companyName,
      address: p?.address ?? current.address,
      bankDetails:
        p?.bankDetails ??
        (bank && {
          accountCurrency: bank.accountCurrency,
          accountName: bank.accountName,
          accountNumber: bank.accountNumber,
          bankCountryCode: bank.bankCountryCode,
          bankName: bank.bankName,
          swiftCode: bank.swiftCode,
          accountRoutingType1: bank.accountRoutingType1,
          accountRoutingValue1: bank.accountRoutingValue1,
        }),
      additionalInfo: p?.additionalInfo ?? current.additionalInfo,
    },
  };
}

// --- Rule sets ---------------------------------------------------------------------------------

/** What selects a rule set (the query of the schema endpoint). */
export interface RuleSetCombination {
  bankCountry: string;
  currency: string;
  entityType: EntityType;
  transferMethod: TransferMethod;
}

/**
 * The rule sets a write request must satisfy: one per transfer method, for its bank country, currency
 * and entity type. `missing` lists the dotted body paths of selectors the request lacks.
 */
export function ruleSetCombinations(request: BeneficiaryWriteRequest): { combinations: RuleSetCombination[]; missing: string[] } {
  const bankCountry = request.beneficiary?.bankDetails?.bankCountryCode;
  const currency = request.beneficiary?.bankDetails?.accountCurrency;
  const entityType = request.beneficiary?.entityType;
  const methods = [...new Set(request.transferMethods ?? [])];
  const missing = [
    ...(bankCountry ? [] : ['beneficiary.bank_details.bank_country_code']),
    ...(currency ? [] : ['beneficiary.bank_details.account_currency']),
    ...(entityType ? [] : ['beneficiary.entity_type']),
    ...(methods.length > 0 ? [] : ['transfer_methods']),
  ];
  if (!bankCountry || !currency || !entityType) return { combinations: [], missing };
  return { combinations: methods.map((transferMethod) => ({ bankCountry, currency, entityType, transferMethod })), missing };
}

// --- Calls -------------------------------------------------------------------------------------

export interface BeneficiaryListQuery {
  /** 1 to 100. */
  limit: number;
  offset: number;
  currency?: string | null | undefined;
}

export function beneficiariesApi(call: BoundCall) {
  const byId = (beneficiaryId: string) => ({ params: { beneficiaryId } });
  return {
    list: (query: BeneficiaryListQuery) => call(beneficiaryEndpoints.list, { query: { ...query } }),
    /** Null when the bank has no beneficiary with this id. */
    get: (beneficiaryId: string) => orNullIfNotFound(call(beneficiaryEndpoints.get, byId(beneficiaryId))),
    create: (request: BeneficiaryWriteRequest, idempotencyKey?: string | null) =>
      call(beneficiaryEndpoints.create, { body: beneficiaryWriteBody(request), idempotencyKey: idempotencyKey ?? undefined }),
    /** Partial: only what `request` gives is sent, and only that changes. */
    update: (beneficiaryId: string, request: BeneficiaryWriteRequest, idempotencyKey?: string | null) =>
      call(beneficiaryEndpoints.update, {
        ...byId(beneficiaryId),
        body: beneficiaryWriteBody(request),
        idempotencyKey: idempotencyKey ?? undefined,
      }),
    delete: (beneficiaryId: string, idempotencyKey?: string | null) =>
      call(beneficiaryEndpoints.delete, { ...byId(beneficiaryId), idempotencyKey: idempotencyKey ?? undefined }),
    /** The rule set of one combination: reference data, kept across requests by the record cache (its endpoint's `cache`). */
    schema: (c: RuleSetCombination) =>
      call(beneficiaryEndpoints.schema, {
        query: {
          account_currency: c.currency,
          bank_country_code: c.bankCountry,
          entity_type: c.entityType,
          transfer_method: c.transferMethod,
        },
      }),
  };
}
