import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS } from '../src/index.ts';
import {
  BALANCE_PATH,
  CARD_PATH,
  CARDHOLDER_PATH,
  HISTORY_PATH,
  TRANSACTIONS_PATH,
  TRANSFER_PATH,
  advanceClockTo,
  advanceMinutes,
  apiTime,
  cents,
  control,
  createCard,
  individualCardholder,
  readyCardholder,
  sandboxDay,
  sandboxMidnight,
  simulate,
  startTestSandbox,
  useSandbox,
  virtualCardBody,
  newEmails,
} from './helpers.ts';
import {
  HOOK_KEY,
  SUBSCRIBE_PATH,
  delivered,
  expectedSignature,
  sleep,
  startReceiver,
  subscribe,
  subscriptionBody,
  webhookCall,
  type Receiver,
} from './webhook-helpers.ts';

const SECRET = 'whsec_sandbox_test';
// Attempts 40, 80 and 160 ms after each failure: the whole schedule in under 300 ms.
const DELAYS = [0, 40, 80, 160];
const t = useSandbox({ webhookSigningSecret: SECRET, webhookRetryDelaysMs: DELAYS });
const USER = DEMO_CREDENTIALS.userId;
const API_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());
beforeEach(() => receiver.clear());

const hooks = (...names: string[]) => subscribe(t.sandbox, receiver.url, names);
const parseApiTime = (text: string) => Date.parse(text.replace('+0000', 'Z'));
const waitForAttempts = (count: number) => expect.poll(() => t.sandbox.deliveries().length).toBe(count);

/** A virtual card of a new READY cardholder; returns both ids. */
async function virtualCard(): Promise<{ cardholderId: string; cardId: string }> {
  const holder = await readyCardholder(t.sandbox, t.api);
  t.api = holder.api;
  return { cardholderId: holder.id, cardId: await createCard(holder.api, virtualCardBody(holder.id)) };
}

/** The card.active data: a virtual card made by virtualCardBody(), or an assigned physical one. */
const cardEventData = (cardId: string, cardholderId: string, physical = false) => ({
  activate_on_issue: !physical,
  additional_cardholder_ids: [],
  authorization_controls: {
    active_from: null,
    active_to: null,
    allowed_currencies: [],
    allowed_merchant_categories: [],
    allowed_transaction_count: physical ? 'SINGLE' : 'MULTIPLE',
    transaction_limits: {
      currency: 'USD',
      limits: physical
        ? []
        : [
            { amount: 300, interval: 'PER_TRANSACTION' },
            { amount: 1000, interval: 'DAILY' },
          ],
      cash_withdrawal_limits: [],
    },
  },
  card_id: cardId,
  cardholder_id: cardholderId,
  card_status: 'ACTIVE',
});

