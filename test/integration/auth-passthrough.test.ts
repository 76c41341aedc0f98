import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS } from '@banking-gateway/sandbox';
import { runWs } from '../helpers/auth-clients.ts';
import { postGraphql } from '../helpers/http.ts';
import {
  AccessTokenCreateDocument,
  BalancesDocument,
  WebhookCatalogueDocument,
  WebhookSubscriptionCreateDocument,
} from '../generated/graphql.ts';
import { useKit } from '../helpers/kit.ts';
import { subscribeSse, subscribeWs } from '../helpers/subscribe.ts';

/**
 * AUTH_MODE=passthrough: callers log in with accessTokenCreate and send the bank's token as a
 * bearer. The gateway has its own credentials here (for readiness), and they must never serve a
 * caller. A made-up bearer must not reach what carries no token: webhook management and
 * subscriptions are preceded by one check of the token with the bank.
 */

const kit = useKit({
  listen: true,
  webhooks: { agentCode: 'AG-AUTH', subagentCode: 'SUB-AUTH', companyCode: 'CO-AUTH' },
  auth: { mode: 'passthrough', apiKeys: [], jwt: undefined, allowedOrigins: [] },
});

const CHECK = '/svc/api/v1/account/balance';
const TOKENLESS = ['/getallwebhooks', '/api/subscribedwebhook', '/api/subscribe', '/api/updatesubscription', '/api/unsubscribe'];
const SUBSCRIPTION = 'subscription { accountStatusChanged { status } }';
const LOGIN_INPUT = { clientKey: DEMO_CREDENTIALS.clientKey, clientSecret: DEMO_CREDENTIALS.clientSecret, email: DEMO_CREDENTIALS.email };

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
/** A made-up token, new per test, so no test sees another's remembered verdict. */
const bogus = () => `bogus-${randomUUID()}`;
const calls = () => kit.calls().map((c) => `${c.method} ${c.path} ${c.status}`);
const tokenlessCalls = () => kit.calls().filter((c) => TOKENLESS.some((path) => c.path.endsWith(path)));

async function login(): Promise<string> {
  const result = await kit.execute(AccessTokenCreateDocument, { input: LOGIN_INPUT });
  const outcome = result.data?.accessTokenCreate;
  if (outcome?.__typename !== 'AccessTokenCreateSuccess') throw new Error(`login failed: ${JSON.stringify(result)}`);
  return outcome.token.accessToken;
}

