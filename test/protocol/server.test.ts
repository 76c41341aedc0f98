import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startKit, type Kit } from '../helpers/kit.ts';

describe('the HTTP server', () => {
  let kit: Kit;
  let base: string;
  beforeAll(async () => {
    kit = await startKit();
    const { port } = await kit.gateway.server.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => kit.close());

  it('answers /healthz and /readyz (the bank answered a probe)', async () => {
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      detail: 'ready: bank, webhooks ok',
      checks: {
        bank: { ok: true, detail: 'the bank answered a probe (balance read with the gateway token)' },
        // This gateway files no subscriptions of its own (no public URL): nothing to cover.
        webhooks: { ok: true, managed: false, detail: 'not managed: PUBLIC_URL and WEBHOOK_API_KEY are not both set' },
      },
    });
  });

  it('serves GraphQL over HTTP and over graphql-ws on the same path', async () => {
    const http = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ balances { currency } }' }),
    });
    const httpBody = (await http.json()) as { data: { balances: { currency: string }[] } };
    expect(httpBody.data.balances.length).toBeGreaterThan(0);

    const client = createClient({ url: `${base.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
    const wsResult = await new Promise<unknown>((resolve, reject) => {
      let value: unknown;
      client.subscribe({ query: '{ balances { currency } }' }, { next: (v) => (value = v), error: reject, complete: () => resolve(value) });
    });
    await client.dispose();
    expect(wsResult).toEqual(httpBody);
  });

  it('serves the GraphiQL page with its assets inlined (no CDN)', async () => {
    const page = await fetch(`${base}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Banking gateway');
    expect(html).not.toMatch(/<script[^>]+src="https?:\/\//);
    expect(html).not.toMatch(/<link[^>]+href="https?:\/\/[^"]+\.css"/);
  });
});

describe('graphql-ws authentication', () => {
  it('takes the bearer token from connectionParams.authorization', async () => {
    const kit = await startKit({ gatewayCredentials: false });
    const { port } = await kit.gateway.server.listen(0, '127.0.0.1');
    const login = await kit.gateway.yoga.fetch('http://gateway.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query:
          'mutation($input: AccessTokenCreateInput!) { accessTokenCreate(input: $input) { ... on AccessTokenCreateSuccess { token { accessToken } } } }',
        variables: { input: { clientKey: 'sandbox-client-key', clientSecret: 'sandbox-client-secret', email: 'treasury@acme.example' } },
      }),
    });
    const token = (await login.json()).data.accessTokenCreate.token.accessToken as string;
    const run = async (connectionParams: Record<string, string>) => {
      const client = createClient({ url: `ws://127.0.0.1:${port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams });
      const result = await new Promise<any>((resolve, reject) => {
        let value: unknown;
        client.subscribe(
          { query: '{ balances { currency } }' },
          { next: (v) => (value = v), error: reject, complete: () => resolve(value) },
        );
      });
      await client.dispose();
      return result;
    };
    const anonymous = await run({});
    expect(anonymous.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const authed = await run({ authorization: `Bearer ${token}` });
    expect(authed.errors).toBeUndefined();
    expect(authed.data.balances.length).toBeGreaterThan(0);
    await kit.gateway.server.stop(1_000);
    await kit.sandbox.close();
  });
});

describe('graceful stop', () => {
  it('finishes in-flight requests, then refuses new connections', async () => {
    const kit = await startKit({ sandbox: { latencyMs: 300 } });
    const { port } = await kit.gateway.server.listen(0, '127.0.0.1');
    const inflight = fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ balances { currency } }' }),
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stopped = kit.gateway.server.stop(5_000);
    const response = await inflight;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: { balances: unknown[] } }).data.balances.length).toBeGreaterThan(0);
    await stopped;
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    await kit.sandbox.close();
  });
});

describe('readiness without an upstream', () => {
  it('is not ready when the upstream cannot be reached', async () => {
    const kit = await startKit();
    const { port } = await kit.gateway.server.listen(0, '127.0.0.1');
    await kit.sandbox.close();
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'not ready' });
    await kit.gateway.server.stop(1_000);
  });
});
