import { encodeGlobalID } from '@pothos/plugin-relay';
import { z } from 'zod';
import { builder } from '../builder.ts';
import type { GatewayContext } from '../context.ts';
import { CARDHOLDER_STATUSES, CARDHOLDER_TYPES, type Cardholder, type CardholderIndividual } from '../upstream/cardholders.ts';
import type { KycRfi, KycStatus } from '../upstream/kyc.ts';
import { AddressInput, AddressType } from './addresses.ts';
import { loadByIdOrList } from './batched-reads.ts';
import { pagedConnection } from './connections.ts';
import { today } from './dates.ts';
import { BANK_ORDER } from './list-order.ts';
import { perRequestLoader } from './loaders.ts';
import { MUTATION_ERRORS } from './mutation-errors.ts';
import { idempotencyKeyArg, notBlank } from './mutation-inputs.ts';
import { upstreamIdFrom, bankIdIn, globalIdRule, recordIdDescription } from './record-ids.ts';
import { loaderBatch } from './loader-batch.ts';

/**
 * Document 2, sections 2.4, 2.7, 2.8, 4.2 and 4.4 in the graph: cardholders and their KYC. Their
 * wallet (wallets.ts) and cards (cards.ts) are added to Cardholder by those domains.
 */

const STATUS_TEXT: Record<(typeof CARDHOLDER_STATUSES)[number], string> = {
  PENDING: 'Created or renamed; name screening is under review. No cards or wallet yet.',
  READY: 'Passed review: cards may be issued and a wallet created.',
};

const CardholderStatus = builder.enumType('CardholderStatus', {
  description: 'Where a cardholder stands in review. A new cardholder, or one whose name changes, is PENDING until screening passes.',
  values: Object.fromEntries(CARDHOLDER_STATUSES.map((s) => [s, { value: s, description: STATUS_TEXT[s] }])),
});

const TYPE_TEXT: Record<(typeof CARDHOLDER_TYPES)[number], string> = {
  INDIVIDUAL: 'A named representative; can hold personalized and non-personalized cards. Carries `individual` data.',
  DELEGATE: 'Acts for the business; holds non-personalized cards only, which carry the business name. Has no `individual` data.',
};

const CardholderType = builder.enumType('CardholderType', {
  description: 'Kind of cardholder. Depending on the program, one or both kinds are permitted.',
  values: Object.fromEntries(CARDHOLDER_TYPES.map((s) => [s, { value: s, description: TYPE_TEXT[s] }])),
});

type Individual = NonNullable<CardholderIndividual>;
type Employer = Individual['employers'][number];

const CardholderNameType = builder.objectRef<NonNullable<Individual['name']>>('CardholderName').implement({
  description: "An individual cardholder's name, in English characters.",
  fields: (t) => ({
    title: t.exposeString('title', { description: 'Title, e.g. Ms.' }),
    firstName: t.exposeString('firstName', { description: 'First name.' }),
    middleName: t.exposeString('middleName', { description: 'Middle name, if any.' }),
    lastName: t.exposeString('lastName', { description: 'Last name.' }),
  }),
});

const CardholderIdentification = builder.objectRef<NonNullable<Individual['identification']>>('CardholderIdentification').implement({
  description: 'An identity document of an individual cardholder.',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'Kind of document, as the bank names it (e.g. PASSPORT).' }),
    number: t.exposeString('number', { description: 'Number of the document.' }),
    country: t.expose('country', { type: 'CountryCode', description: 'Country that issued it.' }),
    expiryDate: t.expose('expiryDate', { type: 'Date', description: 'Day it expires.' }),
  }),
});

const CardholderBusinessIdentifier = builder
  .objectRef<Employer['businessIdentifiers'][number]>('CardholderBusinessIdentifier')
  .implement({
    description: "An identifier of an employer business, such as its registration number.",
    fields: (t) => ({
      type: t.exposeString('type', { description: 'Kind of identifier, as the bank names it.' }),
      number: t.exposeString('number', { description: 'The identifier itself.' }),
      countryCode: t.expose('countryCode', { type: 'CountryCode', description: 'Country that issued it.' }),
    }),
  });

