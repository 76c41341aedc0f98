import { describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS } from '../src/index.ts';
import { advanceMinutes, call, useSandbox } from './helpers.ts';
import { HOOK_KEY, SUBSCRIBE_PATH, bareError, bareSuccess, subscriptionBody, webhookCall } from './webhook-helpers.ts';

const t = useSandbox();

const PROGRAM = DEMO_CREDENTIALS.productId;
const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

const subscribeWith = (body: unknown) => webhookCall(t.sandbox, 'POST', SUBSCRIBE_PATH, { body });
const update = (body: unknown) => webhookCall(t.sandbox, 'PATCH', SUBSCRIBE_PATH, { body });
const remove = (body: unknown) => webhookCall(t.sandbox, 'DELETE', SUBSCRIBE_PATH, { body });
const subscribed = (owner: Record<string, unknown> = { agent_code: 'AG1', subagent_code: 'SUB1' }, program_code: string | null = PROGRAM) =>
  webhookCall(t.sandbox, 'POST', '/api/subscribedwebhook', { body: owner, query: program_code === null ? {} : { program_code } });
const list = async () => {
  const response = await subscribed();
  expect(response.status).toBe(200);
  return response.body as Record<string, any>[];
};

/** The identity of subscriptionBody(), with updated_by, for PATCH and DELETE. */
const IDENTITY = {
  event_name: 'issuing.card.active',
  agent_code: 'AG1',
  subagent_code: 'SUB1',
  program_code: PROGRAM,
  company_code: 'CMP1',
};

