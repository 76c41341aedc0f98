import { afterAll, beforeAll, beforeEach } from 'vitest';
import { DEMO_CREDENTIALS, startSandbox, type Sandbox, type SandboxOptions } from '../src/index.ts';

export const LOGIN_PATH = '/api/v1/authentication/login';
export const ACCOUNT_PATH = '/svc/api/v1/account';
export const BALANCE_PATH = '/svc/api/v1/account/balance';
export const TRANSACTIONS_PATH = '/svc/api/v1/account/transactions';
export const HISTORY_PATH = '/svc/api/v1/account/balance/history';
export const TRANSFER_PATH = '/svc/api/v1/transfer';

export const LOGIN_BODY = {
  client_key: DEMO_CREDENTIALS.clientKey,
  client_secret: DEMO_CREDENTIALS.clientSecret,
  email: DEMO_CREDENTIALS.email,
};

export const TOKEN_ERROR = {
  code: 401,
  status: 'Error',
  message: 'Access token is missing, invalid or expired',
  data: null,
};

// Tests share a silent logger: an expected 500 must not clutter the output.
export function startTestSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ port: 0, logger: { info: () => {}, warn: () => {} }, ...options });
}

/** One sandbox for the test file, reset before each test, with a client logged in afresh. */
export interface TestContext {
  sandbox: Sandbox;
  api: Api;
}

export function useSandbox(options: SandboxOptions = {}): TestContext {
  const context = {} as TestContext;
  beforeAll(async () => {
    context.sandbox = await startTestSandbox(options);
  });
  afterAll(() => context.sandbox.close());
  beforeEach(async () => {
    context.sandbox.reset();
    context.api = await apiClient(context.sandbox);
  });
  return context;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  // Tests assert on arbitrary JSON shapes.
  body: any;
}

export interface CallOptions {
  method?: string;
  /** `undefined` removes a header from the defaults. */
  headers?: Record<string, string | undefined>;
  body?: unknown;
  /** Sent verbatim instead of JSON-encoding `body`. */
  rawBody?: string;
  query?: Record<string, string | number>;
}

export async function call(sandbox: Sandbox, path: string, options: CallOptions = {}): Promise<ApiResponse> {
  const url = new URL(path, sandbox.url);
  for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, String(value));
  const headers = Object.fromEntries(
    Object.entries(options.headers ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const text = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  // Bytes, not a string: fetch would otherwise add a text/plain Content-Type of its own.
  const body = text === undefined ? undefined : new TextEncoder().encode(text);
  const response = await fetch(url, { method: options.method ?? 'GET', headers, body });
  const reply = await response.text();
  return { status: response.status, headers: response.headers, body: reply === '' ? undefined : JSON.parse(reply) };
}

let requestCounter = 0;
export function nextRequestId(): string {
  requestCounter += 1;
  return `test-req-${requestCounter}`;
}

export async function login(sandbox: Sandbox): Promise<string> {
  const response = await call(sandbox, LOGIN_PATH, {
    method: 'POST',
    headers: { 'x-api-key': DEMO_CREDENTIALS.apiKey, 'content-type': 'application/json' },
    body: LOGIN_BODY,
  });
  if (response.status !== 200) throw new Error(`login failed: ${JSON.stringify(response.body)}`);
  return response.body.data[0].access_token as string;
}

export function standardHeaders(token: string, overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    'x-api-key': DEMO_CREDENTIALS.apiKey,
    'x-product-id': DEMO_CREDENTIALS.productId,
    'x-request-id': nextRequestId(),
    'x-user-id': DEMO_CREDENTIALS.userId,
    'content-type': 'application/json',
    authorization: `Bearer ${token}`,
    ...overrides,
  };
}

/** A logged-in client for the standard-header endpoints. */
export interface Api {
  token: string;
  get(path: string, options?: CallOptions): Promise<ApiResponse>;
  send(method: string, path: string, options?: CallOptions): Promise<ApiResponse>;
}

