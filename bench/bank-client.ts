/** The benchmark as a client of the bank itself: the baselines the gateway is measured against (the direct call, the bare floor). */

import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { DEMO_CREDENTIALS } from '@banking-gateway/sandbox';

/** A token of the bank's own, as a direct client would hold (a second login leaves the gateway's valid). */
export async function directToken(sandboxUrl: string): Promise<string> {
  const c = DEMO_CREDENTIALS;
  const response = await request(`${sandboxUrl}/api/v1/authentication/login`, {
    method: 'POST',
    headers: { 'x-api-key': c.apiKey, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ client_key: c.clientKey, client_secret: c.clientSecret, email: c.email }),
  });
  const body = (await response.body.json()) as { data?: { access_token?: string }[] };
  const token = body.data?.[0]?.access_token;
  if (response.statusCode !== 200 || !token) throw new Error(`direct login failed: HTTP ${response.statusCode} ${JSON.stringify(body)}`);
  return token;
}

/** The headers the gateway's connection sends for the `standard` family (headersFor in src/upstream/stages/send.ts), with a bank token. */
export function directHeaders(token: string): Record<string, string> {
  const c = DEMO_CREDENTIALS;
  return {
    'x-api-key': c.apiKey,
    'content-type': 'application/json',
    accept: 'application/json',
    'x-product-id': c.productId,
    // Reads are not idempotency-checked, so one id serves every request.
    'x-request-id': randomUUID(),
    'x-user-id': c.userId,
    authorization: `Bearer ${token}`,
  };
}
