import { encodeGlobalID } from '@pothos/plugin-relay';
import { z } from 'zod';
import { builder } from '../builder.ts';
import type { GatewayContext } from '../context.ts';
import {
  BENEFICIARY_RULE_ALIASES,
  ENTITY_TYPES,
  mergeBeneficiaryUpdate,
  ruleSetCombinations,
  type Beneficiary,
  type BeneficiaryAddress,
  type BeneficiaryBankDetails,
  type BeneficiaryRule,
  type BeneficiaryWriteRequest,
} from '../upstream/beneficiaries.ts';
import { TransferMethod } from './accounts.ts';
import { onlyFound } from './batched-reads.ts';
import { offsetConnection } from './connections.ts';
import { BANK_ORDER } from './list-order.ts';
import { MUTATION_ERRORS, validationError, validationErrors } from './mutation-errors.ts';
import { idempotencyKeyArg } from './mutation-inputs.ts';
import { upstreamIdFrom, bankIdIn, globalIdRule, recordIdDescription } from './record-ids.ts';
import { checkRules, inputPathOf } from './upstream-rules.ts';
import { loaderBatch } from './loader-batch.ts';

/**
 * Document 1, sections 2.7, 2.8 and 4.3 in the graph: beneficiaries, the bank's rule sets for them,
 * and writes checked against those rules before anything is sent.
 */

const COUNTRY_TEXT =
  "ISO 3166-1 alpha-2 style code, as text: the bank's country lists also hold codes ISO does not assign (e.g. IC), so the bank's rules check it.";

const ENTITY_TYPE_TEXT: Record<(typeof ENTITY_TYPES)[number], string> = {
  COMPANY: 'A business; companyName is its registered name.',
  PERSONAL: "A private person; companyName holds the person's full name.",
};

const BeneficiaryEntityType = builder.enumType('BeneficiaryEntityType', {
  description: 'Whether a beneficiary is a company or a private person.',
  values: Object.fromEntries(ENTITY_TYPES.map((e) => [e, { value: e, description: ENTITY_TYPE_TEXT[e] }])),
});

const BeneficiaryAddressType = builder.objectRef<BeneficiaryAddress>('BeneficiaryAddress').implement({
  description: 'Postal address of a beneficiary.',
  fields: (t) => ({
    streetAddress: t.exposeString('streetAddress', { description: 'Street and number.' }),
    city: t.exposeString('city', { description: 'City.' }),
    postcode: t.exposeString('postcode', { description: 'Postal code, in the format of the country.' }),
    state: t.exposeString('state', { description: 'State or region as ISO 3166-2 (e.g. US-NY), where the country has them.' }),
    countryCode: t.exposeString('countryCode', { description: `Country of the address: ${COUNTRY_TEXT}` }),
  }),
});

const BeneficiaryBankDetailsType = builder.objectRef<BeneficiaryBankDetails>('BeneficiaryBankDetails').implement({
  description: 'The bank account payouts to a beneficiary go to.',
  fields: (t) => ({
    accountCurrency: t.expose('accountCurrency', { type: 'Currency', description: 'Currency of the account.' }),
    accountName: t.exposeString('accountName', { description: 'Name the account is held in.' }),
    accountNumber: t.exposeString('accountNumber', { description: 'Account number (or IBAN where the country uses one).' }),
    bankCountryCode: t.exposeString('bankCountryCode', { description: `Country of the bank: ${COUNTRY_TEXT}` }),
    bankName: t.exposeString('bankName', { description: 'Name of the bank.' }),
    swiftCode: t.exposeString('swiftCode', { description: 'SWIFT BIC of the bank.' }),
    localClearingSystem: t.exposeString('localClearingSystem', {
      description: 'Clearing system for LOCAL transfers (values seen: FAST, RTGS, GIRO, BANK_TRANSFER); only lists carry it.',
    }),
    accountRoutingType1: t.exposeString('accountRoutingType1', { description: 'Kind of the first routing code; values seen: aba, sort_code, bank_code.' }),
    accountRoutingValue1: t.exposeString('accountRoutingValue1', { description: 'The first routing code.' }),
    accountRoutingType2: t.exposeString('accountRoutingType2', { description: 'Kind of the second routing code; only lists carry it.' }),
    accountRoutingValue2: t.exposeString('accountRoutingValue2', { description: 'The second routing code; only lists carry it.' }),
    bankBranch: t.exposeString('bankBranch', { description: 'Branch of the bank; only lists carry it.' }),
  }),
});

