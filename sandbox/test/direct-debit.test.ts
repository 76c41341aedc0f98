import { describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS } from '../src/index.ts';
import {
  BALANCE_PATH,
  HISTORY_PATH,
  advanceClockTo,
  apiTime,
  call,
  cents,
  control,
  sandboxDay,
  useSandbox,
  type ApiResponse,
  type CallOptions,
} from './helpers.ts';

// Document 3, sections 2.4-2.7, 3, 4.2, 4.3, 5, 7, 8: direct debit (endpoints 51 to 57).

const t = useSandbox();

const GA_PATH = '/api/v1/global_accounts';
const DD_PATH = '/api/v1/direct_debits';
const HOUR = 3_600_000;
const SECOND = 1_000;
const CONNECTED = 'conn_demo_1';
const TOKEN_ERROR = { code: 'unauthorized', message: 'Access token is missing, invalid or expired' };
const CANCEL_RULE = { code: 'invalid_operation', message: 'Only PENDING GBP direct debits in the United Kingdom can be cancelled' };

/** Section 4.2's headers: the bearer token, Content-Type on POST; x-on-behalf-of when given. */
function dd(path: string, options: CallOptions = {}): Promise<ApiResponse> {
  const method = options.method ?? 'GET';
  const json = method === 'POST' ? { 'content-type': 'application/json' } : {};
  return call(t.sandbox, path, { ...options, method, headers: { authorization: `Bearer ${t.api.token}`, ...json, ...options.headers } });
}

const onBehalfOf = (id: string) => ({ headers: { 'x-on-behalf-of': id } });
const post = (path: string, options: CallOptions = {}) => dd(path, { ...options, method: 'POST' });
const ids = (response: ApiResponse, key = 'transaction_id'): string[] =>
  response.body.items.map((item: Record<string, string>) => item[key]);
const parseApiTime = (text: string): number => Date.parse(text.replace('+0000', 'Z'));
const now = (): number => t.sandbox.clock.now().getTime();

/** Moves the clock to `instant` and logs in again (a jump of over 30 minutes expires tokens). */
async function clockTo(instant: number): Promise<void> {
  t.api = await advanceClockTo(t.sandbox, instant);
}

async function collect(body: Record<string, unknown>): Promise<Record<string, any>> {
  const response = await control(t.sandbox, 'POST', '/direct-debits', body);
  if (response.status !== 200) throw new Error(JSON.stringify(response.body));
  return response.body;
}

const gbpCollection = (amount: number, mandate = 'mdt_demo_gb_1') =>
  collect({ global_account_id: 'ga_demo_gb', mandate_id: mandate, amount });

async function available(currency: string): Promise<number> {
  const response = await t.api.get(BALANCE_PATH, { query: { currency } });
  return cents(response.body.data[0]?.available_balance ?? 0);
}

/** The status events of one payout, oldest first. */
function statusEvents(id: string) {
  return t.sandbox
    .events()
    .filter((event) => event.name === 'direct_debit.status_changed' && (event.data as { transaction_id: string }).transaction_id === id);
}

describe('GET /api/v1/global_accounts/{id}', () => {
  it('answers the global account itself, with no envelope', async () => {
    const response = await dd(`${GA_PATH}/ga_demo_gb`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      account_name: 'Acme Trading Ltd',
      account_number: '41234567',
      account_type: 'virtual_account',
      capability: {
        clearing_systems: ['BACS', 'FASTER_PAYMENTS', 'CHAPS'],
        payment_methods: ['LOCAL', 'SWIFT'],
        support_direct_debit: true,
      },
      country_code: 'GB',
      currency: 'GBP',
      iban: 'GB37TCBK99001241234567',
      id: 'ga_demo_gb',
      institution: {
        address: '1 Poultry',
        branch_name: 'City of London',
        city: 'London',
        name: 'Thames Clearing Bank plc',
        zip_code: 'EC2R 8EJ',
      },
      nick_name: 'GBP Collections',
      request_id: '5d0c3a9e-7b21-4c6f-9a3e-000000000001',
      routing_codes: [{ type: 'sort_code', value: '990012' }],
    });
  });

  it('carries the routing codes of section 4.3 and the capability of each account', async () => {
    const account = async (id: string) => (await dd(`${GA_PATH}/${id}`)).body;
    expect(await account('ga_demo_us')).toMatchObject({
      country_code: 'US',
      currency: 'USD',
      iban: null,
      routing_codes: [{ type: 'ach', value: '026170024' }],
    });
    expect(await account('ga_demo_us2')).toMatchObject({ country_code: 'US', routing_codes: [{ type: 'ach', value: '026183150' }] });
    expect(await account('ga_demo_au')).toMatchObject({
      country_code: 'AU',
      currency: 'AUD',
      routing_codes: [{ type: 'bsb', value: '062-000' }],
    });
    expect(await account('ga_demo_ca')).toMatchObject({
      country_code: 'CA',
      currency: 'CAD',
      routing_codes: [{ type: 'institution_number', value: '621' }],
    });
    const sg = await account('ga_demo_sg');
    expect(sg).toMatchObject({ country_code: 'SG', currency: 'SGD', capability: { support_direct_debit: false } });
    expect((await dd(`${GA_PATH}/ga_demo_nl`, onBehalfOf(CONNECTED))).body).toMatchObject({
      account_name: 'Acme Benelux B.V.',
      country_code: 'NL',
      currency: 'EUR',
      iban: expect.stringMatching(/^NL\d{2}PLDR4012345678$/),
      routing_codes: [{ type: 'swift', value: 'PLDRNL2A' }],
      capability: { support_direct_debit: true },
    });
  });

  it('answers 404 not_found for an unknown account', async () => {
    const response = await dd(`${GA_PATH}/ga_nope`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: 'not_found', message: 'Global account ga_nope not found' });
  });
});

