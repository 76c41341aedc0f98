import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { bindCall, type BoundCall, type CallScope } from './bound-call.ts';
import type { BankConnection } from './bank-connection.ts';
import type { TtlCache } from './ttl-cache.ts';
import { camelObject } from './camel-case.ts';
import { endpoint, type HttpMethod } from './endpoint.ts';
import { anyCaseEnum, optionalText, orNull } from './models.ts';

/**
 * Document 3, sections 2.1, 2.2 and 4.1: webhook subscription management. These endpoints answer
 * without the envelope of Documents 1 and 2 (`envelope: false`) and take only x-api-key and
 * Content-Type (`headers: 'webhook'`; no bearer token, section 5). The key a `w` subscription stores
 * (`x_api_key`) is masked here and never leaves `upstream/` in full; whether a stored key equals a
 * given one is answered by `carriesApiKey`, from a keyed fingerprint kept beside the record.
 */

/** Section 4.1: `w` webhook, `n` notification; read into the graph's names. */
export const SUBSCRIPTION_TYPES = ['WEBHOOK', 'NOTIFICATION'] as const;
export type WebhookSubscriptionType = (typeof SUBSCRIPTION_TYPES)[number];

const UPSTREAM_TYPE: Record<WebhookSubscriptionType, 'w' | 'n'> = { WEBHOOK: 'w', NOTIFICATION: 'n' };

const subscriptionType = anyCaseEnum(['w', 'n'], { lowerCase: true }).transform((t): WebhookSubscriptionType =>
  t === 'w' ? 'WEBHOOK' : 'NOTIFICATION',
);

// --- Keys --------------------------------------------------------------------------------------

const MASK = '••••••••';
/** Shorter keys are masked whole: four characters of a short key would give too much of it away. */
const MIN_LENGTH_TO_SHOW_TAIL = 12;

/** `••••••••abcd`: the last 4 characters of a key of 12 or more, nothing of a shorter one. */
function maskApiKey(key: string): string {
  return key.length >= MIN_LENGTH_TO_SHOW_TAIL ? `${MASK}${key.slice(-4)}` : MASK;
}

/**
 * Fingerprints of stored keys, by the record they were read with. The HMAC secret is random per
 * process, so a fingerprint says nothing outside it, and the record itself carries only the mask.
 */
const FINGERPRINT_SECRET = randomBytes(32);
const storedKeys = new WeakMap<WebhookSubscription, Buffer>();

function fingerprint(key: string): Buffer {
  return createHmac('sha256', FINGERPRINT_SECRET).update(key).digest();
}

/** Whether the subscription, as read from the bank, stores exactly this key. */
export function carriesApiKey(subscription: WebhookSubscription, key: string): boolean {
  const stored = storedKeys.get(subscription);
  return stored !== undefined && timingSafeEqual(stored, fingerprint(key));
}

// --- Models ------------------------------------------------------------------------------------

/**
 * Section 2.1's times are HTTP-dates (`Sat, 21 Nov 2026 10:00:00 GMT`, RFC 9110 IMF-fixdate); read
 * as a Date.
 */
const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const httpDate = z
  .string()
  .trim()
  .regex(HTTP_DATE, 'must be an HTTP-date, e.g. "Sat, 21 Nov 2026 10:00:00 GMT"')
  .transform((text, ctx) => {
    const date = new Date(text);
    if (Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: 'custom', message: `is not a date-time: "${text}"` });
      return z.NEVER;
    }
    return date;
  });

/** An integer the upstream may send as a JSON number or as digits. */
const integer = z.union([z.number().int(), z.string().trim().regex(/^\d+$/, 'must be an integer').transform(Number)]);

/** Section 2.2, one entry of Get All Webhooks. */
const webhookCatalogueEntryModel = camelObject({
  event_name: z.string().min(1),
  event_description: optionalText,
  program_code: z.string().min(1),
});
export type WebhookCatalogueEntry = z.output<typeof webhookCatalogueEntryModel>;

/** The five fields that identify a subscription (one per event name and set of codes). */
export interface WebhookSubscriptionIdentity {
  eventName: string;
  agentCode: string;
  subagentCode: string;
  programCode: string;
  companyCode: string;
}