describe('delivery', () => {
  it('POSTs the envelope to the subscriber with its key and a verifiable signature', async () => {
    await hooks('issuing.card.active');
    const { cardholderId, cardId } = await virtualCard();
    const [envelope] = await delivered(receiver, 'issuing.card.active');

    expect(envelope).toEqual({
      id: `${cardId}_issuing.card.active`,
      name: 'issuing.card.active',
      account_id: USER,
      data: cardEventData(cardId, cardholderId),
      created_at: expect.stringMatching(API_TIME),
      version: '2025-02-14',
    });
    expect(Math.abs(parseApiTime(envelope.created_at) - t.sandbox.clock.now().getTime())).toBeLessThan(5_000);

    const [request] = receiver.received;
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['x-api-key']).toBe(HOOK_KEY);
    const timestamp = request?.headers['x-timestamp'] as string;
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(5);
    expect(request?.headers['x-signature']).toBe(expectedSignature(SECRET, timestamp, request?.raw ?? ''));
    expect(request?.headers['x-signature']).not.toBe(expectedSignature('another-secret', timestamp, request?.raw ?? ''));

    await waitForAttempts(1);
    const attempts = [
      {
        eventId: `${cardId}_issuing.card.active`,
        eventName: 'issuing.card.active',
        url: receiver.url,
        attempt: 1,
        status: 200,
        error: null,
        time: expect.stringMatching(ISO),
      },
    ];
    expect(t.sandbox.deliveries()).toEqual(attempts);
    expect((await control(t.sandbox, 'GET', '/deliveries')).body).toEqual(attempts);
  });

  it('never holds up the API call that caused the event', async () => {
    await hooks('issuing.transaction.succeeded');
    receiver.delay(400);
    const started = performance.now();
    const response = await simulate(t.sandbox, 'crd_demo_ava_v', { kind: 'authorization', amount: 5 });
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(300);
    expect(t.sandbox.deliveries()).toEqual([]);
    await delivered(receiver, 'issuing.transaction.succeeded');
    await waitForAttempts(1);
  });

  it('is unsigned when the sandbox has no signing secret, and skips events nobody subscribed to', async () => {
    const unsigned = await startTestSandbox();
    try {
      await subscribe(unsigned, receiver.url, ['account.submitted']);
      await control(unsigned, 'POST', '/events', { name: 'account.active' });
      await control(unsigned, 'POST', '/events', { name: 'account.submitted' });
      const [envelope] = await delivered(receiver, 'account.submitted');
      expect(envelope).toMatchObject({ id: `${USER}_account.submitted`, data: {} });
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0]?.headers['x-api-key']).toBe(HOOK_KEY);
      expect(receiver.received[0]?.headers).not.toHaveProperty('x-signature');
      expect(receiver.received[0]?.headers).not.toHaveProperty('x-timestamp');
    } finally {
      await unsigned.close();
    }
  });

  it('retries a failed attempt with backoff until the subscriber answers 2xx', async () => {
    await hooks('issuing.card.active');
    receiver.answer(500, 503);
    const { cardId } = await virtualCard();
    await waitForAttempts(3);
    const eventId = `${cardId}_issuing.card.active`;
    expect(t.sandbox.deliveries().map(({ eventId: id, attempt, status, error }) => ({ id, attempt, status, error }))).toEqual([
      { id: eventId, attempt: 1, status: 500, error: null },
      { id: eventId, attempt: 2, status: 503, error: null },
      { id: eventId, attempt: 3, status: 200, error: null },
    ]);
    const [first, second, third] = receiver.received;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(35);
    expect((third?.at ?? 0) - (second?.at ?? 0)).toBeGreaterThanOrEqual(75);
    // The same event each time, freshly signed.
    for (const request of receiver.received) {
      expect(request.raw).toBe(first?.raw);
      expect(request.headers['x-signature']).toBe(expectedSignature(SECRET, request.headers['x-timestamp'] as string, request.raw));
    }
  });

  it('gives up after the last attempt, and records network errors', async () => {
    await hooks('account.submitted');
    await subscribe(t.sandbox, 'http://127.0.0.1:1/unreachable', ['account.active']);
    receiver.answer(500, 500, 500, 500);
    await control(t.sandbox, 'POST', '/events', { name: 'account.submitted' });
    await control(t.sandbox, 'POST', '/events', { name: 'account.active' });
    await waitForAttempts(8);
    await sleep(200);
    const attempts = t.sandbox.deliveries();
    expect(attempts).toHaveLength(8);
    const ofEvent = (name: string) => attempts.filter((attempt) => attempt.eventName === name);
    expect(ofEvent('account.submitted').map(({ attempt, status }) => [attempt, status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 500],
      [4, 500],
    ]);
    expect(ofEvent('account.active').map(({ attempt, status, url }) => [attempt, status, url])).toEqual(
      [1, 2, 3, 4].map((attempt) => [attempt, null, 'http://127.0.0.1:1/unreachable']),
    );
    expect(ofEvent('account.active').every(({ error }) => /ECONNREFUSED/.test(error ?? ''))).toBe(true);
    expect(receiver.received).toHaveLength(4);
  });

  it('keeps event order per subscription while an earlier event is retried', async () => {
    await hooks('issuing.cardholder.pending');
    receiver.answer(500, 500);
    const first = (await t.api.send('POST', CARDHOLDER_PATH, { body: individualCardholder() })).body.data[0].id;
    const second = (await t.api.send('POST', CARDHOLDER_PATH, { body: individualCardholder({ email: 'mia.lopez@acme.example' }) })).body
      .data[0].id;
    await waitForAttempts(4);
    expect(receiver.received.map((request) => [request.body.id, request.headers['x-api-key']])).toEqual([
      [`${first}_issuing.cardholder.pending`, HOOK_KEY],
      [`${first}_issuing.cardholder.pending`, HOOK_KEY],
      [`${first}_issuing.cardholder.pending`, HOOK_KEY],
      [`${second}_issuing.cardholder.pending`, HOOK_KEY],
    ]);
  });

  it('uses the subscription as it is when the event fires', async () => {
    await hooks('account.submitted');
    await control(t.sandbox, 'POST', '/events', { name: 'account.submitted' });
    await delivered(receiver, 'account.submitted');
    await webhookCall(t.sandbox, 'PATCH', SUBSCRIBE_PATH, {
      body: {
        ...subscriptionBody({ event_name: 'account.submitted', webhook_url: receiver.url, x_api_key: 'rotated-key' }),
        updated_by: 'Ava Chen',
      },
    });
    await control(t.sandbox, 'POST', '/events', { name: 'account.submitted' });
    await delivered(receiver, 'account.submitted', 2);
    expect(receiver.received.map((request) => request.headers['x-api-key'])).toEqual([HOOK_KEY, 'rotated-key']);
  });

  it('e-mails the user for a notification subscription', async () => {
    const body = {
      ...subscriptionBody({ event_name: 'rfi.action_required', subscription_type: 'n', sender_email: 'alerts@acme.example' }),
      webhook_url: undefined,
      x_api_key: undefined,
    };
    await webhookCall(t.sandbox, 'POST', SUBSCRIBE_PATH, { body });
    const { eventId } = (await control(t.sandbox, 'POST', '/events', { name: 'rfi.action_required', resource_id: 'rfi_demo_kyc' })).body;
    expect(await newEmails(t.sandbox)).toEqual([
      {
        kind: 'event_notification',
        to: DEMO_CREDENTIALS.email,
        from: 'alerts@acme.example',
        subject: 'rfi.action_required rfi_demo_kyc_rfi.action_required',
        eventId,
        eventName: 'rfi.action_required',
        time: expect.stringMatching(ISO),
      },
    ]);
    expect(t.sandbox.deliveries()).toEqual([]);
  });
});