describe('authentication', () => {
  const endpoints: [string, string][] = [
    ['GET', `${GA_PATH}/ga_demo_gb`],
    ['GET', `${GA_PATH}/ga_demo_gb/mandates`],
    ['GET', `${GA_PATH}/ga_demo_gb/mandates/mdt_demo_gb_1`],
    ['POST', `${GA_PATH}/ga_demo_gb/mandates/mdt_demo_gb_1/cancel`],
    ['GET', DD_PATH],
    ['GET', `${DD_PATH}/ddt_demo_gb_settled`],
    ['POST', `${DD_PATH}/ddt_demo_gb_pending_1/cancel`],
  ];

  it('answers 401 with the code body when the token is missing or invalid, on every endpoint', async () => {
    for (const [method, path] of endpoints) {
      for (const authorization of [undefined, 'Bearer not-a-token', `Basic ${t.api.token}`]) {
        const response = await dd(path, { method, headers: { authorization } });
        expect(response.status, `${method} ${path} ${authorization}`).toBe(401);
        expect(response.body).toEqual(TOKEN_ERROR);
      }
    }
    // Nothing was cancelled on the way.
    expect(t.sandbox.store.mandates.get('mdt_demo_gb_1')?.status).toBe('ACTIVE');
    expect(t.sandbox.store.directDebits.get('ddt_demo_gb_pending_1')?.status).toBe('PENDING');
  });

  it('answers 401 once the token has expired on the sandbox clock', async () => {
    const token = t.api.token;
    await control(t.sandbox, 'POST', '/clock/advance', { minutes: 31 });
    const response = await call(t.sandbox, DD_PATH, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(TOKEN_ERROR);
  });

  it('needs no x-api-key, x-request-id or x-user-id, and no Content-Type on GET', async () => {
    const response = await call(t.sandbox, DD_PATH, { headers: { authorization: `Bearer ${t.api.token}` } });
    expect(response.status).toBe(200);
  });

  it('needs Content-Type: application/json on the POST cancels', async () => {
    const path = `${DD_PATH}/ddt_demo_gb_pending_1/cancel`;
    const missing = await post(path, { headers: { 'content-type': undefined } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ code: 'invalid_request', message: 'Content-Type is a required header and is missing' });
    const text = await post(path, { headers: { 'content-type': 'text/plain' } });
    expect(text.body).toEqual({ code: 'invalid_request', message: 'Content-Type must be application/json' });
    expect(t.sandbox.store.directDebits.get('ddt_demo_gb_pending_1')?.status).toBe('PENDING');
  });

  it('answers a wrong method in the family style', async () => {
    const response = await dd(`${DD_PATH}/ddt_demo_gb_settled`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    expect(response.body).toEqual({ code: 'method_not_allowed', message: 'Method not allowed' });
  });
});

describe('x-on-behalf-of', () => {
  it('shows a connected account only its own global account and payouts', async () => {
    expect((await dd(`${GA_PATH}/ga_demo_nl`, onBehalfOf(CONNECTED))).status).toBe(200);
    const foreign = await dd(`${GA_PATH}/ga_demo_gb`, onBehalfOf(CONNECTED));
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ code: 'not_found', message: 'Global account ga_demo_gb not found' });
    const list = await dd(DD_PATH, onBehalfOf(CONNECTED));
    expect(list.body).toEqual({
      has_more: false,
      items: [
        {
          amount: 275,
          created_at: list.body.items[0].created_at,
          currency: 'EUR',
          debtor_name: 'Acme Benelux B.V.',
          global_account_id: 'ga_demo_nl',
          mandate_id: 'mdt_demo_nl_1',
          statement_ref: 'POLDER 2026-118',
          status: 'SETTLED',
          transaction_id: 'ddt_demo_nl_settled',
        },
      ],
    });
    expect(ids(await dd(`${GA_PATH}/ga_demo_nl/mandates`, onBehalfOf(CONNECTED)), 'id')).toEqual(['mdt_demo_nl_1']);
    expect((await dd(`${DD_PATH}/ddt_demo_gb_settled`, onBehalfOf(CONNECTED))).status).toBe(404);
    expect((await post(`${DD_PATH}/ddt_demo_gb_pending_1/cancel`, onBehalfOf(CONNECTED))).status).toBe(404);
  });

  it("hides the connected account's records from the platform", async () => {
    expect((await dd(`${GA_PATH}/ga_demo_nl`)).status).toBe(404);
    expect(ids(await dd(DD_PATH))).not.toContain('ddt_demo_nl_settled');
    const one = await dd(`${DD_PATH}/ddt_demo_nl_settled`);
    expect(one.status).toBe(404);
    expect(one.body).toEqual({ code: 'not_found', message: 'Direct debit ddt_demo_nl_settled not found' });
  });

  it('answers 403 for an id that is no connected account', async () => {
    for (const path of [`${GA_PATH}/ga_demo_gb`, DD_PATH, `${GA_PATH}/ga_demo_gb/mandates`]) {
      const response = await dd(path, onBehalfOf('conn_unknown'));
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ code: 'forbidden', message: 'x-on-behalf-of conn_unknown is not a connected account' });
    }
    // The token is checked first.
    expect((await dd(DD_PATH, { headers: { authorization: undefined, 'x-on-behalf-of': 'conn_unknown' } })).status).toBe(401);
  });
});

