import { describe, expect, it } from 'vitest';
import { signatureFor } from '../../src/events/intake.ts';
import { bankEvent } from '../helpers/deliver.ts';
import { KIT_WEBHOOKS, startKit, useKit } from '../helpers/kit.ts';

/**
 * The routes outside GraphQL (src/routes/), reached in-process through yoga.fetch, as Yoga plugins
 * answer them: each as node:http answered it before, and alone (no request id, CORS headers, ETag
 * or compression; not counted among the GraphQL endpoint's answers).
 */
const ALLOWED_ORIGIN = 'http://localhost:5173';
const kit = useKit({
  metricsToken: 'metrics-secret',
  webhooks: { maxBytes: 4096 },
  auth: { mode: 'none', apiKeys: [], jwt: undefined, allowedOrigins: [ALLOWED_ORIGIN] },
});

const inProcess = (path: string, init: RequestInit = {}) => kit.gateway.yoga.fetch(`http://gateway.test${path}`, init);
const preflight = (origin: string) => ({ method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });

/** The headers the GraphQL plugins would add to an answer that reached them. */
function graphqlHeaders(response: Response): Record<string, string | null> {
  const names = ['x-request-id', 'access-control-allow-origin', 'vary', 'etag', 'content-encoding'];
  return Object.fromEntries(names.map((name) => [name, response.headers.get(name)]));
}
const NONE = { 'x-request-id': null, 'access-control-allow-origin': null, vary: null, etag: null, 'content-encoding': null };

async function scrape(): Promise<string> {
  return (await inProcess('/metrics', { headers: { authorization: 'Bearer metrics-secret' } })).text();
}

