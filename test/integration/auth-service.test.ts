import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/authentication/api-keys.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { runWs } from '../helpers/auth-clients.ts';
import { postGraphql } from '../helpers/http.ts';
import { JWT_AUDIENCE, JWT_ISSUER, startJwks, unsignedJwt, type Jwks } from '../helpers/jwks.ts';
import { startKit, type Kit } from '../helpers/kit.ts';
import { record, registerSecret } from '../helpers/leak-scan.ts';
import { subscribeSse, subscribeWs } from '../helpers/subscribe.ts';

/**
 * AUTH_MODE=service: callers present an API key (x-api-key) or a JWT of the identity provider;
 * the gateway calls the bank with its own login. Refusals are 401s with WWW-Authenticate, made
 * before the document is parsed: the sandbox's request log shows no call for them.
 */

const API_KEY = 'gwk_test-reporting-key-0123456789abcdef';
const OTHER_KEY = 'gwk_test-unknown-key-0123456789abcdef';
registerSecret('a caller API key', API_KEY);
registerSecret('a wrong caller API key', OTHER_KEY);

const BALANCES = '{ balances { currency } }';
const SUBSCRIPTION = 'subscription { accountStatusChanged { status } }';

let jwks: Jwks;
let kit: Kit;
const logLines: string[] = [];

beforeAll(async () => {
  jwks = await startJwks();
  // These tests count the bank calls of reads that repeat from test to test: the record cache (test/integration/cache.test.ts) stays off.
  kit = await startKit({
    cache: false,
    listen: true,
    logger: createLogger('debug', { write: (line: string) => (logLines.push(line), record('gateway log', line)) }),
    auth: {
      mode: 'service',
      apiKeys: [{ name: 'reporting', sha256: sha256Hex(API_KEY), roles: ['viewer'], cardholderId: null }],
      jwt: { jwksUrl: jwks.url, issuer: JWT_ISSUER, audience: JWT_AUDIENCE },
      allowedOrigins: [],
    },
  });
  await kit.fresh();
});
afterAll(async () => {
  await kit?.close();
  await jwks?.close();
});

/**
 * A token the tests send (a viewer's, unless claims say otherwise); registered so the leak scan fails
 * the file if it is ever echoed or logged.
 */
async function jwt(options?: Parameters<Jwks['sign']>[0], claims: Parameters<Jwks['sign']>[1] = { roles: ['viewer'] }): Promise<string> {
  const token = await jwks.sign(options, claims);
  registerSecret('a caller JWT', token);
  return token;
}

/** Refused with 401 and UNAUTHENTICATED, and not one upstream call made. */
async function expectRefused(headers: Record<string, string>, message: RegExp, invalid = true) {
  await kit.resetCounts();
  const answer = await postGraphql(`${kit.baseUrl}/graphql`, { query: BALANCES }, headers);
  expect(answer.status).toBe(401);
  expect(answer.body.data).toBeUndefined();
  expect(answer.body.errors).toHaveLength(1);
  expect(answer.body.errors[0].extensions).toEqual({ code: 'UNAUTHENTICATED' });
  expect(answer.body.errors[0].message).toMatch(message);
  const challenge = answer.headers.get('www-authenticate');
  expect(challenge).toContain('ApiKey realm="banking-gateway", header="x-api-key"');
  expect(challenge).toContain('Bearer realm="banking-gateway"');
  expect(challenge?.includes('error="invalid_token"')).toBe(invalid);
  expect(kit.calls()).toEqual([]);
  return answer;
}