export async function apiClient(sandbox: Sandbox): Promise<Api> {
  const token = await login(sandbox);
  const send = (method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> =>
    call(sandbox, path, { ...options, method, headers: standardHeaders(token, options.headers) });
  return { token, get: (path, options) => send('GET', path, options), send };
}

export async function control(sandbox: Sandbox, method: string, path: string, body?: unknown): Promise<ApiResponse> {
  return call(sandbox, `/sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body,
  });
}

/** YYYY-MM-DD of the sandbox clock's day, shifted by whole days. */
export function sandboxDay(sandbox: Sandbox, offsetDays = 0): string {
  return new Date(sandbox.clock.now().getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

export function envelopeError(code: number, message: string): object {
  return { code, status: 'Error', message, data: null };
}

/** Epoch ms of 00:00 UTC of the sandbox clock's day, shifted by whole days. */
export function sandboxMidnight(sandbox: Sandbox, offsetDays = 0): number {
  return Date.parse(`${sandboxDay(sandbox, offsetDays)}T00:00:00Z`);
}

/**
 * Moves the sandbox clock (through the control API) to `instant`, epoch ms, and returns a
 * client logged in again: a jump of more than 30 minutes expires every token.
 */
export async function advanceClockTo(sandbox: Sandbox, instant: number): Promise<Api> {
  const ms = instant - sandbox.clock.now().getTime();
  // The clock runs on real time too: "now" read a moment ago is a few milliseconds past already.
  if (ms < -1_000) throw new Error('the sandbox clock only moves forward');
  if (ms > 0) await control(sandbox, 'POST', '/clock/advance', { ms });
  return apiClient(sandbox);
}

/** Amounts compared in integer cents, as the sandbox computes them. */
export function cents(amount: number): number {
  return Math.round(amount * 100);
}

/** The Document 1 wire form of an instant, `yyyy-MM-ddTHH:mm:ss+0000`. */
export function apiTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}+0000`;
}

// Document 1, 2.7: beneficiary bodies.

/** A SWIFT beneficiary in the US, the combination Document 1, 2.8 shows. */
export const usBody = (): Record<string, any> => ({
  nickname: 'Globex US',
  transfer_methods: ['SWIFT'],
  beneficiary: {
    entity_type: 'COMPANY',
    company_name: 'Globex Corporation',
    address: { city: 'Austin', country_code: 'US', postcode: '73301-0001', state: 'US-TX', street_address: '500 Congress Avenue' },
    bank_details: {
      account_currency: 'USD',
      account_name: 'Globex Corporation',
      account_number: 'GLX0012345',
      bank_country_code: 'US',
      bank_name: 'Lone Star Bank',
      swift_code: 'LSBKUS44XXX',
    },
    additional_info: { personal_email: 'ap@globex.example' },
  },
});

/** A LOCAL beneficiary in GB: no nickname, no state, no SWIFT code, a sort code instead. */
export const gbLocalBody = (): Record<string, any> => ({
  transfer_methods: ['LOCAL'],
  beneficiary: {
    entity_type: 'PERSONAL',
    company_name: 'Jane Smith',
    address: { city: 'Leeds', country_code: 'GB', postcode: 'LS1 4AP', street_address: '10 Park Row' },
    bank_details: {
      account_currency: 'GBP',
      account_name: 'Jane Smith',
      account_number: '12345678',
      bank_country_code: 'GB',
      bank_name: 'Albion Mercantile Bank plc',
      account_routing_type1: 'sort_code',
      account_routing_value1: '401276',
    },
  },
});

// Document 2: cards, cardholders, wallets, KYC.

export const CARD_PATH = '/svc/api/v1/card';
export const CARDHOLDER_PATH = '/svc/api/v1/card/cardholder';
export const WALLET_PATH = '/issuing/api/v1/wallet';
export const KYC_PATH = '/issuing/api/v1/kyc';

/** Section 4.3 (wallet) or 4.4 (kyc) headers for a cardholder; no Authorization, no x-user-id. */
export function issuingHeaders(
  family: 'wallet' | 'kyc',
  cardholderId: string,
  overrides: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  const holder =
    family === 'wallet'
      ? { 'x-cardholder-id': cardholderId }
      : { 'x-cardholderhash-id': cardholderId, 'x-client-id': DEMO_CREDENTIALS.clientKey };
  return {
    'x-api-key': DEMO_CREDENTIALS.apiKey,
    'x-product-id': DEMO_CREDENTIALS.productId,
    'x-request-id': nextRequestId(),
    'content-type': 'application/json',
    ...holder,
    ...overrides,
  };
}

export const HOME_ADDRESS = { city: 'Austin', country: 'US', line1: '500 Congress Avenue', state: 'TX', postcode: '78701' };

export function individualCardholder(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    email: 'noah.kim@acme.example',
    mobile_number: '+15125550147',
    country_code: 'US',
    type: 'INDIVIDUAL',
    created_by: 'Jordan Miles',
    individual: { date_of_birth: '1990-06-01', name: { first_name: 'Noah', last_name: 'Kim' }, address: HOME_ADDRESS },
    ...overrides,
  };
}

/** The seeded physical card (assigned to Ava, INACTIVE) and its e-mailed activation code. */
export const DEMO_PHYSICAL_CARD = 'crd_demo_ava_p';

/** The outbox without the seed's own e-mail (the demo physical card's activation code). */
export async function newEmails(sandbox: Sandbox): Promise<Record<string, any>[]> {
  const all = (await control(sandbox, 'GET', '/emails')).body as Record<string, any>[];
  return all.filter((email) => email.cardId !== DEMO_PHYSICAL_CARD);
}

export const advanceMinutes = (sandbox: Sandbox, minutes: number): Promise<ApiResponse> =>
  control(sandbox, 'POST', '/clock/advance', { minutes });

/**
 * A new cardholder, READY (ten minutes of review later) and, unless told otherwise, with
 * its eKYC completed. Returns a client logged in after the clock moved.
 */
export async function readyCardholder(
  sandbox: Sandbox,
  api: Api,
  options: { body?: Record<string, unknown>; kyc?: boolean } = {},
): Promise<{ id: string; api: Api }> {
  const created = await api.send('POST', CARDHOLDER_PATH, { body: options.body ?? individualCardholder() });
  if (created.status !== 200) throw new Error(JSON.stringify(created.body));
  const id = created.body.data[0].id as string;
  await advanceMinutes(sandbox, 10);
  if (options.kyc !== false) await control(sandbox, 'POST', `/kyc/${id}/complete`);
  return { id, api: await apiClient(sandbox) };
}

export function virtualCardBody(cardholderId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    card_issuance_action: 'NEW',
    card_type: 'VIRTUAL',
    card_holder_id: cardholderId,
    created_by: 'Jordan Miles',
    request_id: nextRequestId(),
    program: { purpose: 'COMMERCIAL' },
    authorization_controls: {
      allowed_transaction_count: 'MULTIPLE',
      transaction_limits: {
        currency: 'USD',
        limits: [
          { amount: 300, interval: 'PER_TRANSACTION' },
          { amount: 1000, interval: 'DAILY' },
        ],
      },
    },
    is_personalized: true,
    ...overrides,
  };
}

export async function createCard(api: Api, body: Record<string, unknown>): Promise<string> {
  const response = await api.send('POST', CARD_PATH, { body });
  if (response.status !== 200) throw new Error(JSON.stringify(response.body));
  return response.body.data.id as string;
}

export async function cardDetail(api: Api, id: string): Promise<Record<string, any>> {
  const response = await api.get(`${CARD_PATH}/detail`, { query: { id } });
  if (response.status !== 200) throw new Error(JSON.stringify(response.body));
  return response.body.data[0];
}

export function simulate(sandbox: Sandbox, cardId: string, body: Record<string, unknown>): Promise<ApiResponse> {
  return control(sandbox, 'POST', `/cards/${cardId}/simulate`, body);
}

/** The success envelope of a Document 2 write: no `data` key at all. */
export function doneEnvelope(message: string): object {
  return { code: 200, status: 'success', message };
}
