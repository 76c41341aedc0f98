import { DEFAULT_SENDER } from './fanout.ts';
import type { z } from 'zod';
import { json } from '../../control.ts';
import { EVENT_CATALOGUE, EVENT_NAMES } from '../../events/catalogue.ts';
import { ApiError, bareError, badRequest, type Reply } from '../../http.ts';
import type { HttpMethod } from '../../http.ts';
import type { Handler, Route } from '../../routes.ts';
import type { SandboxStore } from '../../store.ts';
import { validate } from '../../validation.ts';
import { deleteBody, keyOf, ownerBody, programQuery, subscribeBody, updateBody } from './schemas.ts';
import { identityKey, type SubscriptionIdentity, type SubscriptionRecord } from './types.ts';

/**
 * Endpoints 46 to 50 of Document 3: x-api-key and Content-Type only, no envelope. Errors are
 * `{ message, status: "ERROR" }`; a field's message is `<field>: <rule>`. The retired paths
 * under /svc/api/v1/webhook/ are not routed, so they answer 404 like any unknown path.
 */
const route = (method: HttpMethod, path: string, handler: Handler): Route => ({
  method,
  path,
  headers: 'webhook',
  errors: bareError,
  handler,
});

const check = <S extends z.ZodType>(schema: S, input: unknown): z.output<S> => validate(schema, input, ': ');

const success = (message: string): Reply => json({ message, status: 'SUCCESS' });

function findSubscription(store: SandboxStore, identity: SubscriptionIdentity): SubscriptionRecord {
  const record = store.webhookSubscriptions.get(identityKey(identity));
  if (record === undefined) throw new ApiError(404, 'Subscription not found');
  return record;
}

/**
 * Section 2.1; times in HTTP-date form, sl_no the position in the answer. webhook_url, sender_email
 * and x_api_key are strings (only updated_by may be null): what a type does not use is "", and a
 * notification without a whitelisted sender shows the default sender its e-mails come from.
 */
function subscriptionView(record: SubscriptionRecord, index: number) {
  return {
    agent_code: record.agent_code,
    subagent_code: record.subagent_code,
    company_code: record.company_code,
    program_code: record.program_code,
    event_name: record.event_name,
    subscription_type: record.subscription_type,
    webhook_url: record.webhook_url ?? '',
    sender_email: record.sender_email ?? (record.subscription_type === 'n' ? DEFAULT_SENDER : ''),
    x_api_key: record.x_api_key ?? '',
    created_by: record.created_by,
    updated_by: record.updated_by,
    created_time: new Date(record.createdAt).toUTCString(),
    updated_time: new Date(record.updatedAt).toUTCString(),
    sl_no: index + 1,
  };
}

/** Endpoint 46: program_code is the product identifier the client sends as x-product-id. */
const getAllWebhooks = route('GET', '/getallwebhooks', ({ query, runtime }) => {
  const { program_code } = check(programQuery, query);
  if (program_code !== runtime.credentials.productId) throw badRequest('program_code: must be the product id');
  const data = EVENT_NAMES.map((name) => ({ event_description: EVENT_CATALOGUE[name], event_name: name, program_code }));
  return json({ data, status: 'success' });
});

/** Endpoint 47: one subscription per identity. */
const subscribe = route('POST', '/api/subscribe', ({ body, runtime }) => {
  const input = check(subscribeBody, body);
  const { store } = runtime;
  const key = identityKey(input);
  if (store.webhookSubscriptions.has(key)) throw badRequest('subscription already exists');
  const now = runtime.clock.now().getTime();
  store.webhookSubscriptions.set(key, {
    event_name: input.event_name,
    agent_code: input.agent_code,
    subagent_code: input.subagent_code,
    program_code: input.program_code,
    company_code: input.company_code,
    subscription_type: input.subscription_type,
    webhook_url: input.webhook_url ?? null,
    sender_email: input.sender_email ?? null,
    x_api_key: keyOf(input) ?? null,
    created_by: input.created_by,
    updated_by: null,
    createdAt: now,
    updatedAt: now,
  });
  return success('Subscribed successfully');
});

/** Endpoint 48: the subscriptions of an agent and subagent in the program, oldest first. */
const subscribedWebhooks = route('POST', '/api/subscribedwebhook', ({ body, query, runtime }) => {
  const { program_code } = check(programQuery, query);
  const owner = check(ownerBody, body);
  const records = [...runtime.store.webhookSubscriptions.values()].filter(
    (record) =>
      record.program_code === program_code && record.agent_code === owner.agent_code && record.subagent_code === owner.subagent_code,
  );
  return json(records.map(subscriptionView));
});

/** Endpoint 49: an optional field left out keeps its stored value; null clears it. */
const updateSubscription = route('PATCH', '/api/subscribe', ({ body, runtime }) => {
  const input = check(updateBody, body);
  const record = findSubscription(runtime.store, input);
  const key = keyOf(input);
  Object.assign(record, {
    subscription_type: input.subscription_type,
    webhook_url: input.webhook_url === undefined ? record.webhook_url : input.webhook_url,
    sender_email: input.sender_email === undefined ? record.sender_email : input.sender_email,
    x_api_key: key === undefined ? record.x_api_key : key,
    updated_by: input.updated_by,
    updatedAt: runtime.clock.now().getTime(),
  });
  return success('Subscription updated successfully');
});

/** Endpoint 50. */
const deleteSubscription = route('DELETE', '/api/subscribe', ({ body, runtime }) => {
  const record = findSubscription(runtime.store, check(deleteBody, body));
  runtime.store.webhookSubscriptions.delete(identityKey(record));
  return success('Subscription deleted successfully');
});

export const webhookRoutes: readonly Route[] = [getAllWebhooks, subscribe, subscribedWebhooks, updateSubscription, deleteSubscription];