describe('service mode: API keys', () => {
  it('lets a known key in and calls the bank with the gateway\u2019s own login', async () => {
    await kit.resetCounts();
    const answer = await postGraphql(`${kit.baseUrl}/graphql`, { query: BALANCES }, { 'x-api-key': API_KEY });
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.balances.length).toBeGreaterThan(0);
    // One read, no login: the gateway's token was already there (kit.fresh).
    expect(kit.calls().map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual(['GET /svc/api/v1/account/balance 200']);
    expect(logLines.some((line) => line.includes('"caller":"reporting"'))).toBe(true);
  });

  it('refuses a wrong key, naming the header, not the key', async () => {
    const answer = await expectRefused({ 'x-api-key': OTHER_KEY }, /The API key in x-api-key is not one of this gateway's keys/);
    expect(JSON.stringify(answer.body)).not.toContain(OTHER_KEY);
  });

  it('refuses a request without a credential, saying what to send', async () => {
    await expectRefused(
      {},
      /Authentication required: send an API key in the x-api-key header or a JWT as "Authorization: Bearer <jwt>"/,
      false,
    );
  });

  it('refuses an API key and a bearer token together', async () => {
    await expectRefused({ 'x-api-key': API_KEY, authorization: `Bearer ${await jwt()}` }, /Send one credential/);
  });

  it('refuses an Authorization header that is not a bearer token', async () => {
    await expectRefused({ authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }, /is not "Bearer <jwt>"/);
  });
});

describe('service mode: JWTs', () => {
  it('lets a valid JWT in, logs its subject, and never forwards it to the bank', async () => {
    await kit.resetCounts();
    const token = await jwt({ subject: 'svc-treasury' });
    const answer = await postGraphql(`${kit.baseUrl}/graphql`, { query: BALANCES }, { authorization: `Bearer ${token}` });
    expect(answer.status).toBe(200);
    expect(answer.body.data.balances.length).toBeGreaterThan(0);
    // The bank would refuse our JWT with 401: a 200 read means the gateway's own token went out.
    expect(kit.calls().map((c) => c.status)).toEqual([200]);
    expect(logLines.some((line) => line.includes('"caller":"svc-treasury"'))).toBe(true);
    expect(logLines.some((line) => line.includes(token))).toBe(false);
  });

  it('refuses a JWT from another issuer', async () => {
    await expectRefused(
      { authorization: `Bearer ${await jwt({ issuer: 'https://evil.test' })}` },
      /issuer \(iss\) is not the accepted one/,
    );
  });

  it('refuses a JWT for another audience', async () => {
    await expectRefused({ authorization: `Bearer ${await jwt({ audience: 'another-api' })}` }, /audience \(aud\) is not this gateway/);
  });

  it('refuses an expired JWT (beyond the 30 s clock tolerance)', async () => {
    await expectRefused({ authorization: `Bearer ${await jwt({ expiresIn: -120 })}` }, /it has expired/);
  });

  it('accepts a JWT expired within the clock tolerance', async () => {
    const answer = await postGraphql(
      `${kit.baseUrl}/graphql`,
      { query: BALANCES },
      { authorization: `Bearer ${await jwt({ expiresIn: -5 })}` },
    );
    expect(answer.status).toBe(200);
  });

  it('grants what the claims name and ignores the rest, logging each unknown value once', async () => {
    const claims = { roles: ['viewer', 'Gateway.Superuser'], scope: 'openid payouts:write' };
    for (const subject of ['svc-a', 'svc-b']) {
      const answer = await postGraphql(
        `${kit.baseUrl}/graphql`,
        { query: '{ me { roles permissions } }' },
        {
          authorization: `Bearer ${await jwt({ subject }, claims)}`,
        },
      );
      expect(answer.body.data.me.roles).toEqual(['viewer']);
      expect(answer.body.data.me.permissions).toContain('payouts:write');
    }
    const unknown = logLines
      .map((line) => JSON.parse(line))
      .filter((line) => line.msg?.startsWith('a JWT claim value names no role or permission'));
    expect(unknown.map((line) => [line.level, line.value])).toEqual([
      [40, 'openid'],
      [40, 'Gateway.Superuser'],
    ]);
  });

  it('refuses a JWT signed by a key the JWKS does not hold', async () => {
    await expectRefused({ authorization: `Bearer ${await jwt({ foreignKey: true })}` }, /signature does not verify/);
  });

  it('refuses an unsigned JWT (alg none)', async () => {
    const token = unsignedJwt();
    registerSecret('an unsigned caller JWT', token);
    await expectRefused({ authorization: `Bearer ${token}` }, /algorithm is not accepted \(accepted: RS256, PS256, ES256, EdDSA\)/);
  });

  it('refuses a JWT without a subject', async () => {
    await expectRefused({ authorization: `Bearer ${await jwt({ subject: undefined })}` }, /it has no sub claim/);
  });

  it('refuses a bearer that is not a JWT at all', async () => {
    await expectRefused({ authorization: 'Bearer not-a-jwt' }, /not a well-formed signed JWT/);
  });

  it('fetched the JWKS once for all of the above', () => {
    expect(jwks.fetches).toBe(1);
  });
});

describe('service mode: SSE and graphql-ws', () => {
  it('refuses an SSE subscription without a credential before it starts', async () => {
    const before = kit.gateway.events.activeSubscriptions();
    const response = await fetch(`${kit.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: SUBSCRIPTION }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('Bearer realm="banking-gateway"');
    expect(await response.text()).toContain('"code":"UNAUTHENTICATED"');
    expect(kit.gateway.events.activeSubscriptions()).toBe(before);
  });

  it('runs an SSE subscription with an API key', async () => {
    const subscription = await subscribeSse(kit, SUBSCRIPTION, {}, { 'x-api-key': API_KEY });
    await subscription.close();
  });

  it('closes a graphql-ws connection without a credential at connection_init with 4401', async () => {
    const outcome = await runWs(kit.baseUrl!, BALANCES);
    expect(outcome).toEqual({ closed: { code: 4401, reason: expect.stringMatching(/^Authentication required: send an API key/) } });
  });

  it('closes a graphql-ws connection with a wrong key with 4403', async () => {
    const outcome = await runWs(kit.baseUrl!, BALANCES, { 'x-api-key': OTHER_KEY });
    expect(outcome).toEqual({ closed: { code: 4403, reason: "The API key in x-api-key is not one of this gateway's keys" } });
  });

  it('closes a graphql-ws connection with an expired JWT with 4403', async () => {
    const outcome = await runWs(kit.baseUrl!, BALANCES, { authorization: `Bearer ${await jwt({ expiresIn: -120 })}` });
    expect(outcome).toEqual({ closed: { code: 4403, reason: 'The JWT was refused: it has expired' } });
  });

  it('serves graphql-ws with an API key in connectionParams, and with a JWT', async () => {
    const byKey = await runWs(kit.baseUrl!, BALANCES, { 'x-api-key': API_KEY });
    expect(byKey).toMatchObject({ result: { data: { balances: expect.any(Array) } } });
    const byJwt = await runWs(kit.baseUrl!, BALANCES, { authorization: `Bearer ${await jwt()}` });
    expect(byJwt).toMatchObject({ result: { data: { balances: expect.any(Array) } } });
    const subscription = await subscribeWs(kit, SUBSCRIPTION, {}, { 'x-api-key': API_KEY });
    await subscription.close();
  });
});

describe('service mode: an unreachable JWKS', () => {
  let down: Kit;
  beforeAll(async () => {
    // A port that was just free: nothing answers there.
    const gone = await startJwks();
    const url = gone.url;
    await gone.close();
    down = await startKit({
      cache: false,
      listen: true,
      auth: { mode: 'service', apiKeys: [], jwt: { jwksUrl: url, issuer: JWT_ISSUER, audience: JWT_AUDIENCE }, allowedOrigins: [] },
    });
  });
  afterAll(() => down?.close());

  it('answers 503 AUTH_UNAVAILABLE with Retry-After, not a crash, and calls no one', async () => {
    await down.resetCounts();
    const answer = await postGraphql(`${down.baseUrl}/graphql`, { query: BALANCES }, { authorization: `Bearer ${await jwt()}` });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(answer.body.errors).toEqual([
      {
        message: 'JWTs cannot be checked right now: the identity provider\u2019s JWKS is unreachable',
        extensions: { code: 'AUTH_UNAVAILABLE' },
      },
    ]);
    expect(down.calls()).toEqual([]);
    // The gateway still answers.
    expect((await fetch(`${down.baseUrl}/healthz`)).status).toBe(200);
  });

  it('closes a graphql-ws connection with 1013 (try again later)', async () => {
    const outcome = await runWs(down.baseUrl!, BALANCES, { authorization: `Bearer ${await jwt()}` });
    expect(outcome).toEqual({ closed: { code: 1013, reason: expect.stringContaining('JWKS is unreachable') } });
  });
});
