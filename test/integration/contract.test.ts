import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS } from '@banking-gateway/sandbox';
import { accountEndpoints } from '../../src/upstream/accounts.ts';
import { loginEndpoint } from '../../src/upstream/bank-tokens.ts';
import { beneficiaryEndpoints } from '../../src/upstream/beneficiaries.ts';
import { cardholderEndpoints } from '../../src/upstream/cardholders.ts';
import { cardEndpoints } from '../../src/upstream/cards.ts';
import { directDebitEndpoints } from '../../src/upstream/direct-debit.ts';
import { fxEndpoints } from '../../src/upstream/fx.ts';
import { kycEndpoints } from '../../src/upstream/kyc.ts';
import { onboardingEndpoints } from '../../src/upstream/onboarding.ts';
import { payoutEndpoints } from '../../src/upstream/payouts.ts';
import { walletEndpoints } from '../../src/upstream/wallets.ts';
import { webhookEndpoints } from '../../src/upstream/webhooks.ts';
import {
  CONTRACT,
  CONTRACT_ENDPOINTS,
  CONTRACT_EVENTS,
  contractEndpoint,
  errorProblems,
  eventProblems,
  pathPattern,
  requestPath,
  responseProblems,
} from '../helpers/contract.ts';
import {
  ACCOUNT_PATH,
  BALANCE_PATH,
  CARD_PATH,
  CARDHOLDER_PATH,
  HISTORY_PATH,
  KYC_PATH,
  TRANSACTIONS_PATH,
  TRANSFER_PATH,
  WALLET_PATH,
  advanceClockTo,
  call,
  control,
  gbLocalBody,
  individualCardholder,
  issuingHeaders,
  LOGIN_BODY,
  LOGIN_PATH,
  sandboxDay,
  simulate,
  usBody,
  useSandbox,
  virtualCardBody,
  type ApiResponse,
  type CallOptions,
} from '../../sandbox/test/helpers.ts';
import { SUBSCRIBE_PATH, subscriptionBody, webhookCall } from '../../sandbox/test/webhook-helpers.ts';

// Issue 14, point 13: the sandbox's answers held to schema/upstream-contract.json, the project's own
// description of every documented response shape. Each journey reaches its endpoints with real data
// (lists not empty), and every event the journeys emit is checked against its documented payload.

const t = useSandbox();

beforeEach(() => {
  reached = new Set();
});

/** Endpoint numbers a journey reached, each with an answer that follows the contract. */
let reached = new Set<number>();

interface HitOptions {
  /** The documents allow an empty list here and the journey cannot fill it. */
  emptyAllowed?: boolean;
}

/** The lists inside an answer: the envelope's data, a page's items, the conversion list's conversions. */
function listsIn(value: unknown): unknown[][] {
  if (Array.isArray(value)) return [value, ...value.flatMap(listsIn)];
  if (value === null || typeof value !== 'object') return [];
  const record = value as Record<string, unknown>;
  return ['data', 'items', 'conversions'].flatMap((key) => (key in record ? listsIn(record[key]) : []));
}

/** Asserts a 200 whose body follows endpoint `number`'s documented shape, with real data in it. */
function hit(number: number, response: ApiResponse, options: HitOptions = {}): any {
  expect(response.status, `endpoint ${number}: ${JSON.stringify(response.body)}`).toBe(200);
  expect.soft(responseProblems(number, response.body), `endpoint ${number}`).toEqual([]);
  if (options.emptyAllowed !== true) {
    for (const list of listsIn(response.body)) expect(list.length, `endpoint ${number} answered an empty list`).toBeGreaterThan(0);
  }
  reached.add(number);
  return response.body;
}

