import type { InputFieldBuilder, SchemaTypes } from '@pothos/core';
import { z } from 'zod';
import { builder } from '../builder.ts';
import type { GatewayContext } from '../context.ts';
import type { WebhookConfig } from '../settings/index.ts';
import { UpstreamNotFoundError, UpstreamRejectedError } from '../upstream/errors.ts';
import {
  SUBSCRIPTION_TYPES,
  findSubscription,
  type WebhookCatalogueEntry,
  type WebhookSubscription,
  type WebhookSubscriptionIdentity,
  type WebhookSubscriptionType as SubscriptionType,
  type WebhookTarget,
} from '../upstream/webhooks.ts';
import { MUTATION_ERRORS, MutationError, validationErrors, type UpstreamRuleIssue } from './mutation-errors.ts';
import { idempotencyKeyArg, notBlank } from './mutation-inputs.ts';

/**
 * Document 3, sections 2.1, 2.2 and 4.1 in the graph: the events a program can subscribe to, the
 * subscriptions filed under an agent and sub-agent, and writes to them. Stored keys are shown
 * masked only. The program code is always the gateway's product id; agent, sub-agent and company
 * codes default to the configured ones (`context.webhookCodes`).
 */

// --- Configured codes --------------------------------------------------------------------------

type CodeName = 'agentCode' | 'subagentCode' | 'companyCode';
type WebhookCodeDefaults = Partial<Pick<WebhookConfig, CodeName>>;

const CODE_VARIABLE: Record<CodeName, string> = {
  agentCode: 'WEBHOOK_AGENT_CODE',
  subagentCode: 'WEBHOOK_SUBAGENT_CODE',
  companyCode: 'WEBHOOK_COMPANY_CODE',
};

type Given = string | null | undefined;

/** Each code as given, else its default; a code with neither is an issue at `at` + its name. */
function resolveCodes<N extends CodeName>(
  given: Partial<Record<N, Given>>,
  names: readonly N[],
  at: string[],
  issues: UpstreamRuleIssue[],
  defaults: WebhookCodeDefaults,
): Record<N, string> {
  const codes = {} as Record<N, string>;
  for (const name of names) {
    const value = given[name] ?? defaults[name];
    if (value) codes[name] = value;
    else issues.push({ path: [...at, name], message: `is required: no default is configured (${CODE_VARIABLE[name]})` });
  }
  return codes;
}

// --- Types -------------------------------------------------------------------------------------

const TYPE_TEXT: Record<SubscriptionType, string> = {
  WEBHOOK: 'An HTTP POST of each event to the subscription\'s url, carrying its key (`w` upstream).',
  NOTIFICATION: 'An e-mail for each event (`n` upstream).',
};

const WebhookSubscriptionTypeEnum = builder.enumType('WebhookSubscriptionType', {
  description: 'How the bank tells a subscriber about an event.',
  values: Object.fromEntries(SUBSCRIPTION_TYPES.map((type) => [type, { value: type, description: TYPE_TEXT[type] }])),
});

const WebhookCatalogueEntryType = builder.objectRef<WebhookCatalogueEntry>('WebhookCatalogueEntry').implement({
  readPermission: 'webhooks:read',
  description: 'An event the program can subscribe to (Document 3, 2.2).',
  fields: (t) => ({
    eventName: t.exposeString('eventName', { nullable: false, description: 'Name of the event, e.g. conversion.settled.' }),
    description: t.exposeString('eventDescription', { description: "The bank's short description, e.g. Currency Conversion." }),
    programCode: t.exposeString('programCode', { nullable: false, description: 'The program (product id) the event belongs to.' }),
  }),
});

const WebhookSubscriptionIdentityInterface = builder
  .interfaceRef<WebhookSubscriptionIdentity>('WebhookSubscriptionIdentity')
  .implement({
    description: 'What identifies a subscription: one per event name and set of codes.',
    fields: (t) => ({
      eventName: t.exposeString('eventName', { nullable: false, description: 'The event subscribed to.' }),
      agentCode: t.exposeString('agentCode', { nullable: false, description: 'Agent code the subscription is filed under.' }),
      subagentCode: t.exposeString('subagentCode', { nullable: false, description: 'Sub-agent code the subscription is filed under.' }),
      programCode: t.exposeString('programCode', { nullable: false, description: 'Program code: the product id.' }),
      companyCode: t.exposeString('companyCode', { nullable: false, description: 'Company code the subscription is filed under.' }),
    }),
  });

