import { describe, expect, it } from 'vitest';
import { ensureWebhookSubscriptions } from '../../src/events/webhook-reconciler.ts';
import { DEMO_CREDENTIALS } from '@banking-gateway/sandbox';
import {
  WebhookCatalogueDocument,
  WebhookSubscriptionCreateDocument,
  WebhookSubscriptionDeleteDocument,
  WebhookSubscriptionsDocument,
  WebhookSubscriptionUpdateDocument,
  type WebhookSubscriptionCreateInput,
  type WebhookSubscriptionCreateMutation,
  type WebhookSubscriptionUpdateInput,
} from '../generated/graphql.ts';
import { startKit, useKit, type Kit } from '../helpers/kit.ts';
import { call } from '../../sandbox/test/helpers.ts';

/**
 * Webhook subscription management (Document 3, 2.1, 2.2, 4.1) through GraphQL, and the gateway's
 * own subscription at start-up, against the sandbox. Upstream calls are counted from its request log.
 */

const CODES = { agentCode: 'AG-WH-01', subagentCode: 'SUB-WH-01', companyCode: 'CO-WH-01' };
const kit = useKit({ webhooks: CODES });

/** A second gateway over its own sandbox, configured with `codes` only, for the "no default" cases. */
async function withCodes<T>(codes: Partial<typeof CODES>, run: (other: Kit) => Promise<T>): Promise<T> {
  const other = await startKit({ webhooks: { agentCode: undefined, subagentCode: undefined, companyCode: undefined, ...codes } });
  try {
    return await run(other);
  } finally {
    await other.close();
  }
}

const CATALOGUE_PATH = '/getallwebhooks';
const LIST_PATH = '/api/subscribedwebhook';
const SUBSCRIBE_PATH = '/api/subscribe';
const PROGRAM = DEMO_CREDENTIALS.productId;

const KEY = 'whk-live-7f3a9c1e5b2d4abcd';
const MASKED = '••••••••abcd';
const OTHER_KEY = 'whk-live-0c4e8a2f6d1b9wxyz';

/** A call to webhook management as the document has it: x-api-key and Content-Type only. */
async function raw(method: string, path: string, options: { query?: Record<string, string>; body?: unknown } = {}) {
  return call(kit.sandbox, path, {
    method,
    headers: { 'x-api-key': DEMO_CREDENTIALS.apiKey, 'content-type': 'application/json' },
    ...options,
  });
}

async function rawCatalogue(): Promise<{ event_name: string; event_description: string; program_code: string }[]> {
  const response = await raw('GET', CATALOGUE_PATH, { query: { program_code: PROGRAM } });
  expect(response.status).toBe(200);
  return response.body.data;
}

async function rawSubscriptions(codes: { agentCode: string; subagentCode: string } = CODES): Promise<any[]> {
  const response = await raw('POST', LIST_PATH, {
    query: { program_code: PROGRAM },
    body: { agent_code: codes.agentCode, subagent_code: codes.subagentCode },
  });
  expect(response.status).toBe(200);
  return response.body;
}

