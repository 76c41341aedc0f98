import { randomUUID } from 'node:crypto';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { DEMO_CREDENTIALS } from '@banking-gateway/sandbox';
import { describe, expect, it } from 'vitest';
import type { CallerAuthConfig } from '../../src/settings/index.ts';
import { AccessTokenCreateDocument, BalancesDocument } from '../generated/graphql.ts';
import { runWs } from '../helpers/auth-clients.ts';
import { rawUpstream, useKit, type Kit } from '../helpers/kit.ts';
import { registerSecret } from '../helpers/leak-scan.ts';

/**
 * One caller identity for everything that asks "who is this": a passthrough caller is its bank
 * user, however many times it logged in, for the operations per window as for the logs and the
 * audit trail; a token the bank has not vouched for is an anonymous caller of its address, and one
 * the bank refused is refused again without asking it.
 */

const LIMIT = { operations: 5, windowSeconds: 60 };
const PASSTHROUGH: CallerAuthConfig = { mode: 'passthrough', apiKeys: [], jwt: undefined, allowedOrigins: [] };
const CHECK = '/svc/api/v1/account/balance';
const LOGIN_INPUT = { clientKey: DEMO_CREDENTIALS.clientKey, clientSecret: DEMO_CREDENTIALS.clientSecret, email: DEMO_CREDENTIALS.email };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function login(kit: Kit): Promise<string> {
  const result = await kit.execute(AccessTokenCreateDocument, { input: LOGIN_INPUT });
  const outcome = result.data?.accessTokenCreate;
  if (outcome?.__typename !== 'AccessTokenCreateSuccess') throw new Error(`login failed: ${JSON.stringify(result)}`);
  return outcome.token.accessToken;
}

/** What each answer was: data, or its error code. */
const outcomes = (results: { data?: unknown; errors?: readonly { extensions?: Record<string, unknown> }[] }[]) =>
  results.map((result) => (result.errors?.length ? String(result.errors[0]!.extensions?.code) : 'ok'));

describe('passthrough: a bank user is one client', () => {
  const kit = useKit({ cache: false, auth: PASSTHROUGH, clientRateLimit: LIMIT });

  it('shares one window between its three logins (5 of 15 operations run), and the bank sees no extra call', async () => {
    const tokens = [await login(kit), await login(kit), await login(kit)];
    await kit.resetCounts();
    const results = [];
    for (let i = 0; i < 15; i++) results.push(await kit.execute(BalancesDocument, {}, bearer(tokens[i % 3]!)));
    expect(outcomes(results)).toEqual([...Array(5).fill('ok'), ...Array(10).fill('RATE_LIMITED')]);
    // Tokens the gateway's own login handed out need no proof: one call per operation that ran.
    expect(kit.calls().map((c) => `${c.path} ${c.status}`)).toEqual(Array(5).fill(`${CHECK} 200`));
  });
});

describe('passthrough: who a token belongs to', () => {
  const kit = useKit({ cache: false, auth: PASSTHROUGH });

  it('names the bank user the token belongs to, in me as in the audit trail', async () => {
    const token = await login(kit);
    const me = await kit.execute(parseMe(), {}, bearer(token));
    expect(me.data).toEqual({ me: { kind: 'BANK_USER', name: DEMO_CREDENTIALS.userId, roles: ['admin'] } });
    await kit.execute(
      parse(
        'mutation { quoteCreate(input: {quoteType: CONVERSION, lockPeriod: MINUTES_15, conversionSchedule: NEXT_DAY, sourceCurrency: "USD", destinationCurrency: "EUR", sourceAmount: "10"}) { __typename } }',
      ),
      {},
      bearer(token),
    );
    expect(kit.audit().map((r) => [r.field, r.caller, r.outcome])).toEqual([
      ['accessTokenCreate', { kind: 'anonymous', name: 'anonymous' }, 'success'],
      ['quoteCreate', { kind: 'upstream-token', name: DEMO_CREDENTIALS.userId }, 'success'],
    ]);
    expect(JSON.stringify(kit.audit())).not.toContain(token);
  });

  it('proves a token it did not hand out once, then keys it by the same bank user', async () => {
    const direct = (
      (
        await rawUpstream(kit, 'POST', '/api/v1/authentication/login', {
          body: { client_key: LOGIN_INPUT.clientKey, client_secret: LOGIN_INPUT.clientSecret, email: LOGIN_INPUT.email },
        })
      ).body as { data: { access_token: string }[] }
    ).data[0]!.access_token;
    registerSecret('a bank token got straight from the sandbox', direct);
    await kit.resetCounts();
    const me = await kit.execute(parseMe(), {}, bearer(direct));
    expect(me.data!.me.name).toBe(DEMO_CREDENTIALS.userId);
    await kit.execute(parseMe(), {}, bearer(direct));
    expect(kit.calls().map((c) => `${c.path} ${c.status}`)).toEqual([`${CHECK} 200`]);
  });

  it('is not fooled by a forged JWT naming a bank user: the bank refuses it, and it is nobody', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
    const claims = Buffer.from(JSON.stringify({ sub: DEMO_CREDENTIALS.userId, exp: Math.floor(Date.now() / 1000) + 600 })).toString(
      'base64url',
    );
    const forged = `${header}.${claims}.${Buffer.from('not the bank').toString('base64url')}`;
    const result = await kit.execute(parseMe(), {}, bearer(forged));
    expect(outcomes([result])).toEqual(['UNAUTHENTICATED']);
    expect(kit.calls().map((c) => `${c.path} ${c.status}`)).toEqual([`${CHECK} 401`]);
  });
});