describe('webhook management headers', () => {
  it('needs x-api-key and Content-Type, answered without the envelope; no bearer token', async () => {
    const missing = await webhookCall(t.sandbox, 'GET', '/getallwebhooks', {
      query: { program_code: PROGRAM },
      headers: { 'x-api-key': undefined },
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual(bareError('x-api-key is a required header and is missing'));

    const wrong = await webhookCall(t.sandbox, 'POST', SUBSCRIBE_PATH, { body: subscriptionBody(), headers: { 'x-api-key': 'nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(bareError('x-api-key is invalid'));

    const noType = await webhookCall(t.sandbox, 'GET', '/getallwebhooks', {
      query: { program_code: PROGRAM },
      headers: { 'content-type': undefined },
    });
    expect(noType.body).toEqual(bareError('Content-Type is a required header and is missing'));

    // Only the two headers: no token, no product or user header.
    expect((await webhookCall(t.sandbox, 'GET', '/getallwebhooks', { query: { program_code: PROGRAM } })).status).toBe(200);
    expect(await list()).toEqual([]);
  });
});

describe('GET /getallwebhooks', () => {
  it('lists the catalogue for the program, alphabetically', async () => {
    const response = await webhookCall(t.sandbox, 'GET', '/getallwebhooks', { query: { program_code: PROGRAM } });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['data', 'status']);
    expect(response.body.status).toBe('success');
    const described = (name: string, event_description: string) => ({ event_description, event_name: name, program_code: PROGRAM });
    expect(response.body.data).toEqual([
      described('account.active', 'Onboarding'),
      described('account.submitted', 'Onboarding'),
      described('account.suspended', 'Onboarding'),
      described('balance.ga.top_up', 'Deposit'),
      described('conversion.cancelled', 'Currency Conversion'),
      described('conversion.overdue', 'Currency Conversion'),
      described('conversion.scheduled', 'Currency Conversion'),
      described('conversion.settled', 'Currency Conversion'),
      described('deposit.rejected', 'Deposit'),
      described('deposit.settled', 'Deposit'),
      described('direct_debit.status_changed', 'Direct Debit Payout'),
      described('ga.new', 'Virtual Account Creation'),
      described('issuing.card.active', 'Card Status'),
      described('issuing.card.blocked', 'Card Status'),
      described('issuing.cardholder.deleted', 'Cardholder Status'),
      described('issuing.cardholder.pending', 'Cardholder Status'),
      described('issuing.cardholder.ready', 'Cardholder Status'),
      described('issuing.transaction.succeeded', 'Card Transaction'),
      described('payout.transfer.funding.funded', 'Payout Transfer'),
      described('payout.transfer.funding.scheduled', 'Payout Transfer'),
      described('rfi.action_required', 'Request For Information'),
    ]);
  });

  it('needs the program code, and only the product id is one', async () => {
    const missing = await webhookCall(t.sandbox, 'GET', '/getallwebhooks');
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual(bareError('program_code: is required'));
    const other = await webhookCall(t.sandbox, 'GET', '/getallwebhooks', { query: { program_code: 'another-program' } });
    expect(other.body).toEqual(bareError('program_code: must be the product id'));
  });
});

describe('POST /api/subscribe and POST /api/subscribedwebhook', () => {
  it('stores a webhook subscription and shows it as section 2.1 records it', async () => {
    const response = await subscribeWith(subscriptionBody({ sender_email: 'alerts@acme.example' }));
    expect(response.status).toBe(200);
    expect(response.body).toEqual(bareSuccess('Subscribed successfully'));

    const [record] = await list();
    expect(record).toEqual({
      agent_code: 'AG1',
      subagent_code: 'SUB1',
      company_code: 'CMP1',
      program_code: PROGRAM,
      event_name: 'issuing.card.active',
      subscription_type: 'w',
      webhook_url: 'https://hooks.acme.example/banking',
      sender_email: 'alerts@acme.example',
      x_api_key: HOOK_KEY,
      created_by: 'Jordan Miles',
      updated_by: null,
      created_time: expect.stringMatching(HTTP_DATE),
      updated_time: expect.stringMatching(HTTP_DATE),
      sl_no: 1,
    });
    expect(Math.abs(Date.parse(record?.created_time) - t.sandbox.clock.now().getTime())).toBeLessThan(5_000);
    expect(record?.updated_time).toBe(record?.created_time);
  });

  it('takes the key spelled x-api-key too, and a notification subscription without URL or key', async () => {
    const dashed = subscriptionBody({ x_api_key: undefined, 'x-api-key': 'dashed-key' });
    expect((await subscribeWith(dashed)).body).toEqual(bareSuccess('Subscribed successfully'));
    const notification = {
      ...subscriptionBody({ event_name: 'conversion.settled', subscription_type: 'n' }),
      webhook_url: undefined,
      x_api_key: undefined,
    };
    expect((await subscribeWith(notification)).body).toEqual(bareSuccess('Subscribed successfully'));

    const records = await list();
    expect(
      records.map((record) => [
        record.sl_no,
        record.event_name,
        record.subscription_type,
        record.webhook_url,
        record.x_api_key,
        record.sender_email,
      ]),
    ).toEqual([
      // Document 3, 2.1 types all three as strings: "" where the type does not use one, and a
      // notification shows the default sender its e-mails come from.
      [1, 'issuing.card.active', 'w', 'https://hooks.acme.example/banking', 'dashed-key', ''],
      [2, 'conversion.settled', 'n', '', '', 'notifications@sandbox.example'],
    ]);
  });

  it.each([
    [
      'an old { url, events } payload',
      { url: 'https://hooks.acme.example', events: ['issuing.card.active'] },
      'event_name: is required; subscription_type: is required; agent_code: is required; subagent_code: is required; program_code: is required; company_code: is required; created_by: is required',
    ],
    [
      'camel-case eventName',
      { ...subscriptionBody({ event_name: undefined }), eventName: 'issuing.card.active' },
      'event_name: is required',
    ],
    ['an unknown event', subscriptionBody({ event_name: 'card.created' }), 'event_name: must be an event listed by Get All Webhooks'],
    ['another subscription type', subscriptionBody({ subscription_type: 'x' }), 'subscription_type: must be one of w, n'],
    ['a webhook without its URL', subscriptionBody({ webhook_url: undefined }), 'webhook_url: is required when subscription_type is w'],
    ['a webhook without its key', subscriptionBody({ x_api_key: undefined }), 'x_api_key: is required when subscription_type is w'],
    [
      'a URL that is not http(s)',
      subscriptionBody({ webhook_url: 'ftp://hooks.acme.example' }),
      'webhook_url: must be an http or https URL',
    ],
    ['a sender that is no address', subscriptionBody({ sender_email: 'alerts' }), 'sender_email: must contain @'],
    ['a blank agent code', subscriptionBody({ agent_code: ' ' }), 'agent_code: must be at least 1 character(s) long'],
    ['no body', undefined, 'request body must be a JSON object'],
  ])('refuses %s', async (_case, body, message) => {
    const response = await subscribeWith(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(bareError(message));
    expect(await list()).toEqual([]);
  });

  it('allows one subscription per event, agent, subagent, program and company', async () => {
    await subscribeWith(subscriptionBody());
    const again = await subscribeWith(subscriptionBody({ webhook_url: 'https://elsewhere.example/hook' }));
    expect(again.status).toBe(400);
    expect(again.body).toEqual(bareError('subscription already exists'));
    expect((await subscribeWith(subscriptionBody({ company_code: 'CMP2' }))).status).toBe(200);
    expect((await subscribeWith(subscriptionBody({ event_name: 'issuing.card.blocked' }))).status).toBe(200);
    expect((await list()).map((record) => [record.sl_no, record.event_name, record.company_code])).toEqual([
      [1, 'issuing.card.active', 'CMP1'],
      [2, 'issuing.card.active', 'CMP2'],
      [3, 'issuing.card.blocked', 'CMP1'],
    ]);
  });

  it('retrieves only the agent and subagent asked for, in the program asked for', async () => {
    await subscribeWith(subscriptionBody());
    await subscribeWith(subscriptionBody({ subagent_code: 'SUB2' }));
    expect((await subscribed({ agent_code: 'AG1', subagent_code: 'SUB2' })).body).toEqual([
      expect.objectContaining({ subagent_code: 'SUB2', sl_no: 1 }),
    ]);
    expect((await subscribed({ agent_code: 'AG9', subagent_code: 'SUB1' })).body).toEqual([]);
    expect((await subscribed(undefined, 'another-program')).body).toEqual([]);
    expect((await subscribed({ agent_code: 'AG1', subagent_code: 'SUB1' }, null)).body).toEqual(bareError('program_code: is required'));
    expect((await subscribed({ agent_code: 'AG1' })).body).toEqual(bareError('subagent_code: is required'));
  });
});

describe('PATCH /api/subscribe', () => {
  it('changes what is given, keeps what is left out and stamps the update', async () => {
    await subscribeWith(subscriptionBody({ sender_email: 'alerts@acme.example' }));
    const [before] = await list();
    await advanceMinutes(t.sandbox, 5);
    const response = await update({
      ...IDENTITY,
      subscription_type: 'w',
      webhook_url: 'https://hooks.acme.example/v2',
      x_api_key: 'hook-key-2',
      updated_by: 'Ava Chen',
    });
    expect(response.body).toEqual(bareSuccess('Subscription updated successfully'));
    const [after] = await list();
    expect(after).toEqual({
      ...before,
      webhook_url: 'https://hooks.acme.example/v2',
      x_api_key: 'hook-key-2',
      sender_email: 'alerts@acme.example',
      updated_by: 'Ava Chen',
      updated_time: expect.stringMatching(HTTP_DATE),
    });
    expect(Date.parse(after?.updated_time) - Date.parse(before?.created_time)).toBeGreaterThanOrEqual(299_000);
  });

  it('turns a webhook into a notification, and null clears a field', async () => {
    await subscribeWith(subscriptionBody({ sender_email: 'alerts@acme.example' }));
    await update({ ...IDENTITY, subscription_type: 'n', sender_email: null, updated_by: 'Ava Chen' });
    const [record] = await list();
    expect(record).toMatchObject({
      subscription_type: 'n',
      sender_email: 'notifications@sandbox.example',
      webhook_url: 'https://hooks.acme.example/banking',
      x_api_key: HOOK_KEY,
    });
  });

  it('needs the identity, updated_by and, for a webhook, URL and key; answers 404 for no such subscription', async () => {
    await subscribeWith(subscriptionBody());
    const withoutBy = await update({ ...IDENTITY, subscription_type: 'w', webhook_url: 'https://a.example', x_api_key: 'k' });
    expect(withoutBy.body).toEqual(bareError('updated_by: is required'));
    const withoutUrl = await update({ ...IDENTITY, subscription_type: 'w', x_api_key: 'k', updated_by: 'Ava Chen' });
    expect(withoutUrl.body).toEqual(bareError('webhook_url: is required when subscription_type is w'));
    const oldPut = await update({ url: 'https://a.example', events: ['issuing.card.active'] });
    expect(oldPut.status).toBe(400);
    const unknown = await update({ ...IDENTITY, company_code: 'CMP9', subscription_type: 'n', updated_by: 'Ava Chen' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(bareError('Subscription not found'));
  });
});

describe('DELETE /api/subscribe', () => {
  it('deletes by identity, accepting the further fields the change history lists', async () => {
    await subscribeWith(subscriptionBody());
    await subscribeWith(subscriptionBody({ event_name: 'issuing.card.blocked' }));
    const response = await remove({
      ...IDENTITY,
      subscription_type: 'w',
      created_by: 'Jordan Miles',
      webhook_url: 'https://x.example',
      updated_by: 'Ava Chen',
    });
    expect(response.body).toEqual(bareSuccess('Subscription deleted successfully'));
    expect((await list()).map((record) => [record.sl_no, record.event_name])).toEqual([[1, 'issuing.card.blocked']]);

    const again = await remove(IDENTITY);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(bareError('Subscription not found'));
    expect((await remove({ ...IDENTITY, company_code: undefined })).body).toEqual(bareError('company_code: is required'));
  });
});

describe('retired webhook paths', () => {
  it.each([
    ['GET', '/svc/api/v1/webhook/getallwebhook'],
    ['POST', '/svc/api/v1/webhook/subscribe'],
    ['PUT', '/svc/api/v1/webhook/update'],
    ['DELETE', '/svc/api/v1/webhook/delete'],
  ])('%s %s answers 404', async (method, path) => {
    const response = await webhookCall(t.sandbox, method, path, { body: method === 'GET' ? undefined : subscriptionBody() });
    expect(response.status).toBe(404);
  });
});

it('a reset drops every subscription', async () => {
  await subscribeWith(subscriptionBody());
  t.sandbox.reset();
  expect(await list()).toEqual([]);
  // And the calls are in the request log like any API call.
  await call(t.sandbox, '/getallwebhooks');
  expect(t.sandbox.requests().at(-1)).toMatchObject({ method: 'GET', path: '/getallwebhooks', status: 400 });
});
