import { encodeGlobalID } from '@pothos/plugin-relay';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logger.ts';
import { DEMO_CREDENTIALS } from '@banking-gateway/sandbox';
import {
  CardUpdateDocument,
  WebhookSubscriptionCreateDocument,
  WebhookSubscriptionDeleteDocument,
  WebhookSubscriptionUpdateDocument,
} from '../generated/graphql.ts';
import { KIT_WEBHOOKS, useKit } from '../helpers/kit.ts';
import { call } from '../../sandbox/test/helpers.ts';
import { subscribeWs } from '../helpers/subscribe.ts';

/**
 * The gateway keeps its own webhook subscriptions filed at the bank, as `npm start` runs it: at
 * start, at once after a sandbox reset (which drops them), and on its interval when something
 * removed or changed one. It says so in the log once when it finds one missing, once when fixed, and
 * on /readyz; and it refuses writes to them through the graph.
 */
const CODES = { agentCode: 'AG-REC', subagentCode: 'SUB-REC', companyCode: 'CO-REC' };
const lines: { level: number; msg: string; [key: string]: unknown }[] = [];
const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) });
const kit = useKit({ listen: true, reconcileWebhooks: true, logger, webhooks: { ...CODES, reconcileIntervalMs: 250 } });

const PROGRAM = DEMO_CREDENTIALS.productId;
const SUBSCRIBE_PATH = '/api/subscribe';
const LIST_PATH = '/api/subscribedwebhook';

function raw(method: string, path: string, options: { query?: Record<string, string>; body?: unknown } = {}) {
  return call(kit.sandbox, path, {
    method,
    headers: { 'x-api-key': DEMO_CREDENTIALS.apiKey, 'content-type': 'application/json' },
    ...options,
  });
}

async function stored(): Promise<{ event_name: string; webhook_url: string | null; subscription_type: string; company_code: string }[]> {
  const response = await raw('POST', LIST_PATH, {
    query: { program_code: PROGRAM },
    body: { agent_code: CODES.agentCode, subagent_code: CODES.subagentCode },
  });
  return response.body;
}

const identity = (eventName: string) => ({
  event_name: eventName,
  agent_code: CODES.agentCode,
  subagent_code: CODES.subagentCode,
  program_code: PROGRAM,
  company_code: CODES.companyCode,
});
const writes = () => kit.calls().filter((c) => c.path === SUBSCRIBE_PATH);
const logged = (pattern: RegExp) => lines.filter((line) => pattern.test(line.msg));
const readyz = async () => {
  const response = await fetch(`${kit.baseUrl}/readyz`);
  return {
    status: response.status,
    body: (await response.json()) as {
      status: string;
      detail: string;
      checks: { webhooks: { ok: boolean; uncovered: string[]; detail: string } };
    },
  };
};
const catalogue = async (): Promise<string[]> =>
  (await raw('GET', '/getallwebhooks', { query: { program_code: PROGRAM } })).body.data.map((e: { event_name: string }) => e.event_name);