describe('passthrough: what bank users may do through the gateway', () => {
  const restricted: CallerAuthConfig = {
    ...PASSTHROUGH,
    passthrough: { roles: ['viewer'], users: [{ user: 'someone-else', roles: ['treasurer'], cardholderId: null }] },
  };
  const kit = useKit({ cache: false, auth: restricted });
  const QUOTE =
    'mutation { quoteCreate(input: {quoteType: CONVERSION, lockPeriod: MINUTES_15, conversionSchedule: NEXT_DAY, sourceCurrency: "USD", destinationCurrency: "EUR", sourceAmount: "10"}) { __typename ... on Forbidden { permission } } }';

  it('holds PASSTHROUGH_ROLES: a viewer reads, and its writes are Forbidden before the bank sees them', async () => {
    const token = await login(kit);
    await kit.resetCounts();
    expect((await kit.execute(parseMe(), {}, bearer(token))).data!.me.roles).toEqual(['viewer']);
    expect((await kit.execute(parse(QUOTE) as never, {}, bearer(token))).data).toEqual({
      quoteCreate: { __typename: 'Forbidden', permission: 'quotes:write' },
    });
    expect(kit.calls()).toEqual([]);
  });
});

describe('passthrough: a bank user with roles of its own', () => {
  const own: CallerAuthConfig = {
    ...PASSTHROUGH,
    passthrough: { roles: ['viewer'], users: [{ user: DEMO_CREDENTIALS.userId, roles: ['bookkeeper'], cardholderId: null }] },
  };
  const kit = useKit({ cache: false, auth: own });

  it('holds PASSTHROUGH_USER_ROLES instead of everyone’s', async () => {
    const token = await login(kit);
    const quote = await kit.execute(
      parse(
        'mutation { quoteCreate(input: {quoteType: CONVERSION, lockPeriod: MINUTES_15, conversionSchedule: NEXT_DAY, sourceCurrency: "USD", destinationCurrency: "EUR", sourceAmount: "10"}) { __typename } }',
      ),
      {},
      bearer(token),
    );
    expect(quote.data).toEqual({ quoteCreate: { __typename: 'QuoteCreateSuccess' } });
    expect((await kit.execute(parseMe(), {}, bearer(token))).data!.me.roles).toEqual(['bookkeeper']);
  });
});

describe.each([
  ['passthrough', PASSTHROUGH],
  ['none', { ...PASSTHROUGH, mode: 'none' } satisfies CallerAuthConfig],
] as const)('made-up tokens, mode %s', (_mode, auth) => {
  const kit = useKit({ cache: false, auth, clientRateLimit: LIMIT });

  it('cost at most one bank call per distinct token, and are limited as one anonymous caller', async () => {
    const made = Array.from({ length: 20 }, () => `made-up-${randomUUID()}`);
    const results = [];
    for (const token of made) results.push(await kit.execute(BalancesDocument, {}, bearer(token)));
    // The anonymous share of this address: five proofs, each refused by the bank, then no more calls.
    expect(outcomes(results)).toEqual([...Array(5).fill('UNAUTHENTICATED'), ...Array(15).fill('RATE_LIMITED')]);
    expect(kit.calls().map((c) => `${c.path} ${c.status}`)).toEqual(Array(5).fill(`${CHECK} 401`));
    // A refused token is remembered: refused again without a call, and without spending the window.
    await kit.resetCounts();
    expect(outcomes([await kit.execute(BalancesDocument, {}, bearer(made[0]!))])).toEqual(['UNAUTHENTICATED']);
    expect(kit.calls()).toEqual([]);
  });
});

describe('made-up tokens over graphql-ws', () => {
  const kit = useKit({ cache: false, listen: true, auth: PASSTHROUGH, clientRateLimit: LIMIT });

  it('are proven within the address’s window too: past it, connection_init closes 4429 with no bank call', async () => {
    const closes = [];
    for (let i = 0; i < 7; i++) {
      const outcome = await runWs(kit.baseUrl!, 'subscription { accountStatusChanged { status } }', {
        authorization: `Bearer made-up-${randomUUID()}`,
      });
      closes.push('closed' in outcome ? outcome.closed.code : 'open');
    }
    expect(closes).toEqual([4403, 4403, 4403, 4403, 4403, 4429, 4429]);
    expect(kit.calls().map((c) => `${c.path} ${c.status}`)).toEqual(Array(5).fill(`${CHECK} 401`));
  });
});

function parseMe(): TypedDocumentNode<{ me: { kind: string; name: string; roles: string[] } }, Record<string, never>> {
  return parse('{ me { kind name roles } }');
}