describe('passthrough: anonymous callers', () => {
  it('may log in, and the token then works, with no check ahead of an ordinary query', async () => {
    const token = await login();
    const balances = await kit.execute(BalancesDocument, {}, bearer(token));
    expect(balances.errors).toBeUndefined();
    expect(balances.data!.balances!.length).toBeGreaterThan(0);
    expect(calls()).toEqual(['POST /api/v1/authentication/login 200', `GET ${CHECK} 200`]);
  });

  it('may introspect (GraphiQL shows the schema before login)', async () => {
    const answer = await postGraphql(`${kit.baseUrl}/graphql`, { query: '{ __schema { mutationType { name } } }' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: { __schema: { mutationType: { name: 'Mutation' } } } });
  });

  it('may run nothing else: refused with 401 before execution, and the gateway\u2019s login is not used', async () => {
    for (const query of [
      '{ balances { currency } }',
      '{ __typename balances { currency } }',
      'query Q { ...F } fragment F on Query { balances { currency } }',
    ]) {
      const answer = await postGraphql(`${kit.baseUrl}/graphql`, { query });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="banking-gateway"');
      expect(answer.body).toEqual({
        errors: [
          {
            message: 'Log in first: run the accessTokenCreate mutation, then send its token as "Authorization: Bearer <token>"',
            extensions: { code: 'UNAUTHENTICATED' },
          },
        ],
      });
    }
    expect(calls()).toEqual([]);
  });

  it('refuses an API key: this mode takes the bank\u2019s token', async () => {
    const answer = await postGraphql(
      `${kit.baseUrl}/graphql`,
      { query: '{ balances { currency } }' },
      { 'x-api-key': 'some-key-of-another-gateway' },
    );
    expect(answer.status).toBe(401);
    expect(answer.body.errors[0].message).toMatch(/takes the bank's access token/);
    expect(calls()).toEqual([]);
  });
});

describe('passthrough: what carries no token', () => {
  it('checks a bogus bearer with the bank before webhook management: refused, no tokenless call, verdict remembered', async () => {
    const token = bogus();
    // Refused before the operation (its token is proven first), so there is no data at all.
    const catalogue = await kit.execute(WebhookCatalogueDocument, {}, bearer(token));
    expect(catalogue.data).toBeUndefined();
    expect(catalogue.errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
    const created = await kit.execute(
      WebhookSubscriptionCreateDocument,
      {
        input: {
          eventName: 'conversion.settled',
          type: 'WEBHOOK',
          url: 'https://evil.example/hook',
          apiKey: 'attacker-chosen-key-123',
          createdBy: 'Mallory',
        },
      },
      bearer(token),
    );
    expect(created.data).toBeUndefined();
    expect(created.errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
    expect(tokenlessCalls()).toEqual([]);
    // One check for both operations: the bank's refusal is remembered.
    expect(calls()).toEqual([`GET ${CHECK} 401`]);
  });

  it('checks a token once for many concurrent operations (single flight)', async () => {
    const token = bogus();
    const results = await Promise.all(Array.from({ length: 5 }, () => kit.execute(WebhookCatalogueDocument, {}, bearer(token))));
    expect(results.map((r) => r.errors?.[0]?.extensions?.code)).toEqual(Array(5).fill('UNAUTHENTICATED'));
    expect(calls()).toEqual([`GET ${CHECK} 401`]);
  });

  it('lets a real token reach webhook management after one check', async () => {
    const token = await login();
    for (let i = 0; i < 2; i++) {
      const catalogue = await kit.execute(WebhookCatalogueDocument, {}, bearer(token));
      expect(catalogue.errors).toBeUndefined();
      expect(catalogue.data!.webhookCatalogue!.length).toBeGreaterThan(10);
    }
    expect(kit.calls(CHECK)).toHaveLength(1);
    expect(tokenlessCalls().map((c) => c.status)).toEqual([200]);
  });

  it('refuses an SSE subscription with a bogus bearer (401) before it starts', async () => {
    const before = kit.gateway.events.activeSubscriptions();
    const response = await fetch(`${kit.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...bearer(bogus()) },
      body: JSON.stringify({ query: SUBSCRIPTION }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="banking-gateway", error="invalid_token"');
    expect(await response.text()).toContain('The bank does not accept this access token');
    expect(kit.gateway.events.activeSubscriptions()).toBe(before);
    expect(calls()).toEqual([`GET ${CHECK} 401`]);
  });

  it('refuses an anonymous SSE subscription (401) without asking the bank', async () => {
    const response = await fetch(`${kit.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: SUBSCRIPTION }),
    });
    expect(response.status).toBe(401);
    expect(calls()).toEqual([]);
  });

  it('closes graphql-ws at connection_init: 4401 without a token, 4403 with a bogus one', async () => {
    expect(await runWs(kit.baseUrl!, SUBSCRIPTION)).toEqual({
      closed: { code: 4401, reason: 'Send connectionParams.authorization "Bearer <token>" (log in with accessTokenCreate over HTTP)' },
    });
    expect(await runWs(kit.baseUrl!, SUBSCRIPTION, bearer(bogus()))).toEqual({
      closed: {
        code: 4403,
        reason: 'The bank does not accept this access token (expired or revoked): log in again with accessTokenCreate',
      },
    });
    expect(calls()).toEqual([`GET ${CHECK} 401`]);
  });

  it('runs subscriptions for a real token over SSE and graphql-ws, checked once', async () => {
    const token = await login();
    const overSse = await subscribeSse(kit, SUBSCRIPTION, {}, bearer(token));
    const overWs = await subscribeWs(kit, SUBSCRIPTION, {}, bearer(token));
    await overSse.close();
    await overWs.close();
    expect(kit.calls(CHECK).map((c) => c.status)).toEqual([200]);
    expect(tokenlessCalls()).toEqual([]);
  });
});