const WebhookSubscriptionRef = builder.objectRef<WebhookSubscription>('WebhookSubscription').implement({
  readPermission: 'webhooks:read',
  description:
    'A subscription to one event (Document 3, 2.1): a webhook the bank POSTs each event to, or an e-mail notification. The bank stores no id for it: the event name and codes identify it.',
  interfaces: [WebhookSubscriptionIdentityInterface],
  fields: (t) => ({
    type: t.field({
      type: WebhookSubscriptionTypeEnum,
      nullable: false,
      description: 'WEBHOOK or NOTIFICATION.',
      resolve: (s) => s.subscriptionType,
    }),
    url: t.exposeString('webhookUrl', {
      description: 'Where a WEBHOOK delivers (webhook_url). Null for a notification, unless it was a WEBHOOK before: the bank keeps what an update leaves out.',
    }),
    senderEmail: t.exposeString('senderEmail', { description: 'Sender address of notifications, once whitelisted by support.' }),
    maskedApiKey: t.exposeString('maskedApiKey', {
      description:
        'The key the bank sends with each delivery (x_api_key), masked: e.g. ••••••••abcd; keys under 12 characters show nothing. Never shown in full. Null when none is stored.',
    }),
    createdBy: t.exposeString('createdBy', { description: 'Who created the subscription.' }),
    updatedBy: t.exposeString('updatedBy', { description: 'Who last changed it; null until it is changed.' }),
    createdAt: t.expose('createdTime', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedTime', { type: 'DateTime', description: 'When it was last changed.' }),
    serialNumber: t.exposeInt('slNo', { description: "Its serial number in the bank's list (sl_no: 1, 2, ...)." }),
  }),
});

const WebhookSubscriptionDeleted = builder.objectRef<WebhookSubscriptionIdentity>('WebhookSubscriptionDeleted').implement({
  description: 'The subscription is gone: the bank sends no more of its event to it.',
  interfaces: [WebhookSubscriptionIdentityInterface],
});

// --- The gateway's own subscriptions -------------------------------------------------------------

/**
 * A write to a subscription the gateway keeps for itself (events/webhook-reconciler.ts): changing or
 * deleting it would stop the live updates, and the gateway would file it again at its next pass.
 */
class GatewaySubscriptionReservedError extends Error {
  readonly identity: WebhookSubscriptionIdentity;
  constructor(identity: WebhookSubscriptionIdentity) {
    super(
      `${identity.eventName} under agent ${identity.agentCode}, sub-agent ${identity.subagentCode} and company ${identity.companyCode} is the gateway's own subscription: it delivers this event to the gateway for its live updates, so the gateway keeps it as it is. To manage a subscription of your own, give another companyCode (or agentCode / subagentCode).`,
    );
    this.name = 'GatewaySubscriptionReservedError';
    this.identity = identity;
  }
}

builder.objectType(GatewaySubscriptionReservedError, {
  name: 'WebhookSubscriptionReserved',
  description:
    "The subscription is one the gateway keeps for itself (its live updates depend on it): nothing was sent to the bank. Manage your own subscriptions under another company, agent or sub-agent code.",
  interfaces: [MutationError],
  fields: (t) => ({
    eventName: t.string({ nullable: false, description: 'The event of the reserved subscription.', resolve: (e) => e.identity.eventName }),
    agentCode: t.string({ nullable: false, description: 'Its agent code (the gateway\'s, WEBHOOK_AGENT_CODE).', resolve: (e) => e.identity.agentCode }),
    subagentCode: t.string({ nullable: false, description: 'Its sub-agent code (the gateway\'s, WEBHOOK_SUBAGENT_CODE).', resolve: (e) => e.identity.subagentCode }),
    companyCode: t.string({ nullable: false, description: 'Its company code (the gateway\'s, WEBHOOK_COMPANY_CODE).', resolve: (e) => e.identity.companyCode }),
  }),
});

/** The errors of the three webhook writes: every mutation's, and the gateway's own subscriptions refused. */
const WEBHOOK_WRITE_ERRORS = [...MUTATION_ERRORS, GatewaySubscriptionReservedError];

/** Refuses a write to a subscription the gateway keeps for itself, before anything is sent. */
function notTheGateways<T extends WebhookSubscriptionIdentity>(identity: T, context: GatewayContext): T {
  if (context.gatewayWebhooks.owns(identity)) throw new GatewaySubscriptionReservedError(identity);
  return identity;
}

// --- Queries -----------------------------------------------------------------------------------

const codeArgText = (what: string, name: CodeName) => `${what}; defaults to the configured one (${CODE_VARIABLE[name]}).`;

builder.queryFields((t) => ({
  webhookCatalogue: t.field({
    authScopes: { permission: 'webhooks:read' },
    type: [WebhookCatalogueEntryType],
    nullable: { list: true, items: false },
    description: "Every event the gateway's program can subscribe to, with the bank's description.",
    resolve: (_root, _args, context) => context.upstream.webhooks.catalogue(context.upstream.programCode),
  }),
  webhookSubscriptions: t.field({
    authScopes: { permission: 'webhooks:read' },
    type: [WebhookSubscriptionRef],
    nullable: { list: true, items: false },
    description: "The program's subscriptions filed under an agent and sub-agent code, as the bank lists them; keys masked.",
    args: {
      agentCode: t.arg.string({ description: codeArgText('Agent code', 'agentCode'), validate: notBlank.nullish() }),
      subagentCode: t.arg.string({ description: codeArgText('Sub-agent code', 'subagentCode'), validate: notBlank.nullish() }),
    },
    resolve: (_root, args, context) => {
      const issues: UpstreamRuleIssue[] = [];
      const codes = resolveCodes(args, ['agentCode', 'subagentCode'], [], issues, context.webhookCodes);
      if (issues.length > 0) throw validationErrors(issues);
      return context.upstream.webhooks.subscriptions({ programCode: context.upstream.programCode, ...codes });
    },
  }),
}));

// --- Mutations ---------------------------------------------------------------------------------

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T extends SchemaTypes> ? T : never;

const urlRule = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const emailRule = z.string().trim().regex(/^[^\s@]+@[^\s@]+$/, 'must be an e-mail address');

/** The event and the codes: the identity of a subscription, codes defaulting to the configured ones. */
const identityFields = (t: InputFieldBuilder<Types, 'InputObject'>) => ({
  eventName: t.string({ required: true, description: 'The event, one of webhookCatalogue (event_name).', validate: notBlank }),
  agentCode: t.string({ description: codeArgText('Agent code (agent_code)', 'agentCode'), validate: notBlank.nullish() }),
  subagentCode: t.string({ description: codeArgText('Sub-agent code (subagent_code)', 'subagentCode'), validate: notBlank.nullish() }),
  companyCode: t.string({ description: codeArgText('Company code (company_code)', 'companyCode'), validate: notBlank.nullish() }),
});

/** The identity, the type and its conditional fields, as create and update both take them. */
const subscriptionFields = (t: InputFieldBuilder<Types, 'InputObject'>) => ({
  ...identityFields(t),
  type: t.field({ type: WebhookSubscriptionTypeEnum, required: true, description: 'WEBHOOK or NOTIFICATION (subscription_type w or n).' }),
  url: t.string({ description: 'Where to POST each event (webhook_url): an http(s) URL; required for WEBHOOK, not allowed for NOTIFICATION.', validate: urlRule.nullish() }),
  apiKey: t.string({
    description:
      'The key the bank sends with each delivery (x_api_key): required for WEBHOOK, not allowed for NOTIFICATION. Sent to the bank only; it is never shown again in full.',
    validate: notBlank.nullish(),
  }),
  senderEmail: t.string({
    description: 'Sender address of notifications (sender_email), once support has whitelisted it; optional. Left out of an update, the stored one stays.',
    validate: emailRule.nullish(),
  }),
});

const WebhookSubscriptionCreateInput = builder.inputType('WebhookSubscriptionCreateInput', {
  description:
    "A new subscription to one event. A WEBHOOK needs url and apiKey; a NOTIFICATION takes neither. Under the configured codes every event is the gateway's own subscription once it files them (PUBLIC_URL set): give another companyCode for yours.",
  fields: (t) => ({
    ...subscriptionFields(t),
    createdBy: t.string({ required: true, description: 'Who creates the subscription (created_by).', validate: notBlank }),
  }),
});

const WebhookSubscriptionUpdateInput = builder.inputType('WebhookSubscriptionUpdateInput', {
  description:
    "New settings of an existing subscription, found by its event and codes. The type and, for a WEBHOOK, url and apiKey are always given (the bank requires them); senderEmail left out stays as stored. The gateway's own subscriptions (the configured codes, once it files them) cannot be changed.",
  fields: (t) => ({
    ...subscriptionFields(t),
    updatedBy: t.string({ required: true, description: 'Who makes the change (updated_by).', validate: notBlank }),
  }),
});

const WebhookSubscriptionDeleteInput = builder.inputType('WebhookSubscriptionDeleteInput', {
  description: "The subscription to delete, by its event and codes; the gateway's own (the configured codes, once it files them) cannot be deleted.",
  fields: (t) => ({ ...identityFields(t) }),
});

interface IdentityInput {
  eventName: string;
  agentCode?: Given;
  subagentCode?: Given;
  companyCode?: Given;
}

interface SubscriptionInput extends IdentityInput {
  type: SubscriptionType;
  url?: Given;
  apiKey?: Given;
  senderEmail?: Given;
}

const AT = ['input'];

function identityOf(input: IdentityInput, context: GatewayContext, issues: UpstreamRuleIssue[]): WebhookSubscriptionIdentity {
  const codes = resolveCodes(input, ['agentCode', 'subagentCode', 'companyCode'], AT, issues, context.webhookCodes);
  return { eventName: input.eventName, programCode: context.upstream.programCode, ...codes };
}

/** Section 4.1's conditional rules: a WEBHOOK has url and key; a NOTIFICATION has neither. */
function targetOf(input: SubscriptionInput, issues: UpstreamRuleIssue[]): WebhookTarget {
  const senderEmail = input.senderEmail;
  if (input.type === 'NOTIFICATION') {
    for (const name of ['url', 'apiKey'] as const) {
      if (input[name] != null) issues.push({ path: [...AT, name], message: 'must not be given for a NOTIFICATION subscription' });
    }
    return { type: 'NOTIFICATION', senderEmail };
  }
  for (const name of ['url', 'apiKey'] as const) {
    if (input[name] == null) issues.push({ path: [...AT, name], message: 'is required for a WEBHOOK subscription' });
  }
  return { type: 'WEBHOOK', url: input.url ?? '', apiKey: input.apiKey ?? '', senderEmail };
}

/** The identity and target of a write, every broken rule reported at once before anything is sent. */
function checked(input: SubscriptionInput, context: GatewayContext) {
  const issues: UpstreamRuleIssue[] = [];
  const identity = identityOf(input, context, issues);
  const target = targetOf(input, issues);
  if (issues.length > 0) throw validationErrors(issues);
  return { ...identity, ...target };
}

/**
 * A 404 of update or delete means the bank has no subscription with this identity: a refusal of
 * this write (UpstreamRejection), not a missing page.
 */
async function refusedIfNotFound<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (!(error instanceof UpstreamNotFoundError)) throw error;
    throw new UpstreamRejectedError(error.status, error.upstreamMessage, { endpoint: error.endpoint, requestId: error.requestId });
  }
}