describe('the deliveries log and redelivery', () => {
  it('redelivers a recorded event as it was, and clears the log on DELETE', async () => {
    await hooks('issuing.card.active');
    const { cardId } = await virtualCard();
    const eventId = `${cardId}_issuing.card.active`;
    await waitForAttempts(1);

    const response = await control(t.sandbox, 'POST', '/deliveries/redeliver', { eventId });
    expect(response.body).toEqual({ eventId, deliveries: 1 });
    const copies = await delivered(receiver, 'issuing.card.active', 2);
    expect(copies[1]).toEqual(copies[0]);
    await waitForAttempts(2);
    expect(t.sandbox.deliveries().map(({ eventId: id, attempt, status }) => [id, attempt, status])).toEqual([
      [eventId, 1, 200],
      [eventId, 1, 200],
    ]);

    expect((await control(t.sandbox, 'DELETE', '/deliveries')).body).toEqual({ ok: true });
    expect((await control(t.sandbox, 'GET', '/deliveries')).body).toEqual([]);
    const unknown = await control(t.sandbox, 'POST', '/deliveries/redeliver', { eventId: 'evt_nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Event evt_nope not found' });
    expect((await control(t.sandbox, 'POST', '/deliveries/redeliver', {})).body).toEqual({ error: 'eventId is required' });
  });

  it('tells apart events that share an id by name', async () => {
    await hooks('ga.new', 'deposit.settled');
    const shared = { resource_id: 'dep_shared' };
    await control(t.sandbox, 'POST', '/events', { name: 'ga.new', ...shared, data: { process_status: 'SETTLED' } });
    await control(t.sandbox, 'POST', '/events', { name: 'deposit.settled', ...shared });
    await waitForAttempts(2);
    expect(t.sandbox.events().map((event) => [event.name, event.id])).toEqual([
      ['ga.new', 'dep_shared_SETTLED'],
      ['deposit.settled', 'dep_shared_SETTLED'],
    ]);
    const response = await control(t.sandbox, 'POST', '/deliveries/redeliver', { eventId: 'dep_shared_SETTLED', name: 'ga.new' });
    expect(response.body).toEqual({ eventId: 'dep_shared_SETTLED', deliveries: 1 });
    const copies = await delivered(receiver, 'ga.new', 2);
    expect(copies[1]).toEqual(copies[0]);
    // Without a name, the latest event of that id.
    await control(t.sandbox, 'POST', '/deliveries/redeliver', { eventId: 'dep_shared_SETTLED' });
    await delivered(receiver, 'deposit.settled', 2);
  });

  it('a reset drops pending deliveries and the log', async () => {
    const slow = await startTestSandbox({ webhookRetryDelaysMs: [0, 150] });
    try {
      await subscribe(slow, receiver.url, ['account.submitted']);
      receiver.answer(500);
      await control(slow, 'POST', '/events', { name: 'account.submitted' });
      await expect.poll(() => slow.deliveries().length).toBe(1);
      await control(slow, 'POST', '/reset');
      expect(slow.deliveries()).toEqual([]);
      expect(slow.events()).toEqual([]);
      await sleep(300);
      expect(receiver.received).toHaveLength(1);
      expect(slow.deliveries()).toEqual([]);
    } finally {
      await slow.close();
    }
  });

  it('close() stops at once, with a retry still pending', async () => {
    const slow = await startTestSandbox({ webhookRetryDelaysMs: [0, 60_000] });
    await subscribe(slow, receiver.url, ['account.submitted']);
    receiver.answer(500);
    await control(slow, 'POST', '/events', { name: 'account.submitted' });
    await expect.poll(() => slow.deliveries().length).toBe(1);
    const started = performance.now();
    await slow.close();
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(receiver.received).toHaveLength(1);
  });
});