/** The value of one series, e.g. `gateway_http_responses_total{status="200"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

function signedDelivery(body: unknown, headers: Record<string, string> = {}): RequestInit {
  const raw = JSON.stringify(body);
  const timestamp = String(Math.floor(Date.now() / 1000));
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': KIT_WEBHOOKS.apiKey,
      'x-timestamp': timestamp,
      'x-signature': signatureFor(KIT_WEBHOOKS.signingSecret, timestamp, raw),
      ...headers,
    },
    body: raw,
  };
}

describe('/healthz', () => {
  it('answers 200 to any method, even a preflight, with nothing of GraphQL added', async () => {
    for (const init of [{}, { method: 'POST', body: '{}' }, preflight(ALLOWED_ORIGIN)]) {
      const response = await inProcess('/healthz', init);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toEqual({ status: 'ok' });
    }
    const fromAPage = await inProcess('/healthz?probe=1', { headers: { origin: ALLOWED_ORIGIN, 'accept-encoding': 'gzip, br' } });
    expect(graphqlHeaders(fromAPage)).toEqual(NONE);
  });
});

describe('/readyz', () => {
  it('says the instance is ready, with every part it checked', async () => {
    const response = await inProcess('/readyz');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(graphqlHeaders(response)).toEqual(NONE);
    expect(await response.json()).toMatchObject({
      status: 'ready',
      detail: 'ready: bank, webhooks ok',
      checks: { bank: { ok: true }, webhooks: { ok: true } },
    });
  });

  it('answers 503 stopping once the server stops', async () => {
    const own = await startKit();
    expect((await own.gateway.yoga.fetch('http://gateway.test/readyz')).status).toBe(200);
    await own.gateway.server.stop(100);
    const stopping = await own.gateway.yoga.fetch('http://gateway.test/readyz');
    expect(stopping.status).toBe(503);
    expect(await stopping.json()).toEqual({ status: 'stopping' });
    await own.sandbox.close();
  });
});

describe('/metrics', () => {
  it('needs the metrics token, and its answers are not counted as GraphQL answers', async () => {
    const before = await scrape();
    const refused = await inProcess('/metrics', { headers: { authorization: 'Bearer wrong' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(refused.headers.get('content-type')).toBe('text/plain');
    expect(await refused.text()).toBe('metrics need Authorization: Bearer <METRICS_TOKEN>\n');

    const allowed = await inProcess('/metrics', { headers: { authorization: 'Bearer metrics-secret', 'accept-encoding': 'gzip' } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(allowed.headers.get('cache-control')).toBe('no-store');
    expect(graphqlHeaders(allowed)).toEqual(NONE);
    expect(await allowed.text()).toContain('# TYPE gateway_operation_duration_seconds histogram');

    const after = await scrape();
    for (const status of ['200', '401']) {
      const series = `gateway_http_responses_total{status="${status}"}`;
      expect(sample(after, series)).toBe(sample(before, series));
    }
  });
});

describe('/webhooks', () => {
  it('takes a signed delivery once, answering 202 then 200 for its repeat, and counts both', async () => {
    const delivery = signedDelivery(bankEvent('routes_1_account.active'));
    const accepted = await inProcess('/webhooks', delivery);
    expect(accepted.status).toBe(202);
    expect(accepted.headers.get('content-type')).toBe('application/json');
    expect(await accepted.json()).toEqual({ status: 'accepted', id: 'routes_1_account.active' });
    const repeated = await inProcess('/webhooks', delivery);
    expect(repeated.status).toBe(200);
    expect(await repeated.json()).toEqual({ status: 'duplicate', id: 'routes_1_account.active' });
    const text = await scrape();
    expect(sample(text, 'gateway_webhook_events_total{outcome="accepted",status="202"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'gateway_webhook_events_total{outcome="duplicate",status="200"}')).toBeGreaterThanOrEqual(1);
  });

  it('refuses other methods, a wrong signature and an oversized body as before', async () => {
    for (const init of [{}, preflight(ALLOWED_ORIGIN)]) {
      const response = await inProcess('/webhooks', init);
      expect(response.status).toBe(405);
      expect(await response.json()).toEqual({ error: 'use POST' });
    }
    const forged = await inProcess('/webhooks', signedDelivery(bankEvent('routes_2_account.active'), { 'x-signature': 'sha256=00' }));
    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({ error: 'x-signature does not match' });
    const huge = await inProcess(
      '/webhooks',
      signedDelivery(bankEvent('routes_3_account.active', 'account.active', { filler: 'x'.repeat(5000) })),
    );
    expect(huge.status).toBe(413);
    expect(huge.headers.get('connection')).toBe('close');
    expect(await huge.json()).toEqual({ error: 'body exceeds 4096 bytes' });
  });
});

describe('/', () => {
  it('redirects to the GraphQL path', async () => {
    const response = await inProcess('/', { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/graphql');
    expect(await response.text()).toBe('');
  });
});

describe('preflights', () => {
  it('refuses one from an origin not allowed on the GraphQL path, and lets CORS answer an allowed one', async () => {
    const refused = await inProcess('/graphql', preflight('http://localhost:3000'));
    expect(refused.status).toBe(403);
    expect(graphqlHeaders(refused)).toEqual(NONE);
    expect(await refused.json()).toEqual({
      errors: [
        {
          message:
            'Origin http://localhost:3000 may not call this gateway: add it to ALLOWED_ORIGINS (comma-separated origins, or * for any).',
          extensions: { code: 'ORIGIN_NOT_ALLOWED' },
        },
      ],
    });
    const allowed = await inProcess('/graphql', preflight(ALLOWED_ORIGIN));
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
  });
});

describe('status lines', () => {
  it('give each route answer the reason phrase a GraphQL answer gets, as node:http wrote it before', async () => {
    const answers = await Promise.all([
      inProcess('/healthz'),
      inProcess('/'),
      inProcess('/metrics'),
      inProcess('/graphql', preflight('http://evil.example')),
      inProcess('/webhooks', signedDelivery(bankEvent('routes_4_account.active'))),
      inProcess('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' }),
    ]);
    expect(answers.map((response) => `${response.status} ${response.statusText}`)).toEqual([
      '200 OK',
      '302 Found',
      '401 Unauthorized',
      '403 Forbidden',
      '202 Accepted',
      '200 OK',
    ]);
  });
});