/** Writes answer only a message: read the subscription back from the bank's list. */
async function readBack(identity: WebhookSubscriptionIdentity, context: GatewayContext): Promise<WebhookSubscription> {
  const subscriptions = await context.upstream.webhooks.subscriptions(identity);
  const subscription = findSubscription(subscriptions, identity);
  if (!subscription) throw new Error(`Webhook subscription ${identity.eventName} was written but cannot be read back`);
  return subscription;
}

const IDEMPOTENCY_TEXT =
  "Webhook management takes no x-request-id (Document 3, 4.1), so the key is not sent to the bank; it names the call in the gateway's logs and errors (requestId). Repeating the write is safe without it: a repeated create is refused as a duplicate, a repeated update sets the same values, a repeated delete finds nothing. Up to 128 characters.";

builder.mutationField('webhookSubscriptionCreate', (t) =>
  t.field({
    authScopes: { permission: 'webhooks:write' },
    type: WebhookSubscriptionRef,
    nullable: false,
    description:
      "Subscribes to one event. A WEBHOOK without url or apiKey, or a NOTIFICATION with either, is a ValidationError and nothing is sent; an existing subscription of the same event and codes is refused by the bank (UpstreamRejection); the gateway's own codes are refused (WebhookSubscriptionReserved).",
    errors: { types: WEBHOOK_WRITE_ERRORS, dataField: { name: 'subscription', description: 'The new subscription, as the bank holds it (key masked).' } },
    args: {
      input: t.arg({ type: WebhookSubscriptionCreateInput, required: true, description: 'The subscription to create.' }),
      ...idempotencyKeyArg(IDEMPOTENCY_TEXT),
    },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      const request = { ...notTheGateways(checked(input, context), context), createdBy: input.createdBy };
      await context.upstream.webhooks.subscribe(request, idempotencyKey);
      return readBack(request, context);
    },
  }),
);