describe('emission points', () => {
  it('the demo seed emits nothing', () => {
    expect(t.sandbox.events()).toEqual([]);
  });

  it('a cardholder: pending when created, ready after the review delay, deleted', async () => {
    await hooks('issuing.cardholder.pending', 'issuing.cardholder.ready', 'issuing.cardholder.deleted', 'issuing.card.blocked');
    const created = await t.api.send('POST', CARDHOLDER_PATH, { body: individualCardholder() });
    const id = created.body.data[0].id as string;
    const createdAt = Date.parse(`${(await t.api.get(CARDHOLDER_PATH, { query: { id } })).body.data[0].created_at}Z`);
    const data = {
      cardholder_id: id,
      email: 'noah.kim@acme.example',
      individual: {
        address: { city: 'Austin', country: 'US', line1: '500 Congress Avenue', line2: null, state: 'TX', postcode: '78701' },
        date_of_birth: '1990-06-01',
        employers: [],
        identification: null,
        name: { title: null, first_name: 'Noah', middle_name: null, last_name: 'Kim', name_on_card: 'Noah Kim' },
        nationality: 'US',
      },
      mobile_number: '+15125550147',
      postal_address: null,
      status: 'PENDING',
      type: 'INDIVIDUAL',
    };
    const [pending] = await delivered(receiver, 'issuing.cardholder.pending');
    expect(pending).toEqual({
      id: `${id}_issuing.cardholder.pending`,
      name: 'issuing.cardholder.pending',
      account_id: USER,
      data,
      created_at: apiTime(createdAt),
      version: '2025-02-14',
    });

    await advanceMinutes(t.sandbox, 9);
    expect(t.sandbox.events().map((event) => event.name)).toEqual(['issuing.cardholder.pending']);
    await advanceMinutes(t.sandbox, 1);
    const [ready] = await delivered(receiver, 'issuing.cardholder.ready');
    expect(ready).toEqual({
      ...pending,
      id: `${id}_issuing.cardholder.ready`,
      name: 'issuing.cardholder.ready',
      data: { ...data, status: 'READY' },
      created_at: apiTime(createdAt + 10 * 60_000),
    });

    await control(t.sandbox, 'POST', `/kyc/${id}/complete`);
    const api = await advanceClockTo(t.sandbox, t.sandbox.clock.now().getTime());
    const cardId = await createCard(api, virtualCardBody(id));
    await api.send('DELETE', CARDHOLDER_PATH, { query: { id } });
    const [deleted] = await delivered(receiver, 'issuing.cardholder.deleted');
    expect(deleted).toMatchObject({ id: `${id}_issuing.cardholder.deleted`, data: { cardholder_id: id, deleted: true } });
    const [closed] = await delivered(receiver, 'issuing.card.blocked');
    expect(closed).toMatchObject({ id: `${cardId}_issuing.card.blocked`, data: { card_id: cardId, card_status: 'CLOSED' } });
  });

  it('a card: active when activated, blocked when set INACTIVE, active again when set ACTIVE', async () => {
    await hooks('issuing.card.active', 'issuing.card.blocked');
    const assign = await t.api.send('POST', `${CARD_PATH}/assign`, {
      body: {
        cardholder_id: 'chd_demo_ava',
        card_number: '4000056655665556',
        card_currency: 'USD',
        card_mode: 'SINGLE',
        created_by: 'Jordan Miles',
      },
    });
    expect(assign.status).toBe(200);
    const [email] = (await control(t.sandbox, 'GET', '/emails')).body;
    const cardId = email.cardId as string;
    expect(t.sandbox.events()).toEqual([]);

    await t.api.send('POST', `${CARD_PATH}/activate`, {
      query: { id: cardId },
      body: { activation_code: email.activationCode, pin: '482913' },
    });
    const [active] = await delivered(receiver, 'issuing.card.active');
    expect(active).toEqual({
      id: `${cardId}_issuing.card.active`,
      name: 'issuing.card.active',
      account_id: USER,
      data: cardEventData(cardId, 'chd_demo_ava', true),
      created_at: expect.stringMatching(API_TIME),
      version: '2025-02-14',
    });

    const setStatus = (card_status: string, extra: Record<string, unknown> = {}) =>
      t.api.send('PATCH', CARD_PATH, { query: { id: cardId }, body: { card_status, updated_by: 'Jordan Miles', ...extra } });
    await setStatus('INACTIVE', { transaction_limits: [{ type: 'DAILY', value: 250 }] });
    const [blocked] = await delivered(receiver, 'issuing.card.blocked');
    expect(blocked.id).toBe(`${cardId}_issuing.card.blocked`);
    expect(blocked.data).toMatchObject({
      card_status: 'INACTIVE',
      authorization_controls: {
        transaction_limits: { currency: 'USD', limits: [{ amount: 250, interval: 'DAILY' }], cash_withdrawal_limits: [] },
      },
    });
    // No change of status, no event.
    await setStatus('INACTIVE');
    await setStatus('ACTIVE');
    const actives = await delivered(receiver, 'issuing.card.active', 2);
    expect(actives[1]).toMatchObject({ id: `${cardId}_issuing.card.active`, data: { card_status: 'ACTIVE' } });
    expect(t.sandbox.events().map((event) => event.name)).toEqual(['issuing.card.active', 'issuing.card.blocked', 'issuing.card.active']);
  });

  it('a card transaction: every approved one, purchase or refund; no decline or settlement', async () => {
    await hooks('issuing.transaction.succeeded');
    const purchase = (await simulate(t.sandbox, 'crd_demo_ava_v', { kind: 'authorization', amount: 12.5 })).body.transaction;
    const [event] = await delivered(receiver, 'issuing.transaction.succeeded');
    expect(event).toEqual({
      id: `${purchase.transaction_id}_issuing.transaction.succeeded`,
      name: 'issuing.transaction.succeeded',
      account_id: USER,
      data: {
        card_id: 'crd_demo_ava_v',
        cardholder_id: 'chd_demo_ava',
        transaction_id: purchase.transaction_id,
        transaction_type: 'PURCHASE',
        transaction_amount: 12.5,
        transaction_currency: 'USD',
        status: 'APPROVED',
        merchant: { name: 'Sandbox Coffee Roasters', category_code: '5814' },
        transaction_date: purchase.transaction_date,
      },
      created_at: purchase.transaction_date,
      version: '2025-02-14',
    });

    const declined = (await simulate(t.sandbox, 'crd_demo_ava_v', { kind: 'authorization', amount: 600 })).body.transaction;
    expect(declined.status).toBe('DECLINED');
    await simulate(t.sandbox, 'crd_demo_ava_v', { kind: 'settlement', transaction_id: purchase.transaction_id });
    const refund = (await simulate(t.sandbox, 'crd_demo_ava_v', { kind: 'refund', amount: 2.5, transaction_id: purchase.transaction_id }))
      .body.transaction;
    const events = await delivered(receiver, 'issuing.transaction.succeeded', 2);
    expect(events[1]).toMatchObject({
      id: `${refund.transaction_id}_issuing.transaction.succeeded`,
      data: { transaction_type: 'REFUND', transaction_amount: 2.5, status: 'APPROVED' },
    });
    expect(t.sandbox.events()).toHaveLength(2);
  });

  it('a conversion: scheduled when created, settled at its instant', async () => {
    await hooks('conversion.scheduled', 'conversion.settled');
    const quoteBody = {
      quoteType: 'conversion',
      lockPeriod: '15_mins',
      conversionSchedule: 'next_day',
      sourceCurrencyCode: 'USD',
      destinationCurrencyCode: 'EUR',
      sourceAmount: 1000,
    };
    const quote = (await t.api.send('POST', `${TRANSFER_PATH}/quote`, { body: quoteBody })).body.data[0];
    const created = (
      await t.api.send('POST', `${TRANSFER_PATH}/conversion`, {
        body: { quote_id: quote.id, source_amount: 1000, source_currency: 'USD', destination_currency: 'EUR' },
      })
    ).body.data;
    const shared = {
      conversion_id: created.id,
      short_reference_id: created.system_reference_number,
      currency_pair: 'USDEUR',
      client_rate: created.net_exchangerate,
      buy_currency: 'EUR',
      buy_amount: created.destination_amount,
      sell_currency: 'USD',
      sell_amount: 1000,
      conversion_date: created.conversion_time.slice(0, 10),
    };
    const [scheduled] = await delivered(receiver, 'conversion.scheduled');
    expect(scheduled).toEqual({
      id: `${created.id}_conversion.scheduled`,
      name: 'conversion.scheduled',
      account_id: USER,
      data: { ...shared, status: 'SCHEDULED', settlement_cutoff_time: created.conversion_time, created_at: created.createdTime },
      created_at: created.createdTime,
      version: '2025-02-14',
    });
    expect(t.sandbox.events()).toHaveLength(1);

    await advanceClockTo(t.sandbox, parseApiTime(created.conversion_time));
    const [settled] = await delivered(receiver, 'conversion.settled');
    expect(settled).toEqual({
      id: `${created.id}_conversion.settled`,
      name: 'conversion.settled',
      account_id: USER,
      data: { ...shared, status: 'SETTLED', updated_at: created.conversion_time },
      created_at: created.conversion_time,
      version: '2025-02-14',
    });
  });

  it('a payout: funding scheduled when created, funded when it starts processing', async () => {
    await hooks('payout.transfer.funding.scheduled', 'payout.transfer.funding.funded');
    const quoteBody = {
      quoteType: 'payout',
      lockPeriod: '15_mins',
      conversionSchedule: 'immediate',
      sourceCurrencyCode: 'USD',
      destinationCurrencyCode: 'EUR',
      sourceAmount: 1000,
    };
    const quote = (await t.api.send('POST', `${TRANSFER_PATH}/quote`, { body: quoteBody })).body.data[0];
    const tomorrow = sandboxDay(t.sandbox, 1);
    const payout = (
      await t.api.send('POST', `${TRANSFER_PATH}/payout`, {
        body: {
          beneficiaryId: 'ben_demo_de',
          sourceAmount: 1000,
          sourceCurrencycode: 'USD',
          destinationCurrencycode: 'EUR',
          destinationCountry: 'DE',
          feeType: 'OUR',
          quoteId: quote.id,
          reference: 'Invoice FC-1042',
          sourceOfFunds: 'Business revenue',
          transferMethod: 'SWIFT',
          scheduledPayoutDate: tomorrow,
        },
      })
    ).body.data[0];
    const receives = Number(quote.destinationAmount);
    const bankDetails = {
      account_name: 'Fabrikam Components GmbH',
      account_number: 'DE89370400440532013000',
      account_currency: 'EUR',
      bank_name: 'Isar Handelsbank AG',
      bank_country_code: 'DE',
      swift_code: 'ISHBDEMM',
    };
    const [scheduled] = await delivered(receiver, 'payout.transfer.funding.scheduled');
    expect(scheduled.id).toBe(`${payout.id}_payout.transfer.funding.scheduled`);
    // What both events carry.
    const shared = {
      id: payout.id,
      amount_beneficiary_receives: receives,
      amount_payer_pays: 1025,
      fee_amount: 25,
      fee_currency: 'USD',
      reference: 'Invoice FC-1042',
      short_reference_id: payout.systemReferenceNumber,
      source_currency: 'USD',
      transfer_amount: receives,
      transfer_currency: 'EUR',
      transfer_method: 'SWIFT',
    };
    expect(scheduled.data).toEqual({
      ...shared,
      status: 'PENDING',
      updated_at: scheduled.created_at,
      beneficiary: {
        address: { street_address: 'Sendlinger Strasse 7', city: 'Munich', state: null, country_code: 'DE', postcode: '80331' },
        bank_details: bankDetails,
        company_name: 'Fabrikam Components GmbH',
        entity_type: 'COMPANY',
        type: 'BANK_ACCOUNT',
      },
      fee_paid_by: 'PAYER',
      payer: {
        additional_info: {
          business_registration_number: 'C4839201',
          business_registration_type: 'COMPANY',
          business_incorporation_date: '2019-04-15',
        },
        address: { street_address: '100 Market Street', city: 'San Francisco', state: 'CA', country_code: 'US', postcode: '94105' },
        company_name: 'Acme Trading Ltd',
        entity_type: 'COMPANY',
      },
      funding: { status: 'SCHEDULED' },
      transfer_date: tomorrow,
      swift_charge_option: 'OUR',
      request_id: payout.id,
      reason: 'Invoice FC-1042',
      remarks: 'Business revenue',
      created_at: scheduled.created_at,
    });

    const midnight = sandboxMidnight(t.sandbox, 1);
    await advanceClockTo(t.sandbox, midnight);
    const [funded] = await delivered(receiver, 'payout.transfer.funding.funded');
    expect(funded).toEqual({
      id: `${payout.id}_payout.transfer.funding.funded`,
      name: 'payout.transfer.funding.funded',
      account_id: USER,
      data: {
        ...shared,
        status: 'PROCESSING',
        updated_at: apiTime(midnight),
        beneficiary: { bank_details: bankDetails, company_name: 'Fabrikam Components GmbH', entity_type: 'COMPANY' },
        funding: { status: 'FUNDED' },
        payer: { company_name: 'Acme Trading Ltd', entity_type: 'COMPANY' },
      },
      created_at: apiTime(midnight),
      version: '2025-02-14',
    });
  });
});