const BeneficiaryAdditionalInfoType = builder.objectRef<NonNullable<Beneficiary['additionalInfo']>>('BeneficiaryAdditionalInfo').implement({
  description: 'Further details of a beneficiary.',
  fields: (t) => ({
    personalEmail: t.exposeString('personalEmail', { description: 'E-mail address of the beneficiary.' }),
  }),
});

/** One call per id: the bank has no read of several beneficiaries at once (its list carries fewer fields). */
async function loadBeneficiaries(ids: string[], context: GatewayContext): Promise<Beneficiary[]> {
  return onlyFound(await Promise.all(ids.map((id) => context.upstream.beneficiaries.get(id))));
}

export const BeneficiaryNode = builder.loadableNode('Beneficiary', {
  authScopes: { permission: 'beneficiaries:read' },
  description:
    'Someone the business pays: a company or a person, and the bank account payouts go to. Read from the `beneficiaries` list, only upstreamId, nickname, companyName and bankDetails are filled (the bank lists no more); read by id, everything but the list-only bank details is.',
  id: { resolve: (beneficiary) => beneficiary.id },
  load: loaderBatch('Beneficiary', loadBeneficiaries),
  sort: (beneficiary) => beneficiary.id,
  // Records a list or a mutation returns are cached for later reads by id in the same request.
  cacheResolved: (beneficiary) => beneficiary.id,
  fields: (t) => ({
    upstreamId: t.exposeString('id', { nullable: false, description: "The bank's own identifier of the beneficiary (ben_...)." }),
    nickname: t.exposeString('nickname', { description: 'Your own short name for the beneficiary.' }),
    transferMethods: t.field({
      type: [TransferMethod],
      description: 'How the beneficiary can be paid: LOCAL and/or SWIFT. Null in lists.',
      resolve: (b) => b.transferMethods,
    }),
    entityType: t.field({
      type: BeneficiaryEntityType,
      description: 'COMPANY or PERSONAL. Null in lists.',
      resolve: (b) => b.entityType,
    }),
    companyName: t.exposeString('companyName', {
      description: "The company's name, or for a PERSONAL beneficiary the person's full name (fullName in the bank's list).",
    }),
    address: t.field({ type: BeneficiaryAddressType, description: 'Postal address. Null in lists.', resolve: (b) => b.address }),
    bankDetails: t.field({ type: BeneficiaryBankDetailsType, description: 'The bank account to pay into.', resolve: (b) => b.bankDetails }),
    additionalInfo: t.field({
      type: BeneficiaryAdditionalInfoType,
      description: 'Further details such as a personal e-mail. Null in lists.',
      resolve: (b) => b.additionalInfo,
    }),
    payerEntityType: t.exposeString('payerEntityType', {
      description: 'Kind of the party that pays this beneficiary (the business); value seen: COMPANY. Null in lists.',
    }),
  }),
});

const BeneficiaryFieldRule = builder.objectRef<BeneficiaryRule>('BeneficiaryFieldRule').implement({
  readPermission: 'beneficiaries:read',
  description: "One field of the bank's rule set for a beneficiary: whether it is required and the format it must match.",
  fields: (t) => ({
    key: t.exposeString('key', { nullable: false, description: 'Name of the rule, e.g. postcode.' }),
    path: t.exposeString('path', {
      nullable: false,
      description: 'Dotted path of the field in the bank\'s request body, e.g. beneficiary.address.postcode (transfer_method applies to each transfer method).',
    }),
    inputPath: t.stringList({
      nullable: false,
      description: 'The same field in BeneficiaryCreateInput, e.g. ["beneficiary", "address", "postcode"].',
      resolve: (rule) => inputPathOf(rule.path, BENEFICIARY_RULE_ALIASES),
    }),
    required: t.exposeBoolean('required', { nullable: false, description: 'True when the field must be given.' }),
    pattern: t.exposeString('pattern', {
      description: 'Regular expression (JavaScript syntax) a given value must match; null when any value is accepted.',
    }),
  }),
});

