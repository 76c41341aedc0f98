import { builder } from '../builder.ts';
import { arrayConnection } from './connections.ts';
import { RFI_ANSWER_TYPES, type AccountRfi, type RfiRequest, type UserProfile } from '../upstream/onboarding.ts';
import { Money } from './money.ts';

/** Document 2, sections 2.9, 2.10 and 4.5 in the graph: the business's own profile and its account RFIs. */

type AccountDetails = NonNullable<UserProfile['accountDetails']>;
type Question = RfiRequest['questions'][number];

const ANSWER_TYPE_TEXT: Record<(typeof RFI_ANSWER_TYPES)[number], string> = {
  TEXT: 'A written answer.',
  ATTACHMENT: 'A file to upload.',
  IDENTITY_DOCUMENT: 'An identity document to upload.',
  LIVENESS: 'A liveness check, taken at the question\u2019s liveness URL.',
  ADDRESS: 'An address.',
};

const RfiAnswerType = builder.enumType('RfiAnswerType', {
  description: 'What kind of answer a question of a request for information expects.',
  values: Object.fromEntries(RFI_ANSWER_TYPES.map((a) => [a, { value: a, description: ANSWER_TYPE_TEXT[a] }])),
});

const LocalizedText = builder.objectRef<Question['title'][number]>('LocalizedText').implement({
  description: 'A text in one language.',
  fields: (t) => ({
    language: t.exposeString('language', { nullable: false, description: 'Language code, e.g. en, zh.' }),
    text: t.exposeString('text', { nullable: false, description: 'The text in that language.' }),
  }),
});

const BusinessAddress = builder.objectRef<NonNullable<AccountDetails['businessAddress']>>('BusinessAddress').implement({
  description: 'Where the business operates.',
  fields: (t) => ({
    addressLine1: t.exposeString('addressLine1', { description: 'Street and number.' }),
    suburb: t.exposeString('suburb', { description: 'Suburb or city.' }),
    state: t.exposeString('state', { description: 'State or region.' }),
    postcode: t.exposeString('postcode', { description: 'Postal code.' }),
    countryCode: t.expose('countryCode', { type: 'CountryCode', description: 'Country.' }),
  }),
});

const RegistrationAddress = builder.objectRef<NonNullable<AccountDetails['registrationAddress']>>('BusinessRegistrationAddress').implement({
  description: 'Where the business is registered.',
  fields: (t) => ({
    line1: t.exposeString('line1', { description: 'First line.' }),
    line2: t.exposeString('line2', { description: 'Second line, if any.' }),
    city: t.exposeString('city', { description: 'City.' }),
    state: t.exposeString('state', { description: 'State or region.' }),
    postalCode: t.exposeString('postalCode', { description: 'Postal code.' }),
    country: t.expose('country', { type: 'CountryCode', description: 'Country.' }),
  }),
});

const BusinessAccountDetails = builder.objectRef<AccountDetails>('BusinessAccountDetails').implement({
  description: 'What the business told the bank when it opened its account.',
  fields: (t) => ({
    businessName: t.exposeString('businessName', { description: 'Registered name.' }),
    tradeName: t.exposeString('tradeName', { description: 'Name it trades under.' }),
    businessStructure: t.exposeString('businessStructure', { description: 'Legal form; value seen: SOLE_PROPRIETOR.' }),
    registrationNumber: t.exposeString('registrationNumber', { description: 'Company registration number.' }),
    incorporationDate: t.expose('incorporationDate', { type: 'Date', description: 'Day it was incorporated.' }),
    industryCategoryCode: t.exposeString('industryCategoryCode', { description: 'Industry category, as the bank codes it.' }),
    descriptionOfGoodsOrServices: t.exposeString('descriptionOfGoodsOrServices', { description: 'What it sells.' }),
    websiteUrl: t.exposeString('websiteUrl', { description: 'Website.' }),
    operatingCountries: t.field({
      type: ['CountryCode'],
      nullable: false,
      description: 'Countries it operates in.',
      resolve: (d) => d.operatingCountry,
    }),
    monthlyEstimatedRevenue: t.field({ type: Money, description: 'Revenue it expects per month.', resolve: (d) => d.monthlyEstimatedRevenue }),
    accountPurposes: t.stringList({
      nullable: false,
      description: 'What the account is for (account_usage.account_purpose).',
      resolve: (d) => d.accountUsage.accountPurpose,
    }),
    productReferences: t.stringList({
      nullable: false,
      description: 'Products of the bank it uses (account_usage.product_reference).',
      resolve: (d) => d.accountUsage.productReference,
    }),
    businessAddress: t.field({ type: BusinessAddress, description: 'Where it operates.', resolve: (d) => d.businessAddress }),
    registrationAddress: t.field({ type: RegistrationAddress, description: 'Where it is registered.', resolve: (d) => d.registrationAddress }),
  }),
});

