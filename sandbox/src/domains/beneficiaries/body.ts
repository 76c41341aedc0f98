import { z } from 'zod';
import { badRequest } from '../../http.ts';
import { formatPath, parseWithRules } from '../../validation.ts';
import { ruleProblems } from './check.ts';
import type { Address, BankDetails, BeneficiaryDetails, BeneficiaryFields } from './types.ts';

/**
 * Request bodies of create and update. zod checks only the shape (objects, text, a list of
 * methods); what each field must contain, and whether it is required, comes from the rule
 * set of the beneficiary's combination (rules.ts). Every message is `<path>: <rule>`, the
 * form the rule failures have, so a client reads one format.
 */
const text = z.string().nullish();

const addressShape = z.object({ city: text, country_code: text, postcode: text, state: text, street_address: text });

// bank_name is not in any rule set; the document requires it in the create body.
const bankShape = <N extends z.ZodType>(bankName: N) =>
  z.object({
    account_currency: text,
    account_name: text,
    account_number: text,
    bank_country_code: text,
    bank_name: bankName,
    swift_code: text,
    account_routing_type1: text,
    account_routing_value1: text,
  });

const infoShape = z.object({ personal_email: text }).nullish();
const methods = z.array(z.string()).min(1);

const createBody = z.object({
  nickname: text,
  transfer_methods: methods,
  beneficiary: z.object({
    entity_type: text,
    company_name: text,
    address: addressShape,
    bank_details: bankShape(z.string().min(1)),
    additional_info: infoShape,
  }),
});

const updateBody = z.object({
  nickname: text,
  transfer_methods: methods.optional(),
  beneficiary: z
    .object({
      entity_type: text,
      company_name: text,
      address: addressShape.optional(),
      bank_details: bankShape(z.string().min(1).nullish()).optional(),
      additional_info: infoShape,
    })
    .optional(),
});

type UpdateBody = z.output<typeof updateBody>;

export function fieldsToCreate(body: unknown): BeneficiaryFields {
  const input = parse(createBody, body);
  return checked({
    nickname: input.nickname ?? null,
    transfer_methods: input.transfer_methods,
    beneficiary: {
      entity_type: input.beneficiary.entity_type ?? null,
      company_name: input.beneficiary.company_name ?? null,
      address: address(input.beneficiary.address),
      bank_details: bankDetails(input.beneficiary.bank_details),
      additional_info: { personal_email: input.beneficiary.additional_info?.personal_email ?? null },
    },
  });
}

/**
 * The record after a partial update: a top-level field or beneficiary member that is
 * absent stays; address, bank_details and additional_info, when given, replace the old
 * object whole. The merged result must pass the rules of its (possibly new) combination.
 */
export function fieldsAfterUpdate(current: BeneficiaryFields, body: unknown): BeneficiaryFields {
  const input = parse(updateBody, body);
  const patch: NonNullable<UpdateBody['beneficiary']> = input.beneficiary ?? {};
  const old = current.beneficiary;
  const beneficiary: BeneficiaryDetails = {
    entity_type: patch.entity_type === undefined ? old.entity_type : patch.entity_type,
    company_name: patch.company_name === undefined ? old.company_name : patch.company_name,
    address: patch.address === undefined ? old.address : address(patch.address),
    // The document lists bank_name among neither the required nor the optional update
    // members, so a replacement without one keeps the bank's name.
    bank_details:
      patch.bank_details === undefined
        ? old.bank_details
        : bankDetails({ ...patch.bank_details, bank_name: patch.bank_details.bank_name ?? old.bank_details.bank_name }),
    additional_info:
      patch.additional_info === undefined ? old.additional_info : { personal_email: patch.additional_info?.personal_email ?? null },
  };
  return checked({
    nickname: input.nickname === undefined ? current.nickname : input.nickname,
    transfer_methods: input.transfer_methods ?? current.transfer_methods,
    beneficiary,
  });
}

function parse<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = parseWithRules(schema, body);
  if (result.success) return result.data;
  const items = result.error.issues.map((issue) =>
    issue.path.length === 0 ? issue.message : `${formatPath(issue.path)}: ${issue.message}`,
  );
  throw badRequest(items.join('; '));
}

function checked(fields: BeneficiaryFields): BeneficiaryFields {
  const problems = ruleProblems(fields);
  if (problems.length > 0) throw badRequest(problems.join('; '));
  return fields;
}

const ADDRESS_KEYS = ['city', 'country_code', 'postcode', 'state', 'street_address'] as const;
const BANK_KEYS = [
  'account_currency',
  'account_name',
  'account_number',
  'bank_country_code',
  'bank_name',
  'swift_code',
  'account_routing_type1',
  'account_routing_value1',
] as const;

const address = (input: Partial<Record<keyof Address, string | null>>): Address => withNulls(ADDRESS_KEYS, input);
const bankDetails = (input: Partial<Record<keyof BankDetails, string | null>>): BankDetails => withNulls(BANK_KEYS, input);

/** Every member present, null where the client gave none. */
function withNulls<K extends string>(keys: readonly K[], input: Partial<Record<K, string | null>>): Record<K, string | null> {
  return Object.fromEntries(keys.map((key) => [key, input[key] ?? null])) as Record<K, string | null>;
}
