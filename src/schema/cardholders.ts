/**
 * Document 2, sections 2.4, 2.7, 2.8, 4.2 and 4.4 in the graph: cardholders and their KYC, and the
 * queries that read them. Their writes are in cardholder-mutations.ts; their wallet (wallets.ts) and
 * cards (cards.ts) are added to Cardholder by those domains.
 */

import { builder } from '../builder.ts';
import type { GatewayContext } from '../context.ts';
import { CARDHOLDER_STATUSES, CARDHOLDER_TYPES, type Cardholder, type CardholderIndividual } from '../upstream/cardholders.ts';
import { extended } from '../upstream/lazy-model.ts';
import type { KycRfi, KycStatus } from '../upstream/kyc.ts';
import { AddressType } from './addresses.ts';
import { loadByIdOrList } from './batched-reads.ts';
import { pagedConnection } from './connections.ts';
import { BANK_ORDER } from './list-order.ts';
import { perRequestLoader } from './loaders.ts';
import { upstreamIdFrom, globalIdRule } from './record-ids.ts';
import { loaderBatch } from './loader-batch.ts';

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

export const CardholderType = builder.enumType('CardholderType', {
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
      resolve: async (c, _args, context) => extended(await kycStatusOf(context).load(c.id), { cardholderId: c.id }),
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