/** The journey reached exactly `numbers`, and the sandbox's request log shows each one's method and path. */
async function expectReached(numbers: number[]): Promise<void> {
  expect([...reached].sort((a, b) => a - b)).toEqual(numbers);
  const log = (await control(t.sandbox, 'GET', '/requests')).body as { method: string; path: string; status: number }[];
  for (const number of numbers) {
    const entry = contractEndpoint(number);
    const pattern = pathPattern(entry);
    const seen = log.some((request) => request.method === entry.method && pattern.test(request.path) && request.status === 200);
    expect(seen, `no 200 for ${entry.method} ${entry.path} in the request log`).toBe(true);
  }
  reached = new Set();
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, index) => from + index);

// Document 3's direct debit family: the bearer token only, Content-Type on POST.
function directDebit(path: string, method = 'GET', query?: CallOptions['query']): Promise<ApiResponse> {
  const json = method === 'POST' ? { 'content-type': 'application/json' } : {};
  return call(t.sandbox, path, { method, query, headers: { authorization: `Bearer ${t.api.token}`, ...json } });
}

const wallet = (method: string, path: string, cardholderId: string, options: CallOptions = {}) =>
  call(t.sandbox, `${WALLET_PATH}${path}`, { ...options, method, headers: issuingHeaders('wallet', cardholderId, options.headers) });
const kyc = (path: string, cardholderId: string) => call(t.sandbox, `${KYC_PATH}${path}`, { headers: issuingHeaders('kyc', cardholderId) });

async function accountsJourney(): Promise<void> {
  const login = await call(t.sandbox, LOGIN_PATH, {
    method: 'POST',
    headers: { 'x-api-key': DEMO_CREDENTIALS.apiKey, 'content-type': 'application/json' },
    body: LOGIN_BODY,
  });
  hit(1, login);
  const created = hit(
    2,
    await t.api.send('POST', ACCOUNT_PATH, {
      body: {
        type: 'virtual_account',
        country: 'SG',
        currency: 'SGD',
        label: 'Contract check',
        required_features: [{ currency: 'SGD', transfer_method: 'LOCAL' }],
      },
    }),
  );
  const accounts = hit(3, await t.api.get(ACCOUNT_PATH)).data as {
    id: string;
    status: string;
    required_features: { currency: string }[];
  }[];
  const usd = accounts.find((account) => account.status === 'ACTIVE' && account.required_features[0]?.currency === 'USD');
  hit(5, await t.api.get(BALANCE_PATH));
  const today = sandboxDay(t.sandbox);
  const window = { from_date: sandboxDay(t.sandbox, -30), to_date: today };
  hit(6, await t.api.get(TRANSACTIONS_PATH, { headers: { 'x-account-id': usd?.id ?? 'none' }, query: window }));
  hit(7, await t.api.get(HISTORY_PATH, { query: { from_date: sandboxDay(t.sandbox, -6), to_date: today } }));
  hit(4, await t.api.send('DELETE', ACCOUNT_PATH, { headers: { 'x-account-id': created.data[0].id } }));

  const beneficiary = hit(8, await t.api.send('POST', `${TRANSFER_PATH}/beneficiary`, { body: usBody() })).data[0].id as string;
  const combination = { account_currency: 'USD', bank_country_code: 'US', entity_type: 'COMPANY', transfer_method: 'SWIFT' };
  hit(9, await t.api.get(`${TRANSFER_PATH}/beneficiaryschema`, { query: combination }));
  hit(10, await t.api.send('PATCH', `${TRANSFER_PATH}/beneficiary/${beneficiary}`, { body: { nickname: 'Globex (US)' } }));
  hit(11, await t.api.get(`${TRANSFER_PATH}/beneficiarylist`));
  hit(12, await t.api.get(`${TRANSFER_PATH}/beneficiarylist/${beneficiary}`));
  hit(13, await t.api.send('DELETE', `${TRANSFER_PATH}/beneficiary/${beneficiary}`));
  const local = hit(8, await t.api.send('POST', `${TRANSFER_PATH}/beneficiary`, { body: gbLocalBody() })).data[0].id as string;
  hit(12, await t.api.get(`${TRANSFER_PATH}/beneficiarylist/${local}`));
}