describe('POST /sandbox/deposits', () => {
  const usd = async () => cents((await t.api.get(BALANCE_PATH, { query: { currency: 'USD' } })).body.data[0].available_balance);

  it('announces the deposit, credits the balance through the ledger, then settles and tops up', async () => {
    await hooks('ga.new', 'deposit.settled', 'balance.ga.top_up');
    const before = await usd();
    const response = await control(t.sandbox, 'POST', '/deposits', {
      currency: 'USD',
      amount: 1500.25,
      payer_name: 'Initech GmbH',
      reference: 'INV-77',
    });
    expect(response.status).toBe(200);
    const { depositId } = response.body;
    expect(depositId).toMatch(/^dep_[0-9a-f]{16}$/);
    const provider = t.sandbox.events().find((event) => event.name === 'deposit.settled')?.data as { provider_transaction_id: string };
    expect(provider.provider_transaction_id).toMatch(/^PTX\d{12}$/);
    // deposit.settled is named after the provider's transaction: no id repeats ga.new SETTLED's.
    expect(response.body.events).toEqual([
      `${depositId}_NEW`,
      `${depositId}_PENDING`,
      `${depositId}_SETTLED`,
      `${provider.provider_transaction_id}_SETTLED`,
      `${depositId}_TOP_UP`,
    ]);

    const after = await usd();
    expect(after - before).toBe(150_025);
    const [entry] = (await t.api.get(HISTORY_PATH)).body.data;
    expect(entry).toMatchObject({
      amount: 1500.25,
      currency: 'USD',
      balance: after / 100,
      fee: 0,
      source_type: 'DEPOSIT',
      transaction_type: 'DEPOSIT',
      description: 'Incoming transfer from Initech GmbH',
    });
    const [credit] = (await t.api.get(TRANSACTIONS_PATH, { headers: { 'x-account-id': 'acc_demo_usd' } })).body.data;
    expect(credit).toMatchObject({
      amount: 1500.25,
      currency: 'USD',
      type: 'CREDIT',
      status: 'SETTLED',
      description: 'Incoming transfer from Initech GmbH',
    });

    const announced = await delivered(receiver, 'ga.new', 3);
    const accountNumber = t.sandbox.store.accounts.get('acc_demo_usd')?.account.account_number;
    expect(accountNumber).toMatch(/^\d+$/);
    expect(announced.map((event) => [event.id, event.data.process_status])).toEqual([
      [`${depositId}_NEW`, 'NEW'],
      [`${depositId}_PENDING`, 'PENDING'],
      [`${depositId}_SETTLED`, 'SETTLED'],
    ]);
    expect(announced[0]).toEqual({
      id: `${depositId}_NEW`,
      name: 'ga.new',
      account_id: USER,
      data: {
        amount: 1500.25,
        ccy: 'USD',
        transaction_type: 'DEPOSIT',
        process_status: 'NEW',
        settlement_info: { beneficiary_account_number: accountNumber, beneficiary_name: 'Acme Trading Ltd', payer_name: 'Initech GmbH' },
      },
      created_at: expect.stringMatching(API_TIME),
      version: '2025-02-14',
    });
    const at = announced[0].created_at as string;

    const [settled] = await delivered(receiver, 'deposit.settled');
    expect(settled).toMatchObject({ id: `${provider.provider_transaction_id}_SETTLED`, created_at: at });
    expect(settled.data).toEqual({
      id: depositId,
      amount: 1500.25,
      currency: 'USD',
      fee: { amount: 0, currency: 'USD' },
      global_account_id: 'acc_demo_usd',
      payer: { name: 'Initech GmbH' },
      provider_transaction_id: provider.provider_transaction_id,
      reference: 'INV-77',
      status: 'SETTLED',
      type: 'BANK_TRANSFER',
      settled_at: expect.any(Number),
    });
    // The same instant as created_at, in epoch milliseconds.
    expect(settled.data.settled_at - parseApiTime(at)).toBeGreaterThanOrEqual(0);
    expect(settled.data.settled_at - parseApiTime(at)).toBeLessThan(1_000);
    const [topUp] = await delivered(receiver, 'balance.ga.top_up');
    expect(topUp).toMatchObject({ id: `${depositId}_TOP_UP`, created_at: at });
    expect(topUp.data).toEqual({
      ccy: 'USD',
      amount: 1500.25,
      balance: after / 100,
      type: 'DEPOSIT',
      transaction_reference: {
        deposit_id: depositId,
        global_account_id: 'acc_demo_usd',
        payer_name: 'Initech GmbH',
        payer_bank_name: 'Sandbox Clearing Bank',
      },
      reference: 'INV-77',
      created_at: at,
    });
    // One receiver: the five arrive in the order they happened.
    await waitForAttempts(5);
    expect(receiver.received.map((request) => request.body.id)).toEqual(response.body.events);
    expect(receiver.received.map((request) => request.body.name)).toEqual([
      'ga.new',
      'ga.new',
      'ga.new',
      'deposit.settled',
      'balance.ga.top_up',
    ]);
  });

  it('a rejected deposit fails and moves nothing', async () => {
    await hooks('ga.new', 'deposit.rejected');
    const before = await usd();
    const response = await control(t.sandbox, 'POST', '/deposits', {
      currency: 'EUR',
      amount: 80,
      account_id: 'acc_demo_eur',
      reject: true,
    });
    const { depositId } = response.body;
    const [rejected] = await delivered(receiver, 'deposit.rejected');
    const provider = rejected.data.provider_transaction_id as string;
    expect(response.body.events).toEqual([`${depositId}_NEW`, `${depositId}_PENDING`, `${depositId}_FAILED`, `${provider}_REJECTED`]);
    expect(rejected.id).toBe(`${provider}_REJECTED`);
    expect(rejected.data).toEqual({
      id: depositId,
      amount: 80,
      currency: 'EUR',
      fee: {},
      global_account_id: 'acc_demo_eur',
      payer: { name: 'Globex Corporation' },
      provider_transaction_id: expect.stringMatching(/^PTX\d{12}$/),
      reference: `Deposit ${depositId}`,
      status: 'REJECTED',
      type: 'BANK_TRANSFER',
    });
    expect((await delivered(receiver, 'ga.new', 3)).map((event) => event.data.process_status)).toEqual(['NEW', 'PENDING', 'FAILED']);
    expect(await usd()).toBe(before);
    expect((await t.api.get(HISTORY_PATH)).body.data[0].transaction_type).not.toBe('DEPOSIT');
  });

  it.each([
    [{ currency: 'USD', amount: 10, account_id: 'acc_demo_hkd' }, 'Account acc_demo_hkd is CLOSED'],
    [{ currency: 'USD', amount: 10, account_id: 'acc_demo_eur' }, 'Account acc_demo_eur holds EUR, not USD'],
    [{ currency: 'USD', amount: 10, account_id: 'acc_nope' }, 'Account acc_nope not found'],
    [{ currency: 'JPY', amount: 10 }, 'No ACTIVE account in JPY to receive the deposit'],
    [{ currency: 'USD', amount: 1.234 }, 'amount must have at most 2 decimal place(s) for USD'],
    [{ currency: 'USD', amount: -5 }, 'amount must be greater than 0'],
  ])('refuses %j', async (body, error) => {
    const response = await control(t.sandbox, 'POST', '/deposits', body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error });
    expect(t.sandbox.events()).toEqual([]);
  });
});