describe('mandates', () => {
  const MANDATES = `${GA_PATH}/ga_demo_gb/mandates`;

  it('lists the page wrapper, newest first, with every field', async () => {
    const response = await dd(MANDATES);
    expect(response.status).toBe(200);
    expect(response.body.has_more).toBe(false);
    expect(ids(response, 'id')).toEqual(['mdt_demo_gb_4', 'mdt_demo_gb_3', 'mdt_demo_gb_2', 'mdt_demo_gb_1']);
    const createdAt = Date.parse(`${sandboxDay(t.sandbox, -12)}T10:00:00Z`);
    expect(response.body.items[0]).toEqual({
      created_at: apiTime(createdAt),
      creditor_name: 'Litware Software Ltd',
      currency: 'GBP',
      debtor_name: 'Acme Trading Ltd',
      global_account_id: 'ga_demo_gb',
      id: 'mdt_demo_gb_4',
      payment_scheme: 'BACS',
      setup_time: apiTime(createdAt + 2 * HOUR),
      status: 'ACTIVE',
    });
    expect(response.body.items[1]).toMatchObject({ id: 'mdt_demo_gb_3', status: 'CANCELLED', creditor_name: 'Fabrikam Insurance plc' });
  });

  it('names the scheme of each country', async () => {
    const scheme = async (account: string, holder?: string) =>
      (await dd(`${GA_PATH}/${account}/mandates`, holder ? onBehalfOf(holder) : {})).body.items.map((item: any) => [
        item.payment_scheme,
        item.currency,
      ]);
    expect(await scheme('ga_demo_us')).toEqual([['ACH', 'USD']]);
    expect(await scheme('ga_demo_au')).toEqual([['BECS', 'AUD']]);
    expect(await scheme('ga_demo_ca')).toEqual([['PAD', 'CAD']]);
    expect(await scheme('ga_demo_nl', CONNECTED)).toEqual([['SEPA', 'EUR']]);
  });

  it('filters by status', async () => {
    expect(ids(await dd(MANDATES, { query: { status: 'ACTIVE' } }), 'id')).toEqual(['mdt_demo_gb_4', 'mdt_demo_gb_2', 'mdt_demo_gb_1']);
    expect(ids(await dd(MANDATES, { query: { status: 'CANCELLED' } }), 'id')).toEqual(['mdt_demo_gb_3']);
    const bad = await dd(MANDATES, { query: { status: 'active' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ code: 'invalid_request', message: 'status must be one of ACTIVE, CANCELLED' });
  });

  it('filters by creation day under both spellings, ends included, either end open', async () => {
    const from = sandboxDay(t.sandbox, -100);
    const to = sandboxDay(t.sandbox, -12);
    const expected = ['mdt_demo_gb_4', 'mdt_demo_gb_3'];
    expect(ids(await dd(MANDATES, { query: { from_created_date: from, to_created_date: to } }), 'id')).toEqual(expected);
    expect(ids(await dd(MANDATES, { query: { from_created_at: from, to_created_at: to } }), 'id')).toEqual(expected);
    expect(ids(await dd(MANDATES, { query: { from_created_at: from, to_created_date: to, to_created_at: to } }), 'id')).toEqual(expected);
    expect(ids(await dd(MANDATES, { query: { to_created_date: sandboxDay(t.sandbox, -13) } }), 'id')).toEqual([
      'mdt_demo_gb_3',
      'mdt_demo_gb_2',
      'mdt_demo_gb_1',
    ]);
    expect(ids(await dd(MANDATES, { query: { from_created_date: sandboxDay(t.sandbox, -150) } }), 'id')).toEqual([
      'mdt_demo_gb_4',
      'mdt_demo_gb_3',
      'mdt_demo_gb_2',
    ]);
  });

  it('refuses malformed, inverted or contradictory dates, naming the field and rule', async () => {
    const error = async (query: Record<string, string>) => (await dd(MANDATES, { query })).body;
    expect(await error({ from_created_date: '2026-02-30' })).toEqual({
      code: 'invalid_request',
      message: 'from_created_date must be a date in the form YYYY-MM-DD',
    });
    expect(await error({ to_created_at: '21/11/2026' })).toEqual({
      code: 'invalid_request',
      message: 'to_created_at must be a date in the form YYYY-MM-DD',
    });
    expect(await error({ from_created_date: sandboxDay(t.sandbox), to_created_date: sandboxDay(t.sandbox, -1) })).toEqual({
      code: 'invalid_request',
      message: 'from_created_date must not be after to_created_date',
    });
    expect(await error({ from_created_date: sandboxDay(t.sandbox, -2), from_created_at: sandboxDay(t.sandbox, -1) })).toEqual({
      code: 'invalid_request',
      message: 'from_created_at must equal from_created_date when both are given',
    });
  });

  it('pages with page_num and page_size', async () => {
    const first = await dd(MANDATES, { query: { page_size: 3 } });
    expect(first.body.has_more).toBe(true);
    expect(ids(first, 'id')).toEqual(['mdt_demo_gb_4', 'mdt_demo_gb_3', 'mdt_demo_gb_2']);
    const second = await dd(MANDATES, { query: { page_size: 3, page_num: 2 } });
    expect(second.body).toMatchObject({ has_more: false });
    expect(ids(second, 'id')).toEqual(['mdt_demo_gb_1']);
    expect((await dd(MANDATES, { query: { page_num: 3, page_size: 3 } })).body).toEqual({ has_more: false, items: [] });
    expect((await dd(MANDATES, { query: { page_size: 101 } })).body).toEqual({
      code: 'invalid_request',
      message: 'page_size must be at most 100',
    });
    expect((await dd(MANDATES, { query: { page_num: 0 } })).body).toEqual({
      code: 'invalid_request',
      message: 'page_num must be at least 1',
    });
  });

  it('refuses an account without direct debit with invalid_operation', async () => {
    const expected = { code: 'invalid_operation', message: 'Global account ga_demo_sg does not support direct debit' };
    for (const path of [`${GA_PATH}/ga_demo_sg/mandates`, `${GA_PATH}/ga_demo_sg/mandates/mdt_demo_gb_1`]) {
      const response = await dd(path);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(expected);
    }
  });

  it('reads one mandate, only under its own account', async () => {
    const one = await dd(`${MANDATES}/mdt_demo_gb_3`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual((await dd(MANDATES, { query: { status: 'CANCELLED' } })).body.items[0]);
    const elsewhere = await dd(`${GA_PATH}/ga_demo_us/mandates/mdt_demo_gb_3`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toEqual({ code: 'not_found', message: 'Mandate mdt_demo_gb_3 not found' });
  });

  it('cancels a mandate with `true`; a later collection under it is REJECTED at once', async () => {
    const cancelled = await post(`${MANDATES}/mdt_demo_gb_4/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toBe(true);
    expect((await dd(`${MANDATES}/mdt_demo_gb_4`)).body.status).toBe('CANCELLED');

    const again = await post(`${MANDATES}/mdt_demo_gb_4/cancel`);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ code: 'invalid_operation', message: 'Mandate mdt_demo_gb_4 is already cancelled' });

    const before = await available('GBP');
    const later = await gbpCollection(200, 'mdt_demo_gb_4');
    expect(later).toMatchObject({ status: 'REJECTED', mandate_id: 'mdt_demo_gb_4', amount: 200 });
    expect(statusEvents(later.transaction_id).map((event) => event.id)).toEqual([
      `${later.transaction_id}_NEW`,
      `${later.transaction_id}_REJECTED`,
    ]);
    await clockTo(now() + 47 * HOUR);
    expect((await dd(`${DD_PATH}/${later.transaction_id}`)).body.status).toBe('REJECTED');
    // The payout already PENDING under it carries on and settles (section 4.2).
    expect((await dd(`${DD_PATH}/ddt_demo_gb_pending_3`)).body.status).toBe('SETTLED');
    expect(before - (await available('GBP'))).toBe(cents(2_300 + 420 + 64.5 + 15_000 + 310));
  });
});

describe('GET /api/v1/direct_debits', () => {
  /**
   * The platform's seeded payouts created on or after the day `fromDaysAgo` days back, newest
   * first, read from the store: some are dated relative to the time of day, so their order is.
   */
  const seeded = (fromDaysAgo: number): string[] => {
    const from = Date.parse(`${sandboxDay(t.sandbox, -fromDaysAgo)}T00:00:00Z`);
    return [...t.sandbox.store.directDebits.values()]
      .filter((record) => record.globalAccountId !== 'ga_demo_nl' && record.createdAt >= from)
      .sort((a, b) => b.createdAt - a.createdAt)
      .map((record) => record.id);
  };

  it('lists the last 30 days of every visible account, newest first, by default', async () => {
    const response = await dd(DD_PATH);
    expect(response.status).toBe(200);
    expect(response.body.has_more).toBe(false);
    const recent = seeded(30);
    expect(recent).toHaveLength(12);
    expect(recent).not.toContain('ddt_demo_gb_old');
    expect(ids(response)).toEqual(recent);
    const times = response.body.items.map((item: any) => parseApiTime(item.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // The seed covers every status.
    expect(new Set(response.body.items.map((item: any) => item.status))).toEqual(
      new Set(['NEW', 'IN_REVIEW', 'PENDING', 'SETTLED', 'REJECTED', 'RETURNED', 'CANCELLED']),
    );
  });

  it('answers every documented field', async () => {
    const created = Date.parse(`${sandboxDay(t.sandbox, -1)}T22:00:00Z`) - 45 * HOUR;
    const settled = {
      amount: 1250,
      created_at: apiTime(created),
      currency: 'GBP',
      debtor_name: 'Acme Trading Ltd',
      global_account_id: 'ga_demo_gb',
      mandate_id: 'mdt_demo_gb_1',
      statement_ref: 'NORTHWIND Q3-0413',
      status: 'SETTLED',
      transaction_id: 'ddt_demo_gb_settled',
    };
    expect((await dd(DD_PATH)).body.items.find((item: any) => item.transaction_id === 'ddt_demo_gb_settled')).toEqual(settled);
    const one = await dd(`${DD_PATH}/ddt_demo_gb_settled`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(settled);
    const unknown = await dd(`${DD_PATH}/ddt_nope`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: 'not_found', message: 'Direct debit ddt_nope not found' });
  });

  it('with only to_created_date, gives the 30 days before it', async () => {
    const to = sandboxDay(t.sandbox, -20);
    expect(ids(await dd(DD_PATH, { query: { to_created_date: to } }))).toEqual(['ddt_demo_gb_old']);
    expect(ids(await dd(DD_PATH, { query: { to_created_at: to } }))).toEqual(['ddt_demo_gb_old']);
    // 45 days back is outside the 30 days before day -10.
    expect(ids(await dd(DD_PATH, { query: { to_created_date: sandboxDay(t.sandbox, -10) } }))).toEqual([]);
    // The window includes both ends: day -45 is exactly 30 days before day -15.
    expect(ids(await dd(DD_PATH, { query: { to_created_date: sandboxDay(t.sandbox, -15) } }))).toEqual(['ddt_demo_gb_old']);
    expect(ids(await dd(DD_PATH, { query: { to_created_date: sandboxDay(t.sandbox, -14) } }))).toEqual([]);
  });

  it('with only from_created_date, runs up to today; with both, exactly the range', async () => {
    const fromFive = await dd(DD_PATH, { query: { from_created_date: sandboxDay(t.sandbox, -5) } });
    expect(ids(fromFive)).toEqual(seeded(5));
    expect(ids(fromFive)).toHaveLength(11);
    const old = await dd(DD_PATH, { query: { from_created_at: sandboxDay(t.sandbox, -60), to_created_at: sandboxDay(t.sandbox, -8) } });
    expect(ids(old)).toEqual(['ddt_demo_gb_cancelled', 'ddt_demo_gb_old']);
    const all = await dd(DD_PATH, { query: { from_created_date: sandboxDay(t.sandbox, -60), to_created_date: sandboxDay(t.sandbox) } });
    expect(ids(all)).toEqual([...seeded(60)]);
    expect(ids(all)).toHaveLength(13);
  });

  it('pages with page_num and page_size', async () => {
    const first = await dd(DD_PATH, { query: { page_size: 5 } });
    expect(first.body.has_more).toBe(true);
    expect(ids(first)).toEqual(seeded(30).slice(0, 5));
    const third = await dd(DD_PATH, { query: { page_size: 5, page_num: 3 } });
    expect(third.body.has_more).toBe(false);
    expect(ids(third)).toEqual(seeded(30).slice(10));
    expect((await dd(DD_PATH, { query: { page_size: 'ten' } })).body).toEqual({
      code: 'invalid_request',
      message: 'page_size must be an integer',
    });
  });
});

describe('POST /api/v1/direct_debits/{id}/cancel', () => {
  it('cancels a PENDING GBP payout on the GB account with `true`; nothing is ever debited', async () => {
    const before = await available('GBP');
    const response = await post(`${DD_PATH}/ddt_demo_gb_pending_1/cancel`);
    expect(response.status).toBe(200);
    expect(response.body).toBe(true);
    expect((await dd(`${DD_PATH}/ddt_demo_gb_pending_1`)).body.status).toBe('CANCELLED');
    const [event] = statusEvents('ddt_demo_gb_pending_1');
    expect(event).toMatchObject({ id: 'ddt_demo_gb_pending_1_CANCELLED', data: { status: 'CANCELLED', amount: 420, currency: 'GBP' } });

    await clockTo(now() + 47 * HOUR);
    expect((await dd(`${DD_PATH}/ddt_demo_gb_pending_1`)).body.status).toBe('CANCELLED');
    const history = (await t.api.get(HISTORY_PATH, { query: { size: 100 } })).body.data as any[];
    expect(history.filter((entry) => entry.description === 'Direct debit to Northwind Energy Ltd' && entry.amount === -420)).toEqual([]);
    // The other pending ones settled meanwhile: the cancelled one is not among the debits.
    expect(before - (await available('GBP'))).toBe(cents(64.5 + 2_300 + 15_000 + 310));
  });

  it('refuses a USD payout and a SETTLED GBP one with invalid_operation', async () => {
    const usd = await collect({ global_account_id: 'ga_demo_us', mandate_id: 'mdt_demo_us_1', amount: 75.25 });
    expect(usd.status).toBe('PENDING');
    for (const id of [usd.transaction_id, 'ddt_demo_gb_settled', 'ddt_demo_gb_review', 'ddt_demo_gb_new', 'ddt_demo_ca_pending']) {
      const response = await post(`${DD_PATH}/${id}/cancel`);
      expect(response.status, id).toBe(400);
      expect(response.body).toEqual(CANCEL_RULE);
    }
    expect((await dd(`${DD_PATH}/${usd.transaction_id}`)).body.status).toBe('PENDING');
    expect((await dd(`${DD_PATH}/ddt_demo_gb_settled`)).body.status).toBe('SETTLED');
    // Once cancelled, a second cancel is refused too.
    expect((await post(`${DD_PATH}/ddt_demo_gb_pending_2/cancel`)).body).toBe(true);
    expect((await post(`${DD_PATH}/ddt_demo_gb_pending_2/cancel`)).body).toEqual(CANCEL_RULE);
  });
});

describe('lifecycle on the sandbox clock', () => {
  it('GBP: NEW, PENDING for 45 hours, then SETTLED with the balance debited and a history entry', async () => {
    const before = await available('GBP');
    const created = await gbpCollection(512.34);
    const id = created.transaction_id as string;
    expect(id).toMatch(/^ddt_[0-9a-f]{16}$/);
    expect(created).toEqual({
      amount: 512.34,
      created_at: created.created_at,
      currency: 'GBP',
      debtor_name: 'Acme Trading Ltd',
      global_account_id: 'ga_demo_gb',
      mandate_id: 'mdt_demo_gb_1',
      statement_ref: expect.stringMatching(/^DD\d{10}$/),
      status: 'PENDING',
      transaction_id: id,
    });
    const createdAt = parseApiTime(created.created_at);

    // Meanwhile the seeded PENDING payouts settle (created 40, 20 and 3 hours before).
    const seededMeanwhile = 2_300 + 64.5 + 420;
    await clockTo(createdAt + 45 * HOUR - SECOND);
    expect((await dd(`${DD_PATH}/${id}`)).body.status).toBe('PENDING');
    expect(await available('GBP')).toBe(before - cents(seededMeanwhile));

    await clockTo(createdAt + 45 * HOUR + SECOND);
    expect((await dd(`${DD_PATH}/${id}`)).body.status).toBe('SETTLED');
    expect(await available('GBP')).toBe(before - cents(seededMeanwhile + 512.34));
    const history = (await t.api.get(HISTORY_PATH, { query: { size: 10 } })).body.data as any[];
    const entry = history.find((item) => item.amount === -512.34);
    expect(entry).toEqual({
      id: expect.stringMatching(/^bh_/),
      amount: -512.34,
      currency: 'GBP',
      balance: entry.balance,
      description: 'Direct debit to Northwind Energy Ltd',
      fee: 0,
      create_time: apiTime(createdAt + 45 * HOUR),
      source_type: 'DIRECT_DEBIT',
      transaction_type: 'DIRECT_DEBIT',
    });

    const events = statusEvents(id);
    expect(events.map((event) => event.id)).toEqual([`${id}_NEW`, `${id}_PENDING`, `${id}_SETTLED`]);
    expect(events[2]).toMatchObject({
      name: 'direct_debit.status_changed',
      account_id: DEMO_CREDENTIALS.userId,
      version: '2025-02-14',
      data: {
        transaction_id: id,
        mandate_id: 'mdt_demo_gb_1',
        global_account_id: 'ga_demo_gb',
        status: 'SETTLED',
        amount: 512.34,
        currency: 'GBP',
      },
    });
    expect(parseApiTime(events[2]?.created_at ?? '') - parseApiTime(events[1]?.created_at ?? '')).toBe(45 * HOUR);
  });

  it('other currencies stay PENDING 2 hours', async () => {
    const before = await available('USD');
    const usd = await collect({
      global_account_id: 'ga_demo_us2',
      mandate_id: 'mdt_demo_us2_1',
      amount: 40,
      currency: 'USD',
      statement_ref: 'HUDSON 0001',
    });
    expect(usd).toMatchObject({ status: 'PENDING', statement_ref: 'HUDSON 0001', global_account_id: 'ga_demo_us2' });
    await clockTo(parseApiTime(usd.created_at) + 2 * HOUR + SECOND);
    expect((await dd(`${DD_PATH}/${usd.transaction_id}`)).body.status).toBe('SETTLED');
    expect(before - (await available('USD'))).toBe(cents(40));
  });

  it('holds an amount over 10,000 IN_REVIEW for 2 hours before PENDING', async () => {
    const large = await gbpCollection(10_000.01);
    expect(large.status).toBe('IN_REVIEW');
    expect((await gbpCollection(10_000)).status).toBe('PENDING');
    const createdAt = parseApiTime(large.created_at);
    await clockTo(createdAt + 2 * HOUR - SECOND);
    expect((await dd(`${DD_PATH}/${large.transaction_id}`)).body.status).toBe('IN_REVIEW');
    await clockTo(createdAt + 2 * HOUR + SECOND);
    expect((await dd(`${DD_PATH}/${large.transaction_id}`)).body.status).toBe('PENDING');
    await clockTo(createdAt + 47 * HOUR + SECOND);
    expect((await dd(`${DD_PATH}/${large.transaction_id}`)).body.status).toBe('SETTLED');
    expect(statusEvents(large.transaction_id).map((event) => (event.data as { status: string }).status)).toEqual([
      'NEW',
      'IN_REVIEW',
      'PENDING',
      'SETTLED',
    ]);
  });

  it('rejects at settlement when the balance cannot cover it, debiting nothing', async () => {
    const gbp = await available('GBP');
    const tooLarge = await gbpCollection(9_000_000);
    const aud = await collect({ global_account_id: 'ga_demo_au', mandate_id: 'mdt_demo_au_1', amount: 120 });
    expect(aud.status).toBe('PENDING');
    await clockTo(parseApiTime(aud.created_at) + 2 * HOUR + SECOND);
    expect((await dd(`${DD_PATH}/${aud.transaction_id}`)).body.status).toBe('REJECTED');
    await clockTo(parseApiTime(tooLarge.created_at) + 47 * HOUR + SECOND);
    expect((await dd(`${DD_PATH}/${tooLarge.transaction_id}`)).body.status).toBe('REJECTED');
    expect(statusEvents(tooLarge.transaction_id).map((event) => (event.data as { status: string }).status)).toEqual([
      'NEW',
      'IN_REVIEW',
      'PENDING',
      'REJECTED',
    ]);
    // Only the payouts the balance covers were debited.
    expect(gbp - (await available('GBP'))).toBe(cents(2_300 + 64.5 + 420 + 15_000 + 310));
    const balances = (await t.api.get(BALANCE_PATH)).body.data.map((balance: { currency: string }) => balance.currency);
    expect(balances).not.toContain('AUD');
  });

  it('takes the seeded NEW payout up a quarter of an hour after the start', async () => {
    expect((await dd(`${DD_PATH}/ddt_demo_gb_new`)).body.status).toBe('NEW');
    await clockTo(now() + 16 * 60_000);
    expect((await dd(`${DD_PATH}/ddt_demo_gb_new`)).body.status).toBe('PENDING');
    expect(statusEvents('ddt_demo_gb_new').map((event) => event.id)).toEqual(['ddt_demo_gb_new_PENDING']);
  });
});

describe('POST /sandbox/direct-debits', () => {
  it('refuses what no creditor could collect', async () => {
    const refused = async (body: Record<string, unknown>) => {
      const response = await control(t.sandbox, 'POST', '/direct-debits', body);
      return [response.status, response.body.error];
    };
    expect(await refused({ global_account_id: 'ga_demo_gb', mandate_id: 'mdt_demo_gb_1' })).toEqual([400, 'amount is required']);
    expect(await refused({ global_account_id: 'ga_demo_gb', mandate_id: 'mdt_demo_gb_1', amount: 0 })).toEqual([
      400,
      'amount must be greater than 0',
    ]);
    expect(await refused({ global_account_id: 'ga_demo_gb', mandate_id: 'mdt_demo_gb_1', amount: 1.234 })).toEqual([
      400,
      'amount must have at most 2 decimal place(s) for GBP',
    ]);
    expect(await refused({ global_account_id: 'ga_demo_gb', mandate_id: 'mdt_demo_gb_1', amount: 1, currency: 'USD' })).toEqual([
      400,
      "currency must be GBP, the global account's currency",
    ]);
    expect(await refused({ global_account_id: 'ga_demo_gb', mandate_id: 'mdt_demo_us_1', amount: 1 })).toEqual([
      400,
      'Mandate mdt_demo_us_1 belongs to global account ga_demo_us',
    ]);
    expect(await refused({ global_account_id: 'ga_demo_gb', mandate_id: 'mdt_nope', amount: 1 })).toEqual([
      404,
      'Mandate mdt_nope not found',
    ]);
    expect(await refused({ global_account_id: 'ga_demo_sg', mandate_id: 'mdt_demo_gb_1', amount: 1 })).toEqual([
      400,
      'Global account ga_demo_sg does not support direct debit',
    ]);
  });
});

describe('disputes (POST /sandbox/direct-debits/{id}/dispute)', () => {
  it('payer wins: SETTLED to RETURNED, the funds credited back, an event emitted', async () => {
    const before = await available('GBP');
    const response = await control(t.sandbox, 'POST', '/direct-debits/ddt_demo_gb_settled/dispute', { outcome: 'payer' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ transaction_id: 'ddt_demo_gb_settled', status: 'RETURNED', amount: 1250 });
    expect((await dd(`${DD_PATH}/ddt_demo_gb_settled`)).body.status).toBe('RETURNED');
    expect((await available('GBP')) - before).toBe(cents(1250));
    const [latest] = (await t.api.get(HISTORY_PATH, { query: { size: 1 } })).body.data;
    expect(latest).toMatchObject({
      amount: 1250,
      currency: 'GBP',
      description: 'Direct debit to Northwind Energy Ltd returned',
      fee: 0,
      source_type: 'DIRECT_DEBIT',
      transaction_type: 'DIRECT_DEBIT_RETURN',
    });
    expect(cents(latest.balance)).toBe(before + cents(1250));
    const events = statusEvents('ddt_demo_gb_settled');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      id: 'ddt_demo_gb_settled_RETURNED',
      data: { status: 'RETURNED', amount: 1250, currency: 'GBP', mandate_id: 'mdt_demo_gb_1' },
    });

    const again = await control(t.sandbox, 'POST', '/direct-debits/ddt_demo_gb_settled/dispute', { outcome: 'payer' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'Only SETTLED direct debits can be disputed: ddt_demo_gb_settled is RETURNED' });
  });

  it('creditor wins: stays SETTLED, nothing moves', async () => {
    const before = await available('USD');
    const response = await control(t.sandbox, 'POST', '/direct-debits/ddt_demo_us_settled/dispute', { outcome: 'creditor' });
    expect(response.body).toMatchObject({ status: 'SETTLED' });
    expect(await available('USD')).toBe(before);
    expect(statusEvents('ddt_demo_us_settled')).toEqual([]);
  });

  it('refuses an unsettled payout, an unknown outcome, and a dispute after the window', async () => {
    const pending = await control(t.sandbox, 'POST', '/direct-debits/ddt_demo_gb_pending_1/dispute', { outcome: 'payer' });
    expect(pending.body).toEqual({ error: 'Only SETTLED direct debits can be disputed: ddt_demo_gb_pending_1 is PENDING' });
    expect((await control(t.sandbox, 'POST', '/direct-debits/ddt_demo_gb_settled/dispute', { outcome: 'bank' })).body).toEqual({
      error: 'outcome must be one of payer, creditor',
    });
    expect((await control(t.sandbox, 'POST', '/direct-debits/ddt_nope/dispute', { outcome: 'payer' })).status).toBe(404);

    // The Netherlands: no dispute after 13 months; the UK: no limit.
    await clockTo(now() + 400 * 86_400_000);
    const late = await control(t.sandbox, 'POST', '/direct-debits/ddt_demo_nl_settled/dispute', { outcome: 'payer' });
    expect(late.status).toBe(400);
    expect(late.body.error).toMatch(/^The dispute window of ddt_demo_nl_settled closed at \d{4}-\d{2}-\d{2}T20:00:00\+0000$/);
    expect((await control(t.sandbox, 'POST', '/direct-debits/ddt_demo_gb_settled/dispute', { outcome: 'payer' })).body.status).toBe(
      'RETURNED',
    );
  });
});