builder.queryFields((t) => ({
  beneficiary: t.field({
    authScopes: { permission: 'beneficiaries:read' },
    type: BeneficiaryNode,
    description: "One beneficiary by its global ID or the bank's id; null when there is none.",
    args: { id: t.arg.id({ required: true, description: 'Global ID (from `Beneficiary.id`) or the bank\'s beneficiary id.', validate: globalIdRule('Beneficiary') }) },
    resolve: (_root, args) => upstreamIdFrom(String(args.id), 'Beneficiary'),
  }),
  beneficiaries: t.connection(
    {
      authScopes: { permission: 'beneficiaries:read' },
      type: BeneficiaryNode,
      description: `Beneficiaries of the business, with the fields the bank lists (see Beneficiary). ${BANK_ORDER}`,
      args: { currency: t.arg({ type: 'Currency', description: 'Only beneficiaries whose bank account is in this currency.' }) },
      resolve: (_root, args, context) =>
        offsetConnection(args, async (range) => {
          const page = await context.upstream.beneficiaries.list({ ...range, currency: args.currency });
          return page;
        }),
    },
    { name: 'BeneficiaryConnection' },
    { name: 'BeneficiaryEdge' },
  ),
  beneficiarySchema: t.field({
    authScopes: { permission: 'beneficiaries:read' },
    type: [BeneficiaryFieldRule],
    nullable: { list: true, items: false },
    description:
      "The bank's rules for a beneficiary of one combination, in the bank's order, for building forms. beneficiaryCreate and beneficiaryUpdate check these same rules before sending anything.",
    args: {
      bankCountry: t.arg.string({ required: true, description: `Country of the beneficiary's bank: ${COUNTRY_TEXT}` }),
      currency: t.arg({ type: 'Currency', required: true, description: "Currency of the beneficiary's account." }),
      entityType: t.arg({ type: BeneficiaryEntityType, required: true, description: 'COMPANY or PERSONAL.' }),
      transferMethod: t.arg({ type: TransferMethod, required: true, description: 'LOCAL or SWIFT.' }),
    },
    resolve: (_root, args, context) => context.upstream.beneficiaries.schema(args),
  }),
}));

// --- Mutations ---------------------------------------------------------------------------------

const RULES_TEXT = 'Which members are required and their formats depend on the combination: see beneficiarySchema.';

const BeneficiaryAddressInput = builder.inputType('BeneficiaryAddressInput', {
  description: `Postal address of a beneficiary (beneficiary.address upstream). ${RULES_TEXT}`,
  fields: (t) => ({
    streetAddress: t.string({ description: 'Street and number (street_address).' }),
    city: t.string({ description: 'City (city).' }),
    postcode: t.string({ description: 'Postal code (postcode).' }),
    state: t.string({ description: 'State as ISO 3166-2, e.g. US-NY (state); required for US addresses.' }),
    countryCode: t.string({ description: `Country (country_code): ${COUNTRY_TEXT}` }),
  }),
});

const BeneficiaryBankDetailsInput = builder.inputType('BeneficiaryBankDetailsInput', {
  description: `The bank account to pay into (beneficiary.bank_details upstream). ${RULES_TEXT}`,
  fields: (t) => ({
    bankCountryCode: t.string({ required: true, description: `Country of the bank (bank_country_code): ${COUNTRY_TEXT}` }),
    accountCurrency: t.field({ type: 'Currency', required: true, description: 'Currency of the account (account_currency).' }),
    accountName: t.string({ description: 'Name the account is held in (account_name).' }),
    accountNumber: t.string({ description: 'Account number (account_number).' }),
    bankName: t.string({ description: 'Name of the bank (bank_name).' }),
    swiftCode: t.string({ description: 'SWIFT BIC (swift_code); required for SWIFT.' }),
    accountRoutingType1: t.string({ description: 'Kind of routing code (account_routing_type1), e.g. aba, sort_code; required for LOCAL.' }),
    accountRoutingValue1: t.string({ description: 'The routing code (account_routing_value1); required for LOCAL.' }),
  }),
});

const BeneficiaryAdditionalInfoInput = builder.inputType('BeneficiaryAdditionalInfoInput', {
  description: 'Further details of a beneficiary (beneficiary.additional_info upstream).',
  fields: (t) => ({
    personalEmail: t.string({ description: 'E-mail address (personal_email).' }),
  }),
});

