/**
 * Document 2, section 2.4 writes in the graph: creating, changing and deleting a cardholder, with the
 * inputs they take and the rules those inputs are held to. Each write reads the cardholder back.
 */

import { encodeGlobalID } from '@pothos/plugin-relay';
import { z } from 'zod';
import { builder } from '../builder.ts';
import type { GatewayContext } from '../context.ts';
import { CARDHOLDER_TYPES, type Cardholder } from '../upstream/cardholders.ts';
import { AddressInput } from './addresses.ts';
import { CardholderNode, CardholderType } from './cardholders.ts';
import { today } from './dates.ts';
import { MUTATION_ERRORS } from './mutation-errors.ts';
import { idempotencyKeyArg, notBlank } from './mutation-inputs.ts';
import { bankIdIn, recordIdDescription } from './record-ids.ts';

const englishName = z
  .string()
  .trim()
  .regex(/^[A-Za-z]+(?:[ '-]+[A-Za-z]+)*$/, 'must use English letters only, with spaces, hyphens and apostrophes between them');
const mobileNumber = z.string().trim().regex(/^\+?[0-9]{7,15}$/, 'must be 7 to 15 digits, optionally after a +');
const email = z.string().trim().regex(/^[^\s@]+@[^\s@]+$/, 'must be an e-mail address');

const CardholderNameInput = builder.inputType('CardholderNameInput', {
  description: 'A name in English characters (letters, spaces, hyphens, apostrophes).',
  fields: (t) => ({
    title: t.string({ description: 'Title, e.g. Ms.', validate: englishName }),
    firstName: t.string({ required: true, description: 'First name.', validate: englishName }),
    middleName: t.string({ description: 'Middle name.', validate: englishName }),
    lastName: t.string({ required: true, description: 'Last name.', validate: englishName }),
  }),
});

const CardholderBusinessIdentifierInput = builder.inputType('CardholderBusinessIdentifierInput', {
  description: 'An identifier of an employer business; every member is optional.',
  fields: (t) => ({
    type: t.string({ description: 'Kind of identifier (type).' }),
    number: t.string({ description: 'The identifier (number).' }),
    countryCode: t.field({ type: 'CountryCode', description: 'Country that issued it (country_code).' }),
  }),
});

const CardholderEmployerInput = builder.inputType('CardholderEmployerInput', {
  description: 'A business the person works for.',
  fields: (t) => ({
    businessName: t.string({ description: 'Name of the business (business_name).' }),
    businessIdentifiers: t.field({
      type: [CardholderBusinessIdentifierInput],
      description: 'Identifiers of the business (business_identifiers).',
    }),
  }),
});

const CardholderIndividualInput = builder.inputType('CardholderIndividualInput', {
  description: 'The person behind an INDIVIDUAL cardholder, given as a whole: date of birth, name and address are required.',
  fields: (t) => ({
    dateOfBirth: t.field({
      type: 'Date',
      required: true,
      description: 'Date of birth; a day in the past.',
      validate: z.string().refine((day) => day < today(), 'must be a day in the past'),
    }),
    name: t.field({ type: CardholderNameInput, required: true, description: 'Name, in English characters.' }),
    address: t.field({ type: AddressInput, required: true, description: 'Residential address.' }),
    employers: t.field({ type: [CardholderEmployerInput], description: 'Businesses the person works for.' }),
  }),
});

/** INDIVIDUAL cardholders carry the person; DELEGATE cardholders must not. */
const individualMatchesType = z
  .looseObject({ type: z.enum(CARDHOLDER_TYPES), individual: z.unknown().nullish() })
  .superRefine((input, ctx) => {
    if (input.type === 'INDIVIDUAL' && input.individual == null) {
      ctx.addIssue({ code: 'custom', path: ['individual'], message: 'is required for an INDIVIDUAL cardholder' });
    }
    if (input.type === 'DELEGATE' && input.individual != null) {
      ctx.addIssue({ code: 'custom', path: ['individual'], message: 'must not be given for a DELEGATE cardholder' });
    }
  });

const CardholderCreateInput = builder.inputType('CardholderCreateInput', {
  description: 'A new cardholder. It starts PENDING while its name is screened, then becomes READY.',
  fields: (t) => ({
    type: t.field({ type: CardholderType, required: true, description: 'INDIVIDUAL (give `individual`) or DELEGATE (do not).' }),
    email: t.string({ required: true, description: 'E-mail address.', validate: email }),
    mobileNumber: t.string({ required: true, description: 'Mobile number: 7 to 15 digits, optionally after a +.', validate: mobileNumber }),
    countryCode: t.field({ type: 'CountryCode', description: 'Nationality.' }),
    individual: t.field({ type: CardholderIndividualInput, description: 'The person; required for INDIVIDUAL, not allowed for DELEGATE.' }),
    postalAddress: t.field({
      type: AddressInput,
      description: 'Where physical cards go; needed only when it differs from the residential address.',
    }),
    createdBy: t.string({ required: true, description: 'Full legal name of the person creating the cardholder.', validate: notBlank }),
    agentCode: t.string({ description: 'Agent code, sent as the agent-code header.' }),
    subagentCode: t.string({ description: 'Sub-agent code, sent as the subagent-code header.' }),
  }),
  validate: individualMatchesType,
});

const CardholderUpdateInput = builder.inputType('CardholderUpdateInput', {
  description:
    'Changes to a cardholder; omitted (or null) fields stay as they are. `individual` and `postalAddress` replace the whole object, so their required members must all be given. A changed name sends the cardholder back to PENDING for screening.',
  fields: (t) => ({
    cardholderId: t.id({ required: true, description: recordIdDescription('Cardholder', 'The cardholder') }),
    mobileNumber: t.string({ description: 'New mobile number: 7 to 15 digits, optionally after a +.', validate: mobileNumber }),
    countryCode: t.field({ type: 'CountryCode', description: 'New nationality.' }),
    individual: t.field({ type: CardholderIndividualInput, description: 'Replaces the whole person: date of birth, name, address (and employers).' }),
    postalAddress: t.field({ type: AddressInput, description: 'Replaces the whole postal address.' }),
    updatedBy: t.string({ required: true, description: 'Full legal name of the person making the change.', validate: notBlank }),
  }),
});

/** A write answers no cardholder: read it again, past anything the loader held. */
async function readBack(id: string, context: GatewayContext): Promise<Cardholder> {
  const loader = CardholderNode.getDataloader(context);
  loader.clear(id);
  const cardholder = await loader.load(id);
  if (!cardholder) throw new Error(`Cardholder ${id} was written but cannot be read back`);
  return cardholder;
}

builder.mutationField('cardholderCreate', (t) =>
  t.field({
    authScopes: { permission: 'cardholders:write' },
    type: CardholderNode,
    nullable: false,
    description: 'Creates a cardholder, PENDING until its name passes screening. An INDIVIDUAL needs `individual`; a DELEGATE must not have it.',
    errors: { types: MUTATION_ERRORS, dataField: { name: 'cardholder', description: 'The new cardholder, as the bank holds it.' } },
    args: { input: t.arg({ type: CardholderCreateInput, required: true, description: 'The cardholder to create.' }), ...idempotencyKeyArg() },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      const created = await context.upstream.cardholders.create(input, idempotencyKey);
      return readBack(created.id, context);
    },
  }),
);

builder.mutationField('cardholderUpdate', (t) =>
  t.field({
    authScopes: { permission: 'cardholders:write' },
    type: CardholderNode,
    nullable: false,
    description: 'Changes some fields of a cardholder; `individual` and `postalAddress` are replaced as a whole when given.',
    errors: { types: MUTATION_ERRORS, dataField: { name: 'cardholder', description: 'The cardholder after the change.' } },
    args: { input: t.arg({ type: CardholderUpdateInput, required: true, description: 'The cardholder and the changes.' }), ...idempotencyKeyArg() },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      const { cardholderId: given, ...changes } = input;
      const cardholderId = bankIdIn(given, ['input', 'cardholderId'], 'Cardholder');
      await context.upstream.cardholders.update(cardholderId, changes, idempotencyKey);
      return readBack(cardholderId, context);
    },
  }),
);

const CardholderDeleteInput = builder.inputType('CardholderDeleteInput', {
  description: 'The cardholder to delete.',
  fields: (t) => ({
    cardholderId: t.id({ required: true, description: recordIdDescription('Cardholder', 'The cardholder') }),
  }),
});

const CardholderDeleted = builder.objectRef<{ cardholderId: string }>('CardholderDeleted').implement({
  description: 'The cardholder is gone for good; its cards are closed.',
  fields: (t) => ({
    deletedId: t.id({
      nullable: false,
      description: 'Global ID the cardholder had, to drop it from client caches.',
      resolve: (deleted) => encodeGlobalID('Cardholder', deleted.cardholderId),
    }),
    deletedCardholderId: t.exposeString('cardholderId', { nullable: false, description: "The bank's id of the deleted cardholder." }),
  }),
});

builder.mutationField('cardholderDelete', (t) =>
  t.field({
    authScopes: { permission: 'cardholders:write' },
    type: CardholderDeleted,
    nullable: false,
    description: 'Deletes a cardholder permanently and irreversibly.',
    errors: { types: MUTATION_ERRORS, dataField: { name: 'result', description: 'What was deleted.' } },
    args: { input: t.arg({ type: CardholderDeleteInput, required: true, description: 'The cardholder to delete.' }), ...idempotencyKeyArg() },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      const cardholderId = bankIdIn(input.cardholderId, ['input', 'cardholderId'], 'Cardholder');
      await context.upstream.cardholders.delete(cardholderId, idempotencyKey);
      CardholderNode.getDataloader(context).clear(cardholderId);
      return { cardholderId };
    },
  }),
);