/** Section 2.1, one record of Retrieve Subscribed Webhook, as the bank sends it (key included). */
const subscriptionRecord = camelObject({
  event_name: z.string().min(1),
  agent_code: z.string(),
  subagent_code: z.string(),
  program_code: z.string(),
  company_code: z.string(),
  subscription_type: subscriptionType,
  webhook_url: optionalText,
  sender_email: optionalText,
  x_api_key: optionalText,
  created_by: optionalText,
  updated_by: optionalText,
  created_time: orNull(httpDate),
  updated_time: orNull(httpDate),
  /** The record's serial number in the bank's answer (1, 2, ...). */
  sl_no: orNull(integer),
});

/** A subscription as it leaves `upstream/`: its stored key masked (`maskApiKey`), null when none is stored. */
export type WebhookSubscription = Omit<z.output<typeof subscriptionRecord>, 'xApiKey'> & { maskedApiKey: string | null };

/** The key is masked on the way in; an empty url, sender or key is none. */
const webhookSubscriptionModel = subscriptionRecord.transform(({ xApiKey, ...record }): WebhookSubscription => {
  const key = xApiKey || null;
  const subscription: WebhookSubscription = {
    ...record,
    webhookUrl: record.webhookUrl || null,
    senderEmail: record.senderEmail || null,
    maskedApiKey: key === null ? null : maskApiKey(key),
  };
  if (key !== null) storedKeys.set(subscription, fingerprint(key));
  return subscription;
});

/** Get All Webhooks answers `{ data: [...], status: "success" }`: the entries. */
const catalogueModel = z
  .object({ data: z.array(webhookCatalogueEntryModel), status: z.string().optional() })
  .transform((body) => body.data);

/** What subscribe, update and delete answer: `{ message, status: "SUCCESS" }`. */
const webhookWriteAnswerModel = z.object({
  message: optionalText,
  status: z.string().refine((status) => status.toLowerCase() === 'success', 'must be SUCCESS on a successful answer'),
});

/** Webhook management reads are never kept by the record cache, and its writes change no record it keeps. */
const webhookEndpoint = <Data>(method: HttpMethod, path: string, data: z.ZodType<Data>, effect: 'read' | 'write') =>
  endpoint({
    method,
    path,
    headers: 'webhook',
    envelope: false,
    data,
    ...(effect === 'read' ? { cache: 'never' as const } : { changes: [] }),
  });

export const webhookEndpoints = {
  /** The same for every user: a program-wide cache of its own (webhooksApi), not the record cache. */
  catalogue: webhookEndpoint('GET', '/getallwebhooks', catalogueModel, 'read'),
  /** A read, though sent as POST: the codes go in the body. */
  subscriptions: webhookEndpoint('POST', '/api/subscribedwebhook', z.array(webhookSubscriptionModel), 'read'),
  subscribe: webhookEndpoint('POST', '/api/subscribe', webhookWriteAnswerModel, 'write'),
  update: webhookEndpoint('PATCH', '/api/subscribe', webhookWriteAnswerModel, 'write'),
  unsubscribe: webhookEndpoint('DELETE', '/api/subscribe', webhookWriteAnswerModel, 'write'),
};

// --- Writes ------------------------------------------------------------------------------------

/**
 * What a subscription delivers to. A webhook needs its URL and the key the bank sends with each
 * delivery; a notification is an e-mail, from `senderEmail` once support has whitelisted it.
 */
export type WebhookTarget =
  | { type: 'WEBHOOK'; url: string; apiKey: string; senderEmail?: string | null | undefined }
  | { type: 'NOTIFICATION'; senderEmail?: string | null | undefined };

export type WebhookSubscribeRequest = WebhookSubscriptionIdentity & WebhookTarget & { createdBy: string };
/** The whole intended record: the caller fills what the change leaves as stored (see `completeTargetBody`). */
export type WebhookUpdateRequest = WebhookSubscriptionIdentity & WebhookTarget & { createdBy: string; updatedBy: string };