async function quote(quoteType: 'payout' | 'conversion', conversionSchedule: string): Promise<Record<string, any>> {
  const body = {
    quoteType,
    lockPeriod: '15_mins',
    conversionSchedule,
    sourceCurrencyCode: 'USD',
    destinationCurrencyCode: 'EUR',
    sourceAmount: 250,
  };
  return hit(19, await t.api.send('POST', `${TRANSFER_PATH}/quote`, { body })).data[0];
}

async function paymentsJourney(): Promise<void> {
  const payoutQuote = await quote('payout', 'immediate');
  const payoutBody = (tomorrow: number) => ({
    beneficiaryId: 'ben_demo_de',
    sourceAmount: Number(payoutQuote.sourceAmount),
    sourceCurrencycode: 'USD',
    destinationCurrencycode: 'EUR',
    destinationCountry: 'DE',
    feeType: 'SHA',
    quoteId: payoutQuote.id,
    reference: 'Invoice FC-1042',
    sourceOfFunds: 'Business revenue',
    transferMethod: 'SWIFT',
    scheduledPayoutDate: sandboxDay(t.sandbox, tomorrow),
  });
  const payout = hit(14, await t.api.send('POST', `${TRANSFER_PATH}/payout`, { body: payoutBody(1) })).data[0].id as string;
  hit(15, await t.api.get(`${TRANSFER_PATH}/payout/${payout}`));
  hit(17, await t.api.get(`${TRANSFER_PATH}/upcomingpayouts`));
  const second = await quote('payout', 'immediate');
  const cancelled = hit(14, await t.api.send('POST', `${TRANSFER_PATH}/payout`, { body: { ...payoutBody(2), quoteId: second.id } })).data[0]
    .id;
  hit(16, await t.api.send('PATCH', `${TRANSFER_PATH}/cancelpayout`, { body: { id: cancelled } }));

  hit(
    18,
    await t.api.get(`${TRANSFER_PATH}/rate`, { query: { sourceCurrencyCode: 'USD', destinationCurrencyCode: 'EUR', sourceAmount: 100 } }),
  );
  const conversionQuote = await quote('conversion', 'next_day');
  hit(20, await t.api.get(`${TRANSFER_PATH}/quotedetails`, { query: { quote_id: conversionQuote.id } }));
  const conversion = hit(
    21,
    await t.api.send('POST', `${TRANSFER_PATH}/conversion`, {
      body: { quote_id: conversionQuote.id, source_amount: 250, source_currency: 'USD', destination_currency: 'EUR' },
    }),
  ).data.id as string;
  hit(22, await t.api.get(`${TRANSFER_PATH}/conversion/${conversion}`));
  hit(23, await t.api.get(`${TRANSFER_PATH}/conversionlist`));
}

const PHYSICAL_CARD = '4000056655665556';

async function cardsJourney(): Promise<void> {
  const card = hit(24, await t.api.send('POST', CARD_PATH, { body: virtualCardBody('chd_demo_ava') })).data.id as string;
  const assignBody = {
    cardholder_id: 'chd_demo_ava',
    card_number: PHYSICAL_CARD,
    card_currency: 'USD',
    card_mode: 'SINGLE',
    created_by: 'Jordan Miles',
  };
  hit(25, await t.api.send('POST', `${CARD_PATH}/assign`, { body: assignBody }));
  const emails = (await control(t.sandbox, 'GET', '/emails')).body as { cardId: string; activationCode: string }[];
  const physical = emails[emails.length - 1]!;
  hit(26, await t.api.get(CARD_PATH));
  hit(27, await t.api.get(`${CARD_PATH}/detail`, { query: { id: physical.cardId } }));
  hit(27, await t.api.get(`${CARD_PATH}/detail`, { query: { id: card } }));
  hit(
    28,
    await t.api.send('POST', `${CARD_PATH}/activate`, {
      query: { id: physical.cardId },
      body: { activation_code: physical.activationCode, pin: '482913' },
    }),
  );
  hit(29, await t.api.send('POST', `${CARD_PATH}/pin`, { query: { id: physical.cardId }, body: { pin: '615204' } }));
  hit(31, await t.api.send('POST', `${CARD_PATH}/recharge`, { query: { id: card }, body: { amount: 120 } }));
  const spent = await simulate(t.sandbox, card, { kind: 'authorization', amount: 40 });
  expect(spent.status, JSON.stringify(spent.body)).toBe(200);
  hit(32, await t.api.get(`${CARD_PATH}/transaction`, { query: { id: card } }));
  // INACTIVE: issuing.card.blocked.
  hit(30, await t.api.send('PATCH', CARD_PATH, { query: { id: card }, body: { card_status: 'INACTIVE', updated_by: 'Jordan Miles' } }));
}