const TermsOfServiceAcceptance = builder.objectRef<NonNullable<UserProfile['tosAcceptance']>>('TermsOfServiceAcceptance').implement({
  description: "The business's acceptance of the bank's terms of service.",
  fields: (t) => ({
    acceptedAt: t.expose('date', { type: 'DateTime', description: 'When they were accepted.' }),
    ip: t.exposeString('ip', { description: 'IP address they were accepted from.' }),
    userAgent: t.exposeString('userAgent', { description: 'Browser they were accepted with.' }),
  }),
});

const ContactDetails = builder.objectRef<NonNullable<UserProfile['contactDetails']>>('BusinessContactDetails').implement({
  description: 'How the bank reaches the business.',
  fields: (t) => ({
    email: t.exposeString('email', { description: 'E-mail address.' }),
    phone: t.exposeString('phone', { description: 'Phone number.' }),
  }),
});

const Representative = builder.objectRef<UserProfile['representatives'][number]>('BusinessRepresentative').implement({
  description: 'A person who represents the business.',
  fields: (t) => ({
    upstreamId: t.exposeString('id', { description: "The bank's id of the person." }),
    firstName: t.exposeString('firstName', { description: 'First name.' }),
    lastName: t.exposeString('lastName', { description: 'Last name.' }),
    role: t.exposeString('role', { description: 'Role in the business, as the bank names it.' }),
    email: t.exposeString('email', { description: 'E-mail address.' }),
  }),
});

// --- Account RFIs ------------------------------------------------------------------------------

const RfiSource = builder.objectRef<Question['sources'][number]>('RfiSource').implement({
  description: 'Whom a question is about.',
  fields: (t) => ({
    upstreamId: t.exposeString('id', { description: "The bank's id of the source." }),
    type: t.exposeString('type', { description: 'Kind of source; value seen: PERSON.' }),
    firstName: t.string({ description: 'First name of the person.', resolve: (s) => s.person?.firstName ?? null }),
    lastName: t.string({ description: 'Last name of the person.', resolve: (s) => s.person?.lastName ?? null }),
  }),
});

const RfiLiveness = builder.objectRef<NonNullable<Question['liveness']>>('RfiLiveness').implement({
  description: 'A liveness check a question asks for.',
  fields: (t) => ({
    url: t.exposeString('url', { description: 'Where the person takes the check.' }),
    status: t.exposeString('status', { description: 'State of the check; value seen: NOT_STARTED.' }),
  }),
});

const RfiQuestion = builder.objectRef<Question>('RfiQuestion').implement({
  description: 'One question of a request for information.',
  fields: (t) => ({
    upstreamId: t.exposeString('id', { nullable: false, description: "The bank's id of the question." }),
    key: t.exposeString('key', { description: 'What is asked, where the bank says; values seen: LIVENESS, RESIDENTIAL_ADDRESS.' }),
    trigger: t.exposeString('trigger', { description: 'Why it is asked; value seen: OTHERS.' }),
    title: t.field({ type: [LocalizedText], nullable: false, description: 'Title, in each language the bank gives.', resolve: (q) => q.title }),
    description: t.field({
      type: [LocalizedText],
      nullable: false,
      description: 'Description, in each language the bank gives.',
      resolve: (q) => q.description,
    }),
    answerType: t.field({ type: RfiAnswerType, description: 'Kind of answer expected.', resolve: (q) => q.answer?.type ?? null }),
    liveness: t.field({ type: RfiLiveness, description: 'The liveness check, for LIVENESS questions.', resolve: (q) => q.liveness }),
    sources: t.field({ type: [RfiSource], nullable: false, description: 'Whom the question is about.', resolve: (q) => q.sources }),
    attachmentCount: t.int({ nullable: false, description: 'Number of files attached to the question.', resolve: (q) => q.attachments.length }),
    uploadedOrderCount: t.int({ nullable: false, description: 'Number of uploads made in answer.', resolve: (q) => q.uploadedOrders.length }),
  }),
});