builder.mutationField('webhookSubscriptionUpdate', (t) =>
  t.field({
    authScopes: { permission: 'webhooks:write' },
    type: WebhookSubscriptionRef,
    nullable: false,
    description:
      "Changes the type, url, key or sender of a subscription, found by its event and codes. The same rules as create apply before anything is sent. The stored record is read first and the complete new record is sent (a NOTIFICATION's url and key as null, the sender and created_by as stored unless given), so the outcome does not depend on how the bank treats an omitted field. An unknown subscription is refused by the bank (UpstreamRejection); one of the gateway's own subscriptions is refused (WebhookSubscriptionReserved).",
    errors: { types: WEBHOOK_WRITE_ERRORS, dataField: { name: 'subscription', description: 'The subscription after the change (key masked).' } },
    args: {
      input: t.arg({ type: WebhookSubscriptionUpdateInput, required: true, description: 'The subscription and its new settings.' }),
      ...idempotencyKeyArg(IDEMPOTENCY_TEXT),
    },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      const request = notTheGateways(checked(input, context), context);
      // The complete record goes out (see completeTargetBody): what the input leaves out comes from the stored one.
      const stored = findSubscription(await context.upstream.webhooks.subscriptions(request), request);
      const complete = {
        ...request,
        senderEmail: request.senderEmail ?? stored?.senderEmail ?? null,
        createdBy: stored?.createdBy ?? input.updatedBy,
        updatedBy: input.updatedBy,
      };
      // No stored record: the bank refuses the update (UpstreamRejection), as it decides what exists.
      await refusedIfNotFound(context.upstream.webhooks.update(complete, idempotencyKey));
      return readBack(request, context);
    },
  }),
);

builder.mutationField('webhookSubscriptionDelete', (t) =>
  t.field({
    authScopes: { permission: 'webhooks:write' },
    type: WebhookSubscriptionDeleted,
    nullable: false,
    description:
      "Deletes a subscription, found by its event and codes; an unknown one is refused by the bank (UpstreamRejection), one of the gateway's own is refused (WebhookSubscriptionReserved).",
    errors: { types: WEBHOOK_WRITE_ERRORS, dataField: { name: 'result', description: 'What was deleted.' } },
    args: {
      input: t.arg({ type: WebhookSubscriptionDeleteInput, required: true, description: 'The subscription to delete.' }),
      ...idempotencyKeyArg(IDEMPOTENCY_TEXT),
    },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      const issues: UpstreamRuleIssue[] = [];
      const identity = identityOf(input, context, issues);
      if (issues.length > 0) throw validationErrors(issues);
      await refusedIfNotFound(context.upstream.webhooks.unsubscribe(notTheGateways(identity, context), idempotencyKey));
      return identity;
    },
  }),
);