const CardholderEmployer = builder.objectRef<Employer>('CardholderEmployer').implement({
  description: 'A business an individual cardholder works for.',
  fields: (t) => ({
    businessName: t.exposeString('businessName', { description: 'Name of the business.' }),
    businessIdentifiers: t.field({
      type: [CardholderBusinessIdentifier],
      nullable: false,
      description: 'Identifiers of the business.',
      resolve: (e) => e.businessIdentifiers,
    }),
  }),
});

const CardholderIndividualType = builder.objectRef<Individual>('CardholderIndividual').implement({
  description: 'The person behind an INDIVIDUAL cardholder.',
  fields: (t) => ({
    dateOfBirth: t.expose('dateOfBirth', { type: 'Date', description: 'Date of birth.' }),
    name: t.field({ type: CardholderNameType, description: 'Name, in English characters.', resolve: (i) => i.name }),
    address: t.field({ type: AddressType, description: 'Residential address.', resolve: (i) => i.address }),
    identification: t.field({
      type: CardholderIdentification,
      description: 'Identity document. The bank sends it in the `cardholders` list only: null when the cardholder was read by id.',
      resolve: (i) => i.identification,
    }),
    employers: t.field({ type: [CardholderEmployer], nullable: false, description: 'Businesses the person works for.', resolve: (i) => i.employers }),
  }),
});

// --- KYC: each read only when a query asks for it --------------------------------------------------

/** A cardholder's KYC status, with the cardholder it is about (for the RFI reads). */
type CardholderKycShape = KycStatus & { cardholderId: string };

const kycStatusOf = perRequestLoader('KycStatus', (cardholderId: string, context: GatewayContext) => context.upstream.kyc.status(cardholderId));
const kycRfiOf = perRequestLoader('KycRfi', (cardholderId: string, context: GatewayContext) => context.upstream.kyc.rfi(cardholderId));
const kycRfiLinkOf = perRequestLoader('KycRfiLink', (cardholderId: string, context: GatewayContext) => context.upstream.kyc.rfiResponseLink(cardholderId));

const CardholderKycRfi = builder.objectRef<KycRfi>('CardholderKycRfi').implement({
  description: 'Why KYC was declined: a request for information (RFI) the cardholder must answer.',
  fields: (t) => ({
    declinedAddressCodes: t.stringList({
      nullable: false,
      description: 'Decline codes about the address (services_declined_codes.address); empty when none.',
      resolve: (rfi) => rfi.servicesDeclinedCodes.address,
    }),
    declinedDocumentCodes: t.stringList({
      nullable: false,
      description: 'Decline codes about the documents (services_declined_codes.document); empty when none.',
      resolve: (rfi) => rfi.servicesDeclinedCodes.document,
    }),
    declinedReason: t.exposeString('declinedReason', { description: 'Why it was declined, for people; null when there is no RFI.' }),
  }),
});

const CardholderKyc = builder.objectRef<CardholderKycShape>('CardholderKyc').implement({
  description:
    'Know-your-customer check of a cardholder (programs with eKYC: a wallet and cards need it COMPLETED). On a program without KYC, reading it is a PROGRAM_NOT_SUPPORTED error.',
  fields: (t) => ({
    status: t.exposeString('kycStatus', { nullable: false, description: 'KYC state; values seen: PENDING, COMPLETED.' }),
    link: t.exposeString('kycLink', { description: 'Where the cardholder submits documents while PENDING; null once complete.' }),
    documentType: t.exposeString('documentType', { description: 'Kind of check; value seen: E_KYC.' }),
    complianceStatus: t.exposeString('complianceStatus', { description: 'Compliance review state; values seen: IN_PROGRESS, COMPLETED.' }),
    email: t.exposeString('email', { description: 'E-mail the KYC request goes to.' }),
    rfi: t.field({
      type: CardholderKycRfi,
      nullable: false,
      description: 'Details of a request for information after a decline (read from the bank only when asked for).',
      resolve: (kyc, _args, context) => kycRfiOf(context).load(kyc.cardholderId),
    }),
    rfiResponseLink: t.string({
      description: 'Link where the cardholder answers the request for information (read from the bank only when asked for).',
      resolve: (kyc, _args, context) => kycRfiLinkOf(context).load(kyc.cardholderId),
    }),
  }),
});