const BeneficiaryDetailsInput = builder.inputType('BeneficiaryDetailsInput', {
  description: 'Who the beneficiary is and where to pay them (beneficiary upstream).',
  fields: (t) => ({
    entityType: t.field({ type: BeneficiaryEntityType, required: true, description: 'COMPANY or PERSONAL (entity_type).' }),
    companyName: t.string({ description: "The company's name, or a person's full name (company_name)." }),
    address: t.field({ type: BeneficiaryAddressInput, description: 'Postal address (address).' }),
    bankDetails: t.field({ type: BeneficiaryBankDetailsInput, required: true, description: 'The bank account (bank_details).' }),
    additionalInfo: t.field({ type: BeneficiaryAdditionalInfoInput, description: 'Further details (additional_info).' }),
  }),
});

const BeneficiaryDetailsUpdateInput = builder.inputType('BeneficiaryDetailsUpdateInput', {
  description: 'Changes to who the beneficiary is and where to pay them; omitted (or null) members stay as they are.',
  fields: (t) => ({
    entityType: t.field({ type: BeneficiaryEntityType, description: 'COMPANY or PERSONAL (entity_type).' }),
    companyName: t.string({ description: "The company's name, or a person's full name (company_name)." }),
    address: t.field({ type: BeneficiaryAddressInput, description: 'Replaces the whole address (address).' }),
    bankDetails: t.field({ type: BeneficiaryBankDetailsInput, description: 'Replaces the whole bank details (bank_details).' }),
    additionalInfo: t.field({ type: BeneficiaryAdditionalInfoInput, description: 'Replaces the whole additional info (additional_info).' }),
  }),
});

const transferMethodsRule = z.array(z.unknown()).min(1, 'must list at least one transfer method');

const BeneficiaryCreateInput = builder.inputType('BeneficiaryCreateInput', {
  description: "A new beneficiary, nested as the bank's request body, so each field matches a rule of beneficiarySchema by its path.",
  fields: (t) => ({
    nickname: t.string({ description: 'Your own short name for the beneficiary (nickname).' }),
    transferMethods: t.field({
      type: [TransferMethod],
      required: true,
      description: 'How the beneficiary can be paid (transfer_methods); at least one. Each must satisfy its own rule set.',
      validate: transferMethodsRule,
    }),
    beneficiary: t.field({ type: BeneficiaryDetailsInput, required: true, description: 'Who they are and where to pay them.' }),
  }),
});

const BeneficiaryUpdateInput = builder.inputType('BeneficiaryUpdateInput', {
  description: 'Changes to a beneficiary; omitted (or null) fields stay as they are. The result must still follow the rules of its combination.',
  fields: (t) => ({
    beneficiaryId: t.id({ required: true, description: recordIdDescription('Beneficiary', 'The beneficiary') }),
    nickname: t.string({ description: 'New short name (nickname).' }),
    transferMethods: t.field({
      type: [TransferMethod],
      description: 'Replaces the transfer methods (transfer_methods); at least one.',
      validate: transferMethodsRule.nullish(),
    }),
    beneficiary: t.field({ type: BeneficiaryDetailsUpdateInput, description: 'Changes to who they are and where to pay them.' }),
  }),
});

/**
 * Checks a beneficiary as it would be written against every rule set it falls under (one per
 * transfer method), fetched through the shared cache. Throws a ValidationError naming each broken
 * rule by its input path and the bank's path.
 */
async function assertFollowsBankRules(record: BeneficiaryWriteRequest, context: GatewayContext): Promise<void> {
  const at = ['input'];
  const { combinations, missing } = ruleSetCombinations(record);
  if (missing.length > 0) {
    throw validationErrors(
      missing.map((path) => ({ path: [...at, ...inputPathOf(path)], message: 'is required to choose the rule set', upstreamPath: path })),
    );
  }
  const ruleSets = await Promise.all(combinations.map((combination) => context.upstream.beneficiaries.schema(combination)));
  const issues = checkRules(ruleSets.flat(), record, { at, aliases: BENEFICIARY_RULE_ALIASES });
  if (issues.length > 0) throw validationErrors(issues);
}

/** A write answers only the id: read the beneficiary again, past anything the loader held. */
async function readBack(id: string, context: GatewayContext): Promise<Beneficiary> {
  const loader = BeneficiaryNode.getDataloader(context);
  loader.clear(id);
  const beneficiary = await loader.load(id);
  if (!beneficiary) throw new Error(`Beneficiary ${id} was written but cannot be read back`);
  return beneficiary;
}