function identityBody(identity: WebhookSubscriptionIdentity) {
  return {
    event_name: identity.eventName,
    agent_code: identity.agentCode,
    subagent_code: identity.subagentCode,
    program_code: identity.programCode,
    company_code: identity.companyCode,
  };
}

/** The type and its conditional fields; the key goes as `x_api_key`, as in the document's samples. */
function targetBody(target: WebhookTarget) {
  return {
    subscription_type: UPSTREAM_TYPE[target.type],
    ...(target.type === 'WEBHOOK' ? { webhook_url: target.url, x_api_key: target.apiKey } : {}),
    ...(target.senderEmail ? { sender_email: target.senderEmail } : {}),
  };
}

/**
 * Every delivery field, for an update. Document 3, 4.1 does not say whether PATCH keeps the stored
 * value of a field left out, so nothing is left out: what the type does not use (a notification's
 * url and key) is sent as null, and the sender as intended (null: the bank's default sender). The
 * result is then the same whichever way the bank reads an omission.
 */
function completeTargetBody(target: WebhookTarget) {
  return {
    subscription_type: UPSTREAM_TYPE[target.type],
    webhook_url: target.type === 'WEBHOOK' ? target.url : null,
    x_api_key: target.type === 'WEBHOOK' ? target.apiKey : null,
    sender_email: target.senderEmail ?? null,
  };
}

// --- Calls -------------------------------------------------------------------------------------

export interface WebhookSubscriptionsQuery {
  programCode: string;
  agentCode: string;
  subagentCode: string;
}

/**
 * Webhook management takes no bearer token (section 5): its calls go out without one, so they make
 * no login and work when the gateway has no client credentials.
 */
export function tokenlessCall(connection: BankConnection, scope: CallScope = {}): BoundCall {
  return bindCall(connection, undefined, scope);
}

/**
 * Typed calls. Webhook management carries no x-request-id, so an idempotency key is not sent; it
 * names the call in the gateway's logs and errors only.
 */
export function webhooksApi(call: BoundCall, catalogues: TtlCache<WebhookCatalogueEntry[]>) {
  const key = (idempotencyKey: string | null | undefined) => idempotencyKey ?? undefined;
  return {
    /** Every event the program can subscribe to. `programCode` is the product id. Reference data: cached briefly. */
    catalogue: (programCode: string) =>
      catalogues.get(programCode, () => call(webhookEndpoints.catalogue, { query: { program_code: programCode } })),
    /** The subscriptions filed under the agent and sub-agent codes, keys masked. */
    subscriptions: (query: WebhookSubscriptionsQuery) =>
      call(webhookEndpoints.subscriptions, {
        query: { program_code: query.programCode },
        body: { agent_code: query.agentCode, subagent_code: query.subagentCode },
      }),
    subscribe: (request: WebhookSubscribeRequest, idempotencyKey?: string | null) =>
      call(webhookEndpoints.subscribe, {
        body: { ...identityBody(request), ...targetBody(request), created_by: request.createdBy },
        idempotencyKey: key(idempotencyKey),
      }),
    update: (request: WebhookUpdateRequest, idempotencyKey?: string | null) =>
      call(webhookEndpoints.update, {
        body: { ...identityBody(request), ...completeTargetBody(request), created_by: request.createdBy, updated_by: request.updatedBy },
        idempotencyKey: key(idempotencyKey),
      }),
    unsubscribe: (identity: WebhookSubscriptionIdentity, idempotencyKey?: string | null) =>
      call(webhookEndpoints.unsubscribe, { body: identityBody(identity), idempotencyKey: key(idempotencyKey) }),
  };
}

/** The record of `identity` in a list of subscriptions, if there is one. */
export function findSubscription(
  subscriptions: readonly WebhookSubscription[],
  identity: WebhookSubscriptionIdentity,
): WebhookSubscription | undefined {
  return subscriptions.find(
    (s) =>
      s.eventName === identity.eventName &&
      s.agentCode === identity.agentCode &&
      s.subagentCode === identity.subagentCode &&
      s.programCode === identity.programCode &&
      s.companyCode === identity.companyCode,
  );
}