// --- Cardholder ---------------------------------------------------------------------------------

/** One call per id: the list has no id filter of several ids. */
/** One read each for a few cardholders; the cardholder list (same records) for more. */
function loadCardholders(ids: string[], context: GatewayContext): Promise<Cardholder[]> {
  return loadByIdOrList(ids, {
    one: (id) => context.upstream.cardholders.get(id),
    page: (page, size) => context.upstream.cardholders.list({ page, size }),
    idOf: (cardholder) => cardholder.id,
  });
}

export const CardholderNode = builder.loadableNode('Cardholder', {
  authScopes: { permission: 'cardholders:read' },
  description: 'Someone cards are issued to: a named representative (INDIVIDUAL) or a delegate acting for the business (DELEGATE).',
  id: { resolve: (cardholder) => cardholder.id },
  load: loaderBatch('Cardholder', loadCardholders),
  sort: (cardholder) => cardholder.id,
  // Records a list or a mutation returns are cached for later reads by id in the same request.
  cacheResolved: (cardholder) => cardholder.id,
  fields: (t) => ({
    upstreamId: t.exposeString('id', { nullable: false, description: "The bank's own identifier of the cardholder (chd_...)." }),
    status: t.expose('status', { type: CardholderStatus, nullable: false, description: 'PENDING while under review, then READY.' }),
    type: t.expose('type', { type: CardholderType, nullable: false, description: 'INDIVIDUAL or DELEGATE.' }),
    email: t.exposeString('email', { nullable: false, description: 'E-mail address.' }),
    mobileNumber: t.exposeString('mobileNumber', { nullable: false, description: 'Mobile number, digits with an optional leading +.' }),
    countryCode: t.expose('countryCode', {
      type: 'CountryCode',
      description: 'Nationality, when the bank includes `country_code` in the cardholder; Document 2, 2.4 does not list it, so expect null.',
      deprecationReason: 'Document 2, 2.4 has no nationality on a cardholder: null unless the bank sends one. Card.cardholderSummary.countryCode carries the documented one.',
    }),
    individual: t.field({
      type: CardholderIndividualType,
      description: 'The person, for an INDIVIDUAL cardholder; null for a DELEGATE.',
      resolve: (c) => c.individual,
    }),
    postalAddress: t.field({
      type: AddressType,
      description: 'Where physical cards go, when it differs from the residential address; null otherwise.',
      resolve: (c) => c.postalAddress,
    }),
    createdBy: t.exposeString('createdBy', { description: 'Who created the cardholder.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the cardholder was created.' }),
    kyc: t.field({
      type: CardholderKyc,
      description: 'KYC status (read from the bank only when asked for). A PROGRAM_NOT_SUPPORTED error on programs without KYC.',
      resolve: async (c, _args, context) => ({ ...(await kycStatusOf(context).load(c.id)), cardholderId: c.id }),
    }),
  }),
});

builder.queryFields((t) => ({
  cardholder: t.field({
    authScopes: { permission: 'cardholders:read' },
    type: CardholderNode,
    description: "One cardholder by its global ID or the bank's id; null when there is none.",
    args: { id: t.arg.id({ required: true, description: "Global ID (from `Cardholder.id`) or the bank's cardholder id.", validate: globalIdRule('Cardholder') }) },
    resolve: (_root, args) => upstreamIdFrom(String(args.id), 'Cardholder'),
  }),
  cardholders: t.connection(
    {
      authScopes: { permission: 'cardholders:read' },
      type: CardholderNode,
      description: `Cardholders of the business. ${BANK_ORDER}`,
      args: { status: t.arg({ type: CardholderStatus, description: 'Only cardholders in this state.' }) },
      resolve: (_root, args, context) =>
        pagedConnection(args, async (slice) => {
          const page = await context.upstream.cardholders.list({ ...slice, status: args.status });
          return page;
        }),
    },
    { name: 'CardholderConnection' },
    { name: 'CardholderEdge' },
  ),
}));

// --- Mutations ---------------------------------------------------------------------------------

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