async function cardholdersJourney(): Promise<void> {
  const created = hit(33, await t.api.send('POST', CARDHOLDER_PATH, { body: individualCardholder() })).data[0].id as string;
  hit(34, await t.api.get(CARDHOLDER_PATH));
  hit(35, await t.api.get(CARDHOLDER_PATH, { query: { id: created } }));
  hit(
    36,
    await t.api.send('PATCH', CARDHOLDER_PATH, {
      query: { id: created },
      body: { mobile_number: '+15125550199', updated_by: 'Jordan Miles' },
    }),
  );
  hit(37, await t.api.send('DELETE', CARDHOLDER_PATH, { query: { id: created } }));

  hit(38, await wallet('POST', '', 'chd_demo_ava', { body: { currency: 'EUR' } }));
  const wallets = hit(39, await wallet('GET', '', 'chd_demo_ava')).data as { id: string; currency: string }[];
  const usd = wallets.find((entry) => entry.currency === 'USD');
  hit(40, await wallet('GET', '/history', 'chd_demo_ava', { headers: { 'x-wallet-id': usd?.id ?? 'none' } }));

  hit(41, await kyc('', 'chd_demo_ava'));
  const rejection = { reason: 'Address proof unreadable', address: ['R01'], document: ['D02'] };
  expect((await control(t.sandbox, 'POST', '/kyc/chd_demo_new/reject', rejection)).status).toBe(200);
  hit(42, await kyc('/rfi', 'chd_demo_new'));
  hit(43, await kyc('/rfi/respond', 'chd_demo_new'));
  hit(44, await t.api.get('/svc/api/v1/user'));
  hit(45, await t.api.get('/svc/api/v1/user/rfi'));
}

async function webhooksJourney(): Promise<void> {
  const program = { program_code: DEMO_CREDENTIALS.productId };
  hit(46, await webhookCall(t.sandbox, 'GET', '/getallwebhooks', { query: program }));
  hit(47, await webhookCall(t.sandbox, 'POST', SUBSCRIBE_PATH, { body: subscriptionBody() }));
  const notification = subscriptionBody({
    event_name: 'issuing.card.blocked',
    subscription_type: 'n',
    webhook_url: undefined,
    x_api_key: undefined,
  });
  hit(47, await webhookCall(t.sandbox, 'POST', SUBSCRIBE_PATH, { body: notification }));
  const agent = { agent_code: 'AG1', subagent_code: 'SUB1' };
  hit(48, await webhookCall(t.sandbox, 'POST', '/api/subscribedwebhook', { query: program, body: agent }));
  hit(
    49,
    await webhookCall(t.sandbox, 'PATCH', SUBSCRIBE_PATH, {
      body: { ...subscriptionBody({ webhook_url: 'https://hooks.acme.example/v2' }), updated_by: 'Jordan Miles' },
    }),
  );
  const key = { event_name: 'issuing.card.blocked', ...agent, program_code: DEMO_CREDENTIALS.productId, company_code: 'CMP1' };
  hit(50, await webhookCall(t.sandbox, 'DELETE', SUBSCRIBE_PATH, { body: key }));
}

