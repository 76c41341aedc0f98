import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWs, upgradeStatus } from '../helpers/auth-clients.ts';
import { postGraphql } from '../helpers/http.ts';
import { startKit, useKit, type Kit } from '../helpers/kit.ts';

/**
 * What browsers add: origins (CORS, WebSocket upgrades) and CSRF. A page on an origin not in
 * ALLOWED_ORIGINS gets no CORS headers and no WebSocket; a request any page could send without a
 * preflight (a GET, a form or text/plain POST) needs the x-graphql-csrf header. Refusals happen
 * before execution: no upstream call.
 */

const APP = 'https://app.example';
const EVIL = 'https://evil.example';
// These tests count the bank calls of reads that repeat from test to test: the record cache (test/integration/cache.test.ts) stays off.
const kit = useKit({ cache: false, listen: true, auth: { mode: 'none', apiKeys: [], jwt: undefined, allowedOrigins: [APP] } });

const BALANCES = '{ balances { currency } }';

describe('WebSocket upgrades and origins', () => {
  it('refuses an upgrade from a page on another origin with HTTP 403, before any GraphQL message', async () => {
    const before = kit.gateway.events.activeSubscriptions();
    expect(await upgradeStatus(kit.baseUrl!, EVIL)).toEqual({ status: 403, messages: 0 });
    expect(kit.gateway.events.activeSubscriptions()).toBe(before);
    expect(kit.calls()).toEqual([]);
  });

  it('accepts an allowed origin, the gateway\u2019s own origin, and clients that send no Origin', async () => {
    expect((await upgradeStatus(kit.baseUrl!, APP)).status).toBe(101);
    expect((await upgradeStatus(kit.baseUrl!, kit.baseUrl)).status).toBe(101);
    expect((await upgradeStatus(kit.baseUrl!, undefined)).status).toBe(101);
    const fromApp = await runWs(kit.baseUrl!, BALANCES, {}, APP);
    expect(fromApp).toMatchObject({ result: { data: { balances: expect.any(Array) } } });
  });
});

describe('CORS', () => {
  const preflight = (origin: string) =>
    fetch(`${kit.baseUrl}/graphql`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-api-key' },
    });

  it('answers a preflight from an allowed origin, naming it', async () => {
    const response = await preflight(APP);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
    expect(response.headers.get('access-control-allow-headers')).toBe(
      'content-type, accept, authorization, x-api-key, x-graphql-csrf, x-apollo-operation-name, apollo-require-preflight, x-request-id, x-bank-cost',
    );
    expect(response.headers.get('access-control-max-age')).toBe('600');
    // No cookies are used: credentialed cross-origin requests are not invited.
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('gives another origin no CORS headers, on the preflight or the request', async () => {
    const response = await preflight(EVIL);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('access-control-allow-headers')).toBeNull();
    const request = await postGraphql(`${kit.baseUrl}/graphql`, { query: BALANCES }, { origin: EVIL });
    expect(request.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('exposes x-request-id to an allowed origin\u2019s page', async () => {
    const answer = await postGraphql(`${kit.baseUrl}/graphql`, { query: BALANCES }, { origin: APP });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(APP);
    expect(answer.headers.get('access-control-expose-headers')).toBe('x-request-id, www-authenticate, retry-after');
  });

  describe('with no allowed origins', () => {
    let closed: Kit;
    beforeAll(async () => {
      closed = await startKit({ cache: false, listen: true });
    });
    afterAll(() => closed?.close());

    it('sends no CORS headers at all, and refuses every foreign WebSocket origin', async () => {
      const response = await fetch(`${closed.baseUrl}/graphql`, {
        method: 'OPTIONS',
        headers: { origin: APP, 'access-control-request-method': 'POST' },
      });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect((await upgradeStatus(closed.baseUrl!, APP)).status).toBe(403);
    });
  });
});

describe('CSRF prevention', () => {
  it('refuses a GET query without the x-graphql-csrf header, before execution', async () => {
    const response = await fetch(`${kit.baseUrl}/graphql?query=${encodeURIComponent(BALANCES)}`);
    expect(response.status).toBe(403);
    const body = (await response.json()) as { errors: { message: string; extensions: unknown }[] };
    expect(body.errors).toEqual([
      {
        message:
          "This request could have been sent by any web page (a GET, or a form or text/plain POST): send it as JSON, or add the x-graphql-csrf header (or Apollo's x-apollo-operation-name or apollo-require-preflight)",
        extensions: { code: 'CSRF_HEADER_REQUIRED' },
      },
    ]);
    expect(kit.calls()).toEqual([]);
  });

  it('refuses form and text/plain POSTs without the header, before execution', async () => {
    const mutation = 'mutation { accessTokenCreate(input: { clientKey: "k", clientSecret: "s", email: "a@b.example" }) { __typename } }';
    const form = await fetch(`${kit.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ query: mutation }).toString(),
    });
    expect(form.status).toBe(403);
    const text = await fetch(`${kit.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      body: JSON.stringify({ query: mutation }),
    });
    expect(text.status).toBe(403);
    expect(kit.calls()).toEqual([]);
  });

  it('runs a GET query that carries the header, and JSON POSTs without it', async () => {
    const get = await fetch(`${kit.baseUrl}/graphql?query=${encodeURIComponent(BALANCES)}`, { headers: { 'x-graphql-csrf': '1' } });
    expect(get.status).toBe(200);
    expect(((await get.json()) as { data: { balances: unknown[] } }).data.balances.length).toBeGreaterThan(0);
    expect((await postGraphql(`${kit.baseUrl}/graphql`, { query: BALANCES })).status).toBe(200);
    expect(kit.calls().map((c) => c.path)).toEqual(['/svc/api/v1/account/balance', '/svc/api/v1/account/balance']);
  });

  it('still serves the GraphiQL page to a plain browser GET, configured to send the header', async () => {
    const page = await fetch(`${kit.baseUrl}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Banking gateway');
    expect(html).toContain('"additionalHeaders":{"x-graphql-csrf":"1","x-bank-cost":"true"}');
  });

  it('runs a subscription sent as GraphiQL sends it (a GET of text/event-stream) with the header only', async () => {
    const url = `${kit.baseUrl}/graphql?query=${encodeURIComponent('subscription { accountStatusChanged { status } }')}`;
    const bare = await fetch(url, { headers: { accept: 'text/event-stream' } });
    expect(bare.status).toBe(403);
    await bare.body?.cancel();
    const before = kit.gateway.events.activeSubscriptions();
    const abort = new AbortController();
    const stream = await fetch(url, { headers: { accept: 'text/event-stream', 'x-graphql-csrf': '1' }, signal: abort.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    await expect.poll(() => kit.gateway.events.activeSubscriptions()).toBe(before + 1);
    abort.abort();
  });
});