describe("the gateway's own webhook subscriptions", () => {
  it('are filed for every catalogue event, to this gateway with its key, and a pass over them writes nothing', async () => {
    const names = await catalogue();
    const subscriptions = await stored();
    expect(subscriptions.map((s) => s.event_name).sort()).toEqual([...names].sort());
    for (const s of subscriptions) expect(s).toMatchObject({ subscription_type: 'w', webhook_url: `${kit.baseUrl}/webhooks` });

    await kit.resetCounts();
    expect(await kit.gateway.webhookReconciler.reconcileNow('test')).toMatchObject({ created: [], updated: [], failed: [] });
    expect(writes()).toEqual([]);
    expect((await readyz()).body.checks.webhooks).toMatchObject({ ok: true, uncovered: [] });
  });

  it('come back at once after a sandbox reset, and live updates still reach subscribers', async () => {
    const before = logged(/filed again/).length;
    await raw('POST', '/sandbox/reset');
    // The reset hook filed them again before anything else could happen.
    await kit.gateway.webhookReconciler.idle();
    expect((await stored()).length).toBe((await catalogue()).length);

    const updates = await subscribeWs(kit, 'subscription { cardStatusChanged { status } }');
    const cardId = encodeGlobalID('Card', 'crd_demo_ava_v');
    await kit.execute(CardUpdateDocument, { input: { cardId, status: 'INACTIVE', updatedBy: 'Jane Doe' } });
    expect(await updates.next(1)).toEqual([{ data: { cardStatusChanged: { status: 'INACTIVE' } } }]);
    await updates.close();
    expect(logged(/filed again/).length).toBe(before + 1);
  });

  it('files one deleted and one redirected subscription again on the next interval, saying so once each way', async () => {
    await raw('DELETE', SUBSCRIBE_PATH, { body: identity('conversion.settled') });
    await raw('PATCH', SUBSCRIBE_PATH, {
      body: {
        ...identity('ga.new'),
        subscription_type: 'w',
        webhook_url: 'https://elsewhere.example/hooks',
        x_api_key: KIT_WEBHOOKS.apiKey,
        updated_by: 'someone',
      },
    });
    const [found, fixed] = [logged(/missing or wrong/).length, logged(/filed again/).length];

    await expect
      .poll(async () => (await stored()).find((s) => s.event_name === 'conversion.settled')?.webhook_url)
      .toBe(`${kit.baseUrl}/webhooks`);
    await expect.poll(async () => (await stored()).find((s) => s.event_name === 'ga.new')?.webhook_url).toBe(`${kit.baseUrl}/webhooks`);
    // Several more passes: nothing more is said. Each subscription is named once when found and once
    // when fixed: in one line, or in two when a pass ran between the DELETE and the PATCH.
    await new Promise((resolve) => setTimeout(resolve, 800));
    const foundNow = logged(/missing or wrong/).slice(found);
    const fixedNow = logged(/filed again/).slice(fixed);
    const named = (lines: typeof foundNow) => lines.flatMap((line) => line.eventNames as string[]).sort();
    expect(named(foundNow)).toEqual(['conversion.settled', 'ga.new']);
    expect(named(fixedNow)).toEqual(['conversion.settled', 'ga.new']);
    for (const line of foundNow) expect(line).toMatchObject({ level: 40, reason: 'interval' });
    for (const line of fixedNow) expect(line).toMatchObject({ level: 30 });
  });

  it('reports an event it cannot file on /readyz as degraded (still 200), once in the log, and clears when it can', async () => {
    await kit.control('POST', 'faults', { kind: 'status', status: 500, rate: 1, method: 'POST', path: SUBSCRIBE_PATH });
    await raw('DELETE', SUBSCRIBE_PATH, { body: identity('issuing.card.active') });
    const failedBefore = logged(/could not be filed/).length;

    await expect.poll(async () => (await readyz()).body.checks.webhooks.uncovered).toEqual(['issuing.card.active']);
    const degraded = await readyz();
    expect(degraded.status).toBe(200);
    expect(degraded.body.status).toBe('degraded');
    expect(degraded.body.detail).toBe('webhooks: no subscription delivers these events here: issuing.card.active');
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(logged(/could not be filed/).length).toBe(failedBefore + 1);

    await kit.control('DELETE', 'faults');
    await expect
      .poll(async () => (await readyz()).body)
      .toMatchObject({ status: 'ready', checks: { webhooks: { ok: true, uncovered: [] } } });
  });

  it('says once that it cannot check while the bank does not list subscriptions, and once that it can again', async () => {
    const [failing, back] = [logged(/cannot be checked/).length, logged(/can be checked again/).length];
    await kit.control('POST', 'faults', { kind: 'status', status: 503, rate: 1, path: LIST_PATH });
    await expect.poll(async () => (await readyz()).body.checks.webhooks.ok).toBe(false);
    expect((await readyz()).body.checks.webhooks.detail).toMatch(/^the gateway's webhook subscriptions cannot be checked: /);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(logged(/cannot be checked/).length).toBe(failing + 1);
    await kit.control('DELETE', 'faults');
    await expect.poll(async () => (await readyz()).body.checks.webhooks.ok).toBe(true);
    expect(logged(/can be checked again/).length).toBe(back + 1);
  });
});

describe("writes to the gateway's own subscriptions through the graph", () => {
  it('are refused with WebhookSubscriptionReserved and nothing sent; the same under another company code work', async () => {
    await kit.gateway.webhookReconciler.idle();
    await kit.resetCounts();
    const reserved = {
      __typename: 'WebhookSubscriptionReserved',
      message: expect.stringContaining("is the gateway's own subscription"),
    };
    const update = await kit.execute(WebhookSubscriptionUpdateDocument, {
      input: { eventName: 'conversion.settled', type: 'NOTIFICATION', updatedBy: 'Sam Lee' },
    });
    expect(update.data!.webhookSubscriptionUpdate).toMatchObject(reserved);
    const remove = await kit.execute(WebhookSubscriptionDeleteDocument, { input: { eventName: 'conversion.settled' } });
    expect(remove.data!.webhookSubscriptionDelete).toMatchObject(reserved);
    const create = await kit.execute(WebhookSubscriptionCreateDocument, {
      input: {
        eventName: 'conversion.settled',
        type: 'WEBHOOK',
        url: 'https://ops.acme.example/hooks',
        apiKey: 'ops-hook-key-00000001',
        createdBy: 'Sam Lee',
      },
    });
    expect(create.data!.webhookSubscriptionCreate).toMatchObject(reserved);
    expect(writes()).toEqual([]);
    expect((update.data!.webhookSubscriptionUpdate as { message: string }).message).toContain('give another companyCode');

    const own = { eventName: 'conversion.settled', companyCode: 'ops-team' };
    const created = await kit.execute(WebhookSubscriptionCreateDocument, {
      input: { ...own, type: 'WEBHOOK', url: 'https://ops.acme.example/hooks', apiKey: 'ops-hook-key-00000001', createdBy: 'Sam Lee' },
    });
    expect(created.data!.webhookSubscriptionCreate.__typename).toBe('WebhookSubscriptionCreateSuccess');
    const updated = await kit.execute(WebhookSubscriptionUpdateDocument, { input: { ...own, type: 'NOTIFICATION', updatedBy: 'Sam Lee' } });
    expect(updated.data!.webhookSubscriptionUpdate.__typename).toBe('WebhookSubscriptionUpdateSuccess');
    const deleted = await kit.execute(WebhookSubscriptionDeleteDocument, { input: own });
    expect(deleted.data!.webhookSubscriptionDelete.__typename).toBe('WebhookSubscriptionDeleteSuccess');
    // The gateway's own subscription of the event is untouched.
    expect((await stored()).find((s) => s.event_name === 'conversion.settled' && s.company_code === CODES.companyCode)).toMatchObject({
      subscription_type: 'w',
      webhook_url: `${kit.baseUrl}/webhooks`,
    });
  });
});