async function directDebitJourney(): Promise<void> {
  hit(51, await directDebit('/api/v1/global_accounts/ga_demo_gb'));
  hit(52, await directDebit('/api/v1/global_accounts/ga_demo_gb/mandates'));
  const mandates = hit(52, await directDebit('/api/v1/global_accounts/ga_demo_gb/mandates', 'GET', { status: 'ACTIVE' })).items as {
    id: string;
  }[];
  const mandate = `/api/v1/global_accounts/ga_demo_gb/mandates/${mandates[mandates.length - 1]!.id}`;
  hit(53, await directDebit(mandate));
  hit(54, await directDebit(`${mandate}/cancel`, 'POST'));
  hit(55, await directDebit('/api/v1/direct_debits'));
  hit(56, await directDebit('/api/v1/direct_debits/ddt_demo_gb_pending_1'));
  hit(57, await directDebit('/api/v1/direct_debits/ddt_demo_gb_pending_1/cancel', 'POST'));
}

describe('schema/upstream-contract.json', () => {
  it('describes the 57 endpoints, numbered as the documents list them, and the gateway calls each of them', () => {
    expect(CONTRACT_ENDPOINTS.map((entry) => entry.number)).toEqual(range(1, 57));
    const tables = [
      loginEndpoint,
      ...[
        accountEndpoints,
        beneficiaryEndpoints,
        payoutEndpoints,
        fxEndpoints,
        cardEndpoints,
        cardholderEndpoints,
        walletEndpoints,
        kycEndpoints,
        onboardingEndpoints,
        webhookEndpoints,
        directDebitEndpoints,
      ].flatMap(Object.values),
    ];
    const gateway = tables.map((endpoint) => `${endpoint.method} ${endpoint.path.replace('{svc}', 'svc').replace(/\{[^}]+\}/g, '{}')}`);
    const contract = CONTRACT_ENDPOINTS.map((entry) => `${entry.method} ${requestPath(entry).replace(/\{[^}]+\}/g, '{}')}`);
    expect(gateway.sort()).toEqual(contract.sort());
  });

  it('names, in every x-choice, a row of the table of choices (docs/sandbox.md)', () => {
    const readme = readFileSync(new URL('../../docs/sandbox.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('### Where the documents are silent'), readme.indexOf('### Driving it'));
    const rows = new Set([...table.matchAll(/^\| ([^|]+?) \|/gm)].map((match) => match[1]));
    const named = [...JSON.stringify(CONTRACT).matchAll(/"x-choice":"([^"]+)"/g)].map((match) => match[1]);
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((topic) => !rows.has(topic))).toEqual([]);
  });

  it('refuses answers that part from the documents, naming the field', async () => {
    const accounts = (await t.api.get(ACCOUNT_PATH)).body;
    expect(responseProblems(3, accounts)).toEqual([]);
    const broken = structuredClone(accounts);
    broken.data[0].status = 'OPEN';
    delete broken.data[0].account_number;
    broken.data[0].nickname = 'not documented';
    expect(responseProblems(3, broken)).toEqual([
      'data.0.status: Invalid option: expected one of "ACTIVE"|"INACTIVE"|"CLOSED"',
      'data.0.account_number: Invalid input: expected string, received undefined',
      'data.0: Unrecognized key: "nickname"',
    ]);
    expect(responseProblems(54, false)).toEqual(['(root): Invalid input: expected true']);
    expect(
      eventProblems({
        name: 'issuing.cardholder.deleted',
        id: 'x',
        account_id: 'a',
        created_at: '2026-01-01T00:00:00Z',
        version: '2025-02-14',
        data: { cardholder_id: 'c', deleted: false },
      }),
    ).toEqual([
      'data.deleted: Invalid input: expected true',
      'created_at: Invalid string: must match pattern /^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\+0000$/',
    ]);
    // The sandbox's own contract fault breaks a payload; the contract sees it.
    await control(t.sandbox, 'POST', '/faults', { method: 'GET', path: BALANCE_PATH, count: 1, kind: 'contract' });
    const faulted = await t.api.get(BALANCE_PATH);
    expect(responseProblems(5, faulted.body).length).toBeGreaterThan(0);
  });

  it('holds the documented error bodies: the envelope of Documents 1 and 2, the code of the direct debit family', async () => {
    const missing = await t.api.send('DELETE', ACCOUNT_PATH);
    expect(missing.status).toBe(400);
    expect(errorProblems('ErrorEnvelope', missing.body)).toEqual([]);
    const refused = await directDebit('/api/v1/direct_debits/ddt_demo_us_settled/cancel', 'POST');
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('invalid_operation');
    expect(errorProblems('DirectDebitError', refused.body)).toEqual([]);
  });
});

describe('the sandbox answers every endpoint as the contract describes', () => {
  it('Document 1: login, accounts, balances, transactions, beneficiaries (1-13)', async () => {
    await accountsJourney();
    await expectReached(range(1, 13));
  });

  it('Document 1: payouts, rates, quotes, conversions (14-23)', async () => {
    await paymentsJourney();
    await expectReached(range(14, 23));
  });

  it('Document 2: cards (24-32)', async () => {
    await cardsJourney();
    await expectReached(range(24, 32));
  });

  it('Document 2: cardholders, wallets, KYC, onboarding (33-45)', async () => {
    await cardholdersJourney();
    await expectReached(range(33, 45));
  });

  it('Document 3: webhook management, global accounts, mandates, direct debits (46-57)', async () => {
    await webhooksJourney();
    await directDebitJourney();
    await expectReached(range(46, 57));
  });
});

describe('every event the sandbox emits follows the contract', () => {
  it('covers every documented event, each with its documented envelope and data', async () => {
    await paymentsJourney();
    await cardsJourney();
    await cardholdersJourney();
    await directDebitJourney();
    // A cardholder kept through its review: issuing.cardholder.pending now, .ready ten minutes on.
    expect((await t.api.send('POST', CARDHOLDER_PATH, { body: individualCardholder({ email: 'liam.ward@acme.example' }) })).status).toBe(
      200,
    );
    expect((await control(t.sandbox, 'POST', '/deposits', { currency: 'USD', amount: 1250, payer_name: 'Globex' })).status).toBe(200);
    expect(
      (await control(t.sandbox, 'POST', '/deposits', { currency: 'USD', amount: 90, payer_name: 'Initech', reject: true })).status,
    ).toBe(200);
    expect(
      (await control(t.sandbox, 'POST', '/direct-debits', { global_account_id: 'ga_demo_gb', mandate_id: 'mdt_demo_gb_1', amount: 42 }))
        .status,
    ).toBe(200);
    const conversions = (await t.api.get(`${TRANSFER_PATH}/conversionlist`)).body.data[0].conversions as { id: string }[];
    for (const name of ['account.submitted', 'account.active', 'account.suspended']) {
      expect((await control(t.sandbox, 'POST', '/events', { name })).status).toBe(200);
    }
    // An RFI event names an RFI the sandbox holds (the seeded one).
    expect((await control(t.sandbox, 'POST', '/events', { name: 'rfi.action_required', resource_id: 'rfi_demo_kyc' })).status).toBe(200);
    for (const name of ['conversion.cancelled', 'conversion.overdue']) {
      expect((await control(t.sandbox, 'POST', '/events', { name, resource_id: conversions[0]!.id })).status).toBe(200);
    }
    // Two days on: the payout is funded, the conversion settled, the new cardholder's review done.
    t.api = await advanceClockTo(t.sandbox, t.sandbox.clock.now().getTime() + 2 * 86_400_000);
    await t.api.get(`${TRANSFER_PATH}/upcomingpayouts`);
    await t.api.get(`${TRANSFER_PATH}/conversionlist`);
    await t.api.get(CARDHOLDER_PATH);

    const events = (await control(t.sandbox, 'GET', '/events')).body as { name: string }[];
    const failing = events
      .map((event) => ({ name: event.name, problems: eventProblems(event) }))
      .filter((entry) => entry.problems.length > 0);
    expect(failing).toEqual([]);
    expect([...new Set(events.map((event) => event.name))].sort()).toEqual([...CONTRACT_EVENTS].sort());
  });
});