builder.mutationField('beneficiaryCreate', (t) =>
  t.field({
    authScopes: { permission: 'beneficiaries:write' },
    type: BeneficiaryNode,
    nullable: false,
    description:
      "Registers a beneficiary. The input is first checked against the bank's rule set of its combination (beneficiarySchema, for each transfer method); a broken rule is a ValidationError and nothing is sent.",
    errors: { types: MUTATION_ERRORS, dataField: { name: 'beneficiary', description: 'The new beneficiary, as the bank holds it.' } },
    args: {
      input: t.arg({ type: BeneficiaryCreateInput, required: true, description: 'The beneficiary to register.' }),
      ...idempotencyKeyArg(),
    },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      await assertFollowsBankRules(input, context);
      const created = await context.upstream.beneficiaries.create(input, idempotencyKey);
      return readBack(created.id, context);
    },
  }),
);

builder.mutationField('beneficiaryUpdate', (t) =>
  t.field({
    authScopes: { permission: 'beneficiaries:write' },
    type: BeneficiaryNode,
    nullable: false,
    description:
      "Changes some fields of a beneficiary; address, bank details and additional info are replaced as a whole when given. The beneficiary as it would become is checked against the bank's rules first; a broken rule is a ValidationError and nothing is sent.",
    errors: { types: MUTATION_ERRORS, dataField: { name: 'beneficiary', description: 'The beneficiary after the change.' } },
    args: {
      input: t.arg({ type: BeneficiaryUpdateInput, required: true, description: 'The beneficiary and the changes.' }),
      ...idempotencyKeyArg(),
    },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      const id = bankIdIn(input.beneficiaryId, ['input', 'beneficiaryId'], 'Beneficiary');
      const current = await context.upstream.beneficiaries.get(id);
      if (!current) throw validationError(['input', 'beneficiaryId'], 'no beneficiary has this id');
      const patch: BeneficiaryWriteRequest = {
        nickname: input.nickname,
        transferMethods: input.transferMethods,
        beneficiary: input.beneficiary,
      };
      await assertFollowsBankRules(mergeBeneficiaryUpdate(current, patch), context);
      await context.upstream.beneficiaries.update(id, patch, idempotencyKey);
      return readBack(id, context);
    },
  }),
);

const BeneficiaryDeleteInput = builder.inputType('BeneficiaryDeleteInput', {
  description: 'The beneficiary to delete.',
  fields: (t) => ({
    beneficiaryId: t.id({ required: true, description: recordIdDescription('Beneficiary', 'The beneficiary') }),
  }),
});

const BeneficiaryDeleted = builder.objectRef<{ beneficiaryId: string }>('BeneficiaryDeleted').implement({
  description: 'The beneficiary is gone; it can no longer be read or paid.',
  fields: (t) => ({
    deletedId: t.id({
      nullable: false,
      description: 'Global ID the beneficiary had, to drop it from client caches.',
      resolve: (deleted) => encodeGlobalID('Beneficiary', deleted.beneficiaryId),
    }),
    deletedBeneficiaryId: t.exposeString('beneficiaryId', { nullable: false, description: "The bank's id of the deleted beneficiary." }),
  }),
});

builder.mutationField('beneficiaryDelete', (t) =>
  t.field({
    authScopes: { permission: 'beneficiaries:write' },
    type: BeneficiaryDeleted,
    nullable: false,
    description: 'Deletes a beneficiary. The bank refuses while a pending payout goes to it (an UpstreamRejection).',
    errors: { types: MUTATION_ERRORS, dataField: { name: 'result', description: 'What was deleted.' } },
    args: {
      input: t.arg({ type: BeneficiaryDeleteInput, required: true, description: 'The beneficiary to delete.' }),
      ...idempotencyKeyArg(),
    },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      const beneficiaryId = bankIdIn(input.beneficiaryId, ['input', 'beneficiaryId'], 'Beneficiary');
      await context.upstream.beneficiaries.delete(beneficiaryId, idempotencyKey);
      BeneficiaryNode.getDataloader(context).clear(beneficiaryId);
      return { beneficiaryId };
    },
  }),
);