const RfiRequestType = builder.objectRef<RfiRequest>('RfiRequest').implement({
  description: 'One round of questions of a request for information.',
  fields: (t) => ({
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was asked.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    questions: t.field({ type: [RfiQuestion], nullable: false, description: 'The questions.', resolve: (r) => r.questions }),
  }),
});

const AccountRfiType = builder.objectRef<AccountRfi>('AccountRfi').implement({
  readPermission: 'business:read',
  description: 'A request for information from the bank\u2019s compliance team about the account.',
  fields: (t) => ({
    upstreamId: t.exposeString('id', { nullable: false, description: "The bank's id of the RFI." }),
    accountUpstreamId: t.exposeString('accountId', { description: "The bank's id of the account it is about." }),
    type: t.exposeString('type', { nullable: false, description: 'Category; value seen: KYC (others named: Cardholder, Transaction Monitoring).' }),
    status: t.exposeString('status', { nullable: false, description: 'State; value seen: ACTION_REQUIRED.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was raised.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    activeRequest: t.field({ type: RfiRequestType, description: 'The questions waiting for answers; null when none.', resolve: (r) => r.activeRequest }),
    answeredRequests: t.field({
      type: [RfiRequestType],
      nullable: false,
      description: 'Earlier rounds, already answered.',
      resolve: (r) => r.answeredRequests,
    }),
  }),
});

// --- The viewer --------------------------------------------------------------------------------

const BusinessProfile = builder.objectRef<UserProfile>('BusinessProfile').implement({
  readPermission: 'business:read',
  description: 'The business the gateway acts for: its profile with the bank (onboarding details).',
  fields: (t) => ({
    upstreamId: t.exposeString('id', { nullable: false, description: "The bank's id of the business's user." }),
    status: t.exposeString('status', { description: 'State of the profile; value seen: ACTIVE.' }),
    entityType: t.exposeString('entityType', { description: 'Kind of entity; value seen: BUSINESS.' }),
    accountDetails: t.field({ type: BusinessAccountDetails, description: 'The business and what it does.', resolve: (p) => p.accountDetails }),
    contactDetails: t.field({ type: ContactDetails, description: 'How to reach it.', resolve: (p) => p.contactDetails }),
    representatives: t.field({
      type: [Representative],
      nullable: false,
      description: 'People who represent it.',
      resolve: (p) => p.representatives,
    }),
    termsOfServiceAcceptance: t.field({
      type: TermsOfServiceAcceptance,
      description: 'When and how the terms of service were accepted.',
      resolve: (p) => p.tosAcceptance,
    }),
    agreedToTermsAndConditions: t.boolean({
      description: 'Whether the business agreed to the terms and conditions (agreements).',
      resolve: (p) => p.agreements.agreedToTermsAndConditions,
    }),
    rfis: t.connection(
      {
        type: AccountRfiType,
        description: 'Requests for information about the account, active and historical (read from the bank only when asked for).',
        resolve: async (_profile, args, context) => arrayConnection(args, await context.upstream.onboarding.rfis()),
      },
      { name: 'AccountRfiConnection' },
      { name: 'AccountRfiEdge' },
    ),
  }),
});

builder.queryField('viewer', (t) =>
  t.field({
    authScopes: { permission: 'business:read' },
    type: BusinessProfile,
    description: 'The business whose credentials the gateway uses: its profile and compliance requests.',
    resolve: (_root, _args, context) => context.upstream.onboarding.profile(),
  }),
);