describe('POST /sandbox/events', () => {
  it('emits account events with the business profile as data', async () => {
    await hooks('account.active', 'account.suspended');
    expect((await control(t.sandbox, 'POST', '/events', { name: 'account.active' })).body).toEqual({ eventId: `${USER}_account.active` });
    const [active] = await delivered(receiver, 'account.active');
    const address = { address_line1: '100 Market Street', suburb: 'San Francisco', state: 'CA', postcode: '94105', country_code: 'US' };
    expect(active.data).toEqual({
      account_details: {
        business_details: {
          address,
          address_english: { country_code: 'US', postcode: '94105' },
          as_trustee: false,
          business_address: { address_line1: '100 Market Street' },
        },
      },
    });

    // The data given is merged over the default, key by key.
    await control(t.sandbox, 'POST', '/events', {
      name: 'account.suspended',
      data: { account_details: { business_details: { business_name: 'Acme Holdings' } } },
    });
    const [suspended] = await delivered(receiver, 'account.suspended');
    expect(suspended).toMatchObject({ id: `${USER}_account.suspended`, account_id: USER, version: '2025-02-14' });
    expect(suspended.data).toEqual({
      account_details: {
        business_details: { address, business_name: 'Acme Holdings', tax_id: { number: 'C4839201', type: 'BUSINESS_REGISTRATION_NUMBER' } },
      },
      status: 'SUSPENDED',
    });
  });

  it('builds the data from the record the resource id names', async () => {
    await hooks('rfi.action_required', 'conversion.cancelled', 'direct_debit.status_changed');
    const rfi = await control(t.sandbox, 'POST', '/events', {
      name: 'rfi.action_required',
      resource_id: 'rfi_demo_kyc',
      data: { type: 'AML' },
    });
    expect(rfi.body).toEqual({ eventId: 'rfi_demo_kyc_rfi.action_required' });
    expect((await delivered(receiver, 'rfi.action_required'))[0].data).toEqual({ id: 'rfi_demo_kyc', type: 'AML' });

    const conversion = t.sandbox.store.conversions.values().next().value;
    expect(conversion).toBeDefined();
    await control(t.sandbox, 'POST', '/events', { name: 'conversion.cancelled', resource_id: conversion?.id });
    const [cancelled] = await delivered(receiver, 'conversion.cancelled');
    expect(cancelled.id).toBe(`${conversion?.id}_conversion.cancelled`);
    expect(cancelled.data).toMatchObject({
      conversion_id: conversion?.id,
      short_reference_id: conversion?.systemReferenceNumber,
      status: 'CANCELLED',
      sell_amount: conversion?.sourceAmount,
    });

    const debit = await control(t.sandbox, 'POST', '/events', {
      name: 'direct_debit.status_changed',
      resource_id: 'ddt_demo_gb_settled',
      data: { status: 'RETURNED' },
    });
    expect(debit.body).toEqual({ eventId: 'ddt_demo_gb_settled_RETURNED' });
    const [returned] = await delivered(receiver, 'direct_debit.status_changed');
    expect(returned.data).toEqual({
      transaction_id: 'ddt_demo_gb_settled',
      mandate_id: 'mdt_demo_gb_1',
      global_account_id: 'ga_demo_gb',
      status: 'RETURNED',
      amount: 1250,
      currency: 'GBP',
    });
    expect((await control(t.sandbox, 'GET', '/events')).body.map((event: any) => event.name)).toEqual([
      'rfi.action_required',
      'conversion.cancelled',
      'direct_debit.status_changed',
    ]);
  });

  it('sends a card event for a card the sandbox holds, built from it, and changes nothing', async () => {
    const response = await control(t.sandbox, 'POST', '/events', { name: 'issuing.card.blocked', resource_id: 'crd_demo_ava_v' });
    expect(response.body).toEqual({ eventId: 'crd_demo_ava_v_issuing.card.blocked' });
    expect(t.sandbox.events()[0]?.data).toMatchObject({ card_id: 'crd_demo_ava_v', cardholder_id: 'chd_demo_ava', card_status: 'ACTIVE' });
    expect((await t.api.get(CARD_PATH, { query: { id: 'crd_demo_ava_v' } })).body.data[0].cardStatus).toBe('ACTIVE');
  });

  // Every event about a record the sandbox keeps: the resource id must name one.
  const KEPT: [string, string, string][] = [
    ['issuing.card.active', 'crd_nope', 'card'],
    ['issuing.card.blocked', 'crd_nope', 'card'],
    ['issuing.transaction.succeeded', 'ctx_nope', 'card transaction'],
    ['issuing.cardholder.pending', 'chd_nope', 'cardholder'],
    ['issuing.cardholder.ready', 'chd_nope', 'cardholder'],
    ['conversion.scheduled', 'cnv_nope', 'conversion'],
    ['conversion.settled', 'cnv_nope', 'conversion'],
    ['conversion.cancelled', 'cnv_nope', 'conversion'],
    ['conversion.overdue', 'cnv_nope', 'conversion'],
    ['payout.transfer.funding.scheduled', 'pay_nope', 'payout'],
    ['payout.transfer.funding.funded', 'pay_nope', 'payout'],
    ['direct_debit.status_changed', 'ddt_nope', 'direct debit'],
    ['rfi.action_required', 'rfi_nope', 'account RFI'],
  ];

  it.each(KEPT)('refuses %s for a resource_id that names no record (%s)', async (name, id, noun) => {
    const response = await control(t.sandbox, 'POST', '/events', { name, resource_id: id });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: `resource_id ${id} names no ${noun}` });
    expect(t.sandbox.events()).toEqual([]);
  });

  it.each(KEPT)('refuses %s without a resource_id rather than make one up', async (name, _id, noun) => {
    const response = await control(t.sandbox, 'POST', '/events', { name });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: `resource_id is required for ${name}: the id of the ${noun} it is about` });
    expect(t.sandbox.events()).toEqual([]);
  });

  it('accepts every one of them for a record the sandbox holds', async () => {
    const payout = t.sandbox.store.payouts.values().next().value;
    const transaction = t.sandbox.store.cardTransactions.values().next().value;
    const held: Record<string, string | undefined> = {
      card: 'crd_demo_ava_v',
      'card transaction': transaction?.id,
      cardholder: 'chd_demo_ava',
      conversion: 'cnv_demo_1',
      payout: payout?.id,
      'direct debit': 'ddt_demo_gb_pending_1',
      'account RFI': 'rfi_demo_kyc',
    };
    for (const [name, , noun] of KEPT) {
      const response = await control(t.sandbox, 'POST', '/events', { name, resource_id: held[noun] });
      expect([name, response.status]).toEqual([name, 200]);
    }
    expect(t.sandbox.events()).toHaveLength(KEPT.length);
  });

  it('sends issuing.cardholder.deleted only for a cardholder the sandbox no longer holds', async () => {
    const held = await control(t.sandbox, 'POST', '/events', { name: 'issuing.cardholder.deleted', resource_id: 'chd_demo_ava' });
    expect(held.status).toBe(400);
    expect(held.body).toEqual({ error: 'resource_id chd_demo_ava names a cardholder the sandbox still holds' });
    expect((await t.api.get(CARD_PATH, { query: { id: 'crd_demo_ava_v' } })).body.data[0].cardStatus).toBe('ACTIVE');
    expect(t.sandbox.events()).toEqual([]);

    const gone = await control(t.sandbox, 'POST', '/events', { name: 'issuing.cardholder.deleted', resource_id: 'chd_gone' });
    expect(gone.body).toEqual({ eventId: 'chd_gone_issuing.cardholder.deleted' });
    expect((await control(t.sandbox, 'POST', '/events', { name: 'issuing.cardholder.deleted' })).status).toBe(400);
  });

  it('sends account events about the user only', async () => {
    const response = await control(t.sandbox, 'POST', '/events', { name: 'account.suspended', resource_id: 'acc_demo_usd' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: `resource_id acc_demo_usd names no user: account events are about ${USER}` });
    expect((await control(t.sandbox, 'POST', '/events', { name: 'account.suspended', resource_id: USER })).body).toEqual({
      eventId: `${USER}_account.suspended`,
    });
    expect(t.sandbox.events()).toHaveLength(1);
  });

  it('keeps sending deposit events, whose resource the sandbox keeps no record of, for any id', async () => {
    expect((await control(t.sandbox, 'POST', '/events', { name: 'ga.new', resource_id: 'dep_anything' })).body).toEqual({
      eventId: 'dep_anything_NEW',
    });
    expect((await control(t.sandbox, 'POST', '/events', { name: 'balance.ga.top_up' })).body.eventId).toMatch(/^dep_[0-9a-f]{16}_TOP_UP$/);
  });

  it('refuses a name outside the catalogue', async () => {
    const response = await control(t.sandbox, 'POST', '/events', { name: 'card.created' });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/^name must be one of account\.active, /);
  });
});