async function rawSubscribe(fields: Record<string, string>): Promise<void> {
  const response = await raw('POST', SUBSCRIBE_PATH, {
    body: {
      agent_code: CODES.agentCode,
      subagent_code: CODES.subagentCode,
      company_code: CODES.companyCode,
      program_code: PROGRAM,
      created_by: 'Test Setup',
      ...fields,
    },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

/** Write calls of webhook management since the last count reset. */
function writes(): ReturnType<Kit['calls']> {
  return kit.calls(SUBSCRIBE_PATH);
}

const HOOK: WebhookSubscriptionCreateInput = {
  eventName: 'conversion.settled',
  type: 'WEBHOOK',
  url: 'https://ops.acme.example/hooks/conversions',
  apiKey: KEY,
  createdBy: 'Jane Doe',
};

type Created = Extract<
  WebhookSubscriptionCreateMutation['webhookSubscriptionCreate'],
  { __typename: 'WebhookSubscriptionCreateSuccess' }
>['subscription'];

async function create(input: WebhookSubscriptionCreateInput = HOOK): Promise<Created> {
  const result = await kit.execute(WebhookSubscriptionCreateDocument, { input });
  const outcome = result.data?.webhookSubscriptionCreate;
  if (outcome?.__typename !== 'WebhookSubscriptionCreateSuccess') throw new Error(`create failed: ${JSON.stringify(result)}`);
  return outcome.subscription;
}

describe('webhook catalogue', () => {
  it('lists every subscribable event of the program, read from the bank without a token', async () => {
    const catalogue = await rawCatalogue();
    await kit.resetCounts();
    const result = await kit.execute(WebhookCatalogueDocument);
    expect(result.errors).toBeUndefined();
    expect(result.data!.webhookCatalogue).toEqual(
      catalogue.map((e) => ({ eventName: e.event_name, description: e.event_description, programCode: e.program_code })),
    );
    const names = result.data!.webhookCatalogue!.map((e) => e.eventName);
    // Section 2.2's table.
    for (const name of [
      'account.submitted',
      'conversion.settled',
      'ga.new',
      'issuing.card.active',
      'issuing.cardholder.ready',
      'rfi.action_required',
    ]) {
      expect(names).toContain(name);
    }
    expect(result.data!.webhookCatalogue!.find((e) => e.eventName === 'conversion.settled')).toMatchObject({
      description: 'Currency Conversion',
      programCode: PROGRAM,
    });
    expect(kit.sandbox.requests().map((r) => [r.method, r.path, r.query])).toEqual([['GET', CATALOGUE_PATH, { program_code: PROGRAM }]]);
  });

  describe('with no gateway credentials and no bearer token', () => {
    const bare = useKit({ gatewayCredentials: false, webhooks: CODES });

    it('still reads and writes webhook management, which takes only x-api-key', async () => {
      const catalogue = await bare.execute(WebhookCatalogueDocument);
      expect(catalogue.errors).toBeUndefined();
      expect(catalogue.data!.webhookCatalogue!.length).toBeGreaterThan(0);
      const created = await bare.execute(WebhookSubscriptionCreateDocument, { input: HOOK });
      expect(created.data!.webhookSubscriptionCreate.__typename).toBe('WebhookSubscriptionCreateSuccess');
      expect(bare.calls('/api/v1/authentication/login')).toEqual([]);
    });
  });
});

describe('webhook subscriptions: reads', () => {
  it('lists the subscriptions under the configured codes, keys masked, fields mapped', async () => {
    await rawSubscribe({ event_name: 'conversion.settled', subscription_type: 'w', webhook_url: HOOK.url!, x_api_key: KEY });
    await rawSubscribe({ event_name: 'issuing.card.active', subscription_type: 'n', sender_email: 'alerts@acme.example' });
    const stored = await rawSubscriptions();
    // The bank stores and answers the key in full: only the gateway masks it.
    expect(JSON.stringify(stored)).toContain(KEY);
    await kit.resetCounts();

    const result = await kit.execute(WebhookSubscriptionsDocument, {});
    expect(result.errors).toBeUndefined();
    const subscriptions = result.data!.webhookSubscriptions;
    expect(subscriptions).toHaveLength(2);
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect(JSON.stringify(result)).not.toContain(KEY.slice(0, -4));
    for (const [i, record] of stored.entries()) {
      const subscription = subscriptions![i]!;
      expect(subscription).toEqual({
        eventName: record.event_name,
        type: record.subscription_type === 'w' ? 'WEBHOOK' : 'NOTIFICATION',
        url: record.webhook_url || null,
        senderEmail: record.sender_email || null,
        maskedApiKey: record.x_api_key ? MASKED : null,
        agentCode: CODES.agentCode,
        subagentCode: CODES.subagentCode,
        programCode: PROGRAM,
        companyCode: CODES.companyCode,
        createdBy: 'Test Setup',
        updatedBy: null,
        createdAt: new Date(record.created_time).toISOString(),
        updatedAt: record.updated_time ? new Date(record.updated_time).toISOString() : null,
        serialNumber: record.sl_no,
      });
    }
    expect(subscriptions!.find((s) => s.eventName === 'conversion.settled')).toMatchObject({ type: 'WEBHOOK', maskedApiKey: MASKED });
    expect(subscriptions!.find((s) => s.eventName === 'issuing.card.active')).toMatchObject({
      type: 'NOTIFICATION',
      senderEmail: 'alerts@acme.example',
    });
    // One read: POST with the codes in the body and the product id as program_code.
    expect(kit.sandbox.requests().map((r) => [r.method, r.path, r.query])).toEqual([['POST', LIST_PATH, { program_code: PROGRAM }]]);
  });

  it('takes other agent and sub-agent codes as arguments', async () => {
    await rawSubscribe({ event_name: 'ga.new', subscription_type: 'n', agent_code: 'AG-OTHER', subagent_code: 'SUB-OTHER' });
    const configured = await kit.execute(WebhookSubscriptionsDocument, {});
    expect(configured.data!.webhookSubscriptions).toEqual([]);
    const other = await kit.execute(WebhookSubscriptionsDocument, { agentCode: 'AG-OTHER', subagentCode: 'SUB-OTHER' });
    expect(other.data!.webhookSubscriptions!.map((s) => [s.eventName, s.agentCode, s.subagentCode])).toEqual([
      ['ga.new', 'AG-OTHER', 'SUB-OTHER'],
    ]);
  });

  it('is a BAD_USER_INPUT naming each code when neither given nor configured, with no upstream call', async () => {
    await withCodes({}, async (other) => {
      const result = await other.execute(WebhookSubscriptionsDocument, {});
      expect(result.errors?.[0]?.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        issues: [
          { path: ['agentCode'], message: 'is required: no default is configured (WEBHOOK_AGENT_CODE)' },
          { path: ['subagentCode'], message: 'is required: no default is configured (WEBHOOK_SUBAGENT_CODE)' },
        ],
      });
      expect(other.sandbox.requests()).toEqual([]);
    });
  });
});

describe('webhook subscriptions: writes', () => {
  it('creates a webhook subscription under the configured codes and reads it back, key masked', async () => {
    const result = await kit.execute(WebhookSubscriptionCreateDocument, { input: HOOK });
    expect(JSON.stringify(result)).not.toContain(KEY);
    const outcome = result.data!.webhookSubscriptionCreate;
    expect(outcome).toMatchObject({
      __typename: 'WebhookSubscriptionCreateSuccess',
      subscription: {
        eventName: 'conversion.settled',
        type: 'WEBHOOK',
        url: HOOK.url,
        maskedApiKey: MASKED,
        ...CODES,
        programCode: PROGRAM,
        createdBy: 'Jane Doe',
        updatedBy: null,
      },
    });
    expect(Date.parse((outcome as { subscription: Created }).subscription.createdAt!)).not.toBeNaN();
    // The write, then one read to answer with the subscription as the bank holds it.
    expect(kit.calls().map((c) => `${c.method} ${c.path}`)).toEqual([`POST ${SUBSCRIBE_PATH}`, `POST ${LIST_PATH}`]);
    // The bank got the key in full, under the documented field names.
    const [stored] = await rawSubscriptions();
    expect(stored).toMatchObject({
      event_name: 'conversion.settled',
      subscription_type: 'w',
      webhook_url: HOOK.url,
      x_api_key: KEY,
      program_code: PROGRAM,
      company_code: CODES.companyCode,
      created_by: 'Jane Doe',
    });
  });

  it('creates a notification subscription with a sender address', async () => {
    const subscription = await create({
      eventName: 'issuing.cardholder.ready',
      type: 'NOTIFICATION',
      senderEmail: 'alerts@acme.example',
      companyCode: 'CO-EXPLICIT',
      createdBy: 'Jane Doe',
    });
    expect(subscription).toMatchObject({
      type: 'NOTIFICATION',
      url: null,
      maskedApiKey: null,
      senderEmail: 'alerts@acme.example',
      companyCode: 'CO-EXPLICIT',
    });
  });

  it('checks the conditional and format rules before anything is sent', async () => {
    const cases: [WebhookSubscriptionCreateInput, string[], string][] = [
      [{ ...HOOK, url: null }, ['input', 'url'], 'is required for a WEBHOOK subscription'],
      [{ ...HOOK, apiKey: undefined }, ['input', 'apiKey'], 'is required for a WEBHOOK subscription'],
      [{ ...HOOK, type: 'NOTIFICATION', apiKey: null }, ['input', 'url'], 'must not be given for a NOTIFICATION subscription'],
      [{ ...HOOK, type: 'NOTIFICATION', url: null }, ['input', 'apiKey'], 'must not be given for a NOTIFICATION subscription'],
      [{ ...HOOK, url: 'ftp://ops.acme.example/hooks' }, ['input', 'url'], 'must be an http(s) URL'],
      [{ ...HOOK, senderEmail: 'alerts.acme.example' }, ['input', 'senderEmail'], 'must be an e-mail address'],
      [{ ...HOOK, eventName: '  ' }, ['input', 'eventName'], 'must not be blank'],
      [{ ...HOOK, createdBy: '' }, ['input', 'createdBy'], 'must not be blank'],
    ];
    for (const [input, path, message] of cases) {
      const result = await kit.execute(WebhookSubscriptionCreateDocument, { input });
      expect(result.data!.webhookSubscriptionCreate, JSON.stringify(input)).toMatchObject({
        __typename: 'ValidationError',
        issues: [{ path, message }],
      });
    }
    const both = await kit.execute(WebhookSubscriptionCreateDocument, { input: { ...HOOK, url: null, apiKey: null } });
    expect(both.data!.webhookSubscriptionCreate).toMatchObject({
      __typename: 'ValidationError',
      issues: [{ path: ['input', 'url'] }, { path: ['input', 'apiKey'] }],
    });

    const update = await kit.execute(WebhookSubscriptionUpdateDocument, {
      input: { eventName: 'conversion.settled', type: 'WEBHOOK', url: HOOK.url, updatedBy: 'Jane Doe' },
    });
    expect(update.data!.webhookSubscriptionUpdate).toMatchObject({
      __typename: 'ValidationError',
      issues: [{ path: ['input', 'apiKey'], message: 'is required for a WEBHOOK subscription' }],
    });

    expect(kit.sandbox.requests()).toEqual([]);
    await withCodes({ agentCode: CODES.agentCode, subagentCode: CODES.subagentCode }, async (other) => {
      const noCompany = await other.execute(WebhookSubscriptionDeleteDocument, { input: { eventName: 'conversion.settled' } });
      expect(noCompany.data!.webhookSubscriptionDelete).toMatchObject({
        __typename: 'ValidationError',
        issues: [{ path: ['input', 'companyCode'], message: 'is required: no default is configured (WEBHOOK_COMPANY_CODE)' }],
      });
      expect(other.sandbox.requests()).toEqual([]);
    });
  });

  it('returns the bank refusing a duplicate as an UpstreamRejection', async () => {
    await create();
    await kit.resetCounts();
    const result = await kit.execute(WebhookSubscriptionCreateDocument, { input: { ...HOOK, apiKey: OTHER_KEY }, idempotencyKey: 'dup-1' });
    expect(result.data!.webhookSubscriptionCreate).toEqual({
      __typename: 'UpstreamRejection',
      message: 'subscription already exists',
      upstreamStatus: 400,
      upstreamMessage: 'subscription already exists',
      // Not sent (webhook management has no x-request-id), but it names the call.
      requestId: 'dup-1',
    });
    expect(JSON.stringify(result)).not.toContain(OTHER_KEY);
    expect(writes()).toEqual([expect.objectContaining({ method: 'POST', status: 400 })]);
    const [stored] = await rawSubscriptions();
    expect(stored.x_api_key).toBe(KEY);
  });

  it('updates url and key, then turns the subscription into a notification', async () => {
    await create();
    const change: WebhookSubscriptionUpdateInput = {
      eventName: 'conversion.settled',
      type: 'WEBHOOK',
      url: 'https://ops.acme.example/hooks/v2',
      apiKey: OTHER_KEY,
      senderEmail: 'ops@acme.example',
      updatedBy: 'Sam Lee',
    };
    const updated = await kit.execute(WebhookSubscriptionUpdateDocument, { input: change });
    expect(JSON.stringify(updated)).not.toContain(OTHER_KEY);
    expect(updated.data!.webhookSubscriptionUpdate).toMatchObject({
      __typename: 'WebhookSubscriptionUpdateSuccess',
      subscription: {
        type: 'WEBHOOK',
        url: change.url,
        maskedApiKey: '••••••••wxyz',
        senderEmail: 'ops@acme.example',
        updatedBy: 'Sam Lee',
        createdBy: 'Jane Doe',
      },
    });
    const after = (updated.data!.webhookSubscriptionUpdate as { subscription: Created }).subscription;
    expect(after.updatedAt).not.toBeNull();
    expect((await rawSubscriptions())[0]).toMatchObject({ webhook_url: change.url, x_api_key: OTHER_KEY, updated_by: 'Sam Lee' });

    // The complete record goes out: the webhook's url and key are cleared, not left to how the bank
    // reads an omitted field (the sandbox keeps omitted ones); sender and creator stay as stored.
    const notification = await kit.execute(WebhookSubscriptionUpdateDocument, {
      input: { eventName: 'conversion.settled', type: 'NOTIFICATION', updatedBy: 'Sam Lee' },
    });
    expect(notification.data!.webhookSubscriptionUpdate).toMatchObject({
      __typename: 'WebhookSubscriptionUpdateSuccess',
      subscription: {
        type: 'NOTIFICATION',
        url: null,
        maskedApiKey: null,
        senderEmail: 'ops@acme.example',
        createdBy: 'Jane Doe',
        updatedBy: 'Sam Lee',
      },
    });
    const [stored] = await rawSubscriptions();
    expect(stored).toMatchObject({ subscription_type: 'n', sender_email: 'ops@acme.example', created_by: 'Jane Doe' });
    expect(stored.webhook_url || null).toBeNull();
    expect(stored.x_api_key || null).toBeNull();
    expect(writes().map((c) => c.method)).toEqual(['POST', 'PATCH', 'PATCH']);
  });

  it('returns an update of a subscription the bank does not have as an UpstreamRejection', async () => {
    const result = await kit.execute(WebhookSubscriptionUpdateDocument, {
      input: { eventName: 'ga.new', type: 'NOTIFICATION', updatedBy: 'Sam Lee' },
    });
    expect(result.data!.webhookSubscriptionUpdate).toMatchObject({
      __typename: 'UpstreamRejection',
      upstreamStatus: 404,
      upstreamMessage: 'Subscription not found',
    });
  });

  it('deletes a subscription; deleting it again is refused', async () => {
    await create();
    const deleted = await kit.execute(WebhookSubscriptionDeleteDocument, { input: { eventName: 'conversion.settled' } });
    expect(deleted.data!.webhookSubscriptionDelete).toEqual({
      __typename: 'WebhookSubscriptionDeleteSuccess',
      result: { eventName: 'conversion.settled', ...CODES, programCode: PROGRAM },
    });
    expect(await rawSubscriptions()).toEqual([]);
    const again = await kit.execute(WebhookSubscriptionDeleteDocument, { input: { eventName: 'conversion.settled' } });
    expect(again.data!.webhookSubscriptionDelete).toMatchObject({ __typename: 'UpstreamRejection', upstreamStatus: 404 });
    expect(writes().map((c) => c.method)).toEqual(['POST', 'DELETE', 'DELETE']);
  });
});

describe('ensureWebhookSubscriptions', () => {
  const PUBLIC_URL = 'https://gateway.acme.example';
  const TARGET = `${PUBLIC_URL}/webhooks`;
  const GATEWAY_KEY = 'gateway-intake-key-5e1f0001';
  const config = { publicUrl: PUBLIC_URL, apiKey: GATEWAY_KEY, ...CODES };
  const ensure = (overrides: Partial<typeof config> = {}) =>
    ensureWebhookSubscriptions({
      upstream: kit.gateway.upstream,
      programCode: kit.upstreamConfig.productId,
      webhooks: { ...config, ...overrides },
    });

  it('subscribes every catalogue event to the gateway, and a second run writes nothing', async () => {
    const events = (await rawCatalogue()).map((e) => e.event_name);
    await kit.resetCounts();

    const first = await ensure();
    expect(first).toEqual({ created: events, updated: [], unchanged: [], failed: [], skipped: null });
    expect(writes()).toHaveLength(events.length);
    const stored = await rawSubscriptions();
    expect(stored.map((s) => s.event_name).sort()).toEqual([...events].sort());
    for (const s of stored) {
      expect(s).toMatchObject({ subscription_type: 'w', webhook_url: TARGET, x_api_key: GATEWAY_KEY, company_code: CODES.companyCode });
    }

    await kit.resetCounts();
    const second = await ensure();
    expect(second).toEqual({ created: [], updated: [], unchanged: events, failed: [], skipped: null });
    expect(writes()).toEqual([]);
    // One read only: the current subscriptions. The catalogue is reference data, cached for 5 minutes.
    expect(kit.calls().map((c) => `${c.method} ${c.path}`)).toEqual([`POST ${LIST_PATH}`]);
  });

  it('updates subscriptions that are notifications, point elsewhere or carry another key, and leaves the rest', async () => {
    const events = (await rawCatalogue()).map((e) => e.event_name);
    const [notification, elsewhere, otherKey, sameTail, right] = events as [string, string, string, string, string];
    await rawSubscribe({ event_name: notification, subscription_type: 'n' });
    await rawSubscribe({
      event_name: elsewhere,
      subscription_type: 'w',
      webhook_url: 'https://old.acme.example/webhooks',
      x_api_key: GATEWAY_KEY,
    });
    await rawSubscribe({ event_name: otherKey, subscription_type: 'w', webhook_url: TARGET, x_api_key: OTHER_KEY });
    // Masks alike (same last four characters), yet another key: still noticed.
    await rawSubscribe({ event_name: sameTail, subscription_type: 'w', webhook_url: TARGET, x_api_key: 'rotated-away-key-9a8b0001' });
    await rawSubscribe({ event_name: right, subscription_type: 'w', webhook_url: TARGET, x_api_key: GATEWAY_KEY });
    // Another company's subscription of the same event is not ours to change.
    await rawSubscribe({ event_name: right, subscription_type: 'n', company_code: 'CO-SOMEONE-ELSE' });
    await kit.resetCounts();

    const summary = await ensure();
    expect(summary.updated).toEqual([notification, elsewhere, otherKey, sameTail]);
    expect(summary.unchanged).toEqual([right]);
    expect(summary.created).toEqual(events.slice(5));
    expect(writes().filter((c) => c.method === 'PATCH')).toHaveLength(4);
    const stored = await rawSubscriptions();
    for (const s of stored.filter((s) => s.company_code === CODES.companyCode)) {
      expect(s).toMatchObject({ subscription_type: 'w', webhook_url: TARGET, x_api_key: GATEWAY_KEY });
    }
    expect(stored.find((s) => s.company_code === 'CO-SOMEONE-ELSE')).toMatchObject({ event_name: right, subscription_type: 'n' });

    await kit.resetCounts();
    expect(await ensure()).toMatchObject({ created: [], updated: [], unchanged: events });
    expect(writes()).toEqual([]);
  });

  it('does nothing without a public URL and key, or without the codes', async () => {
    expect(await ensure({ publicUrl: undefined })).toMatchObject({ created: [], updated: [], unchanged: [], skipped: expect.any(String) });
    expect(await ensure({ apiKey: undefined })).toMatchObject({ skipped: expect.any(String) });
    expect(await ensure({ companyCode: undefined })).toMatchObject({ skipped: expect.stringContaining('WEBHOOK_COMPANY_CODE') });
    expect(kit.sandbox.requests()).toEqual([]);
  });
});
