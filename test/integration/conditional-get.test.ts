import { get as httpGet, type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { CSRF_HEADER } from '../../src/authentication/csrf.ts';
import { SHIPPED_TRUSTED_DOCUMENTS } from '../../src/settings/index.ts';
import { useConditionalGet } from '../../src/transport/conditional-get.ts';
import { bankEvent, deliverEvent } from '../helpers/deliver.ts';
import { DashboardDocument } from '../generated/graphql.ts';
import { useKit } from '../helpers/kit.ts';

/**
 * A persisted operation sent as GET carries a weak ETag, and a client that sends it back in
 * If-None-Match gets 304 with no body until the answer changes (here: a deposit event, which drops
 * the balances the record cache kept).
 */
const kit = useKit({ listen: true, cache: true, limits: { trustedDocuments: SHIPPED_TRUSTED_DOCUMENTS } });

const dashboardUrl = () =>
  `${kit.baseUrl}/graphql?documentId=${encodeURIComponent((DashboardDocument as unknown as { __meta__: { hash: string } }).__meta__.hash)}`;

async function get(headers: Record<string, string> = {}) {
  const response = await fetch(dashboardUrl(), {
    headers: { accept: 'application/graphql-response+json', [CSRF_HEADER]: '1', ...headers },
  });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

describe('conditional GET of persisted operations', () => {
  it('tags the answer, answers 304 with no body while it is the same, and 200 with a new tag once it changed', async () => {
    const first = await get();
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body).data.balances.length).toBeGreaterThan(0);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[\w-]{27}"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    expect(first.headers.get('vary')).toMatch(/authorization/);

    const again = await get({ 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    // A list of tags, and the strong form of the same tag, match too (weak comparison).
    expect((await get({ 'if-none-match': `"other", ${etag.slice(2)}` })).status).toBe(304);

    await kit.control('POST', 'deposits', { currency: 'USD', amount: 1250, payer_name: 'Globex' });
    expect((await deliverEvent(kit.baseUrl, bankEvent(`dep_${Date.now()}`, 'deposit.settled'))).status).toBe(202);
    const changed = await get({ 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('keeps the same tag whether the answer is compressed or not', async () => {
    const plain = await get({ 'accept-encoding': 'identity' });
    // node:http, not fetch: fetch would inflate the body and drop the encoding.
    const compressed = await new Promise<IncomingMessage>((resolve, reject) => {
      httpGet(
        dashboardUrl(),
        { headers: { accept: 'application/graphql-response+json', [CSRF_HEADER]: '1', 'accept-encoding': 'br' } },
        resolve,
      ).on('error', reject);
    });
    compressed.resume();
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers.etag).toBe(plain.headers.get('etag'));
  });

  it('tags no POST', async () => {
    const response = await fetch(`${kit.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ documentId: (DashboardDocument as unknown as { __meta__: { hash: string } }).__meta__.hash }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBeNull();
    await response.text();
  });

  it('passes every answer it does not tag at once, with no promise for the plugins after it to wait on', () => {
    const onResponse = useConditionalGet().onResponse!;
    const answer = () => new Response('{"data":{"balances":[]}}', { headers: { 'content-type': 'application/json' } });
    const post = new Request('http://gateway.test/graphql', { method: 'POST', body: '{}' });
    const args = (request: Request, response: Response) =>
      ({ request, response, setResponse: () => {}, fetchAPI: globalThis, serverContext: {} }) as unknown as Parameters<
        typeof onResponse
      >[0];
    expect(onResponse(args(post, answer()))).toBeUndefined();
    expect(
      onResponse(
        args(
          new Request('http://gateway.test/graphql?documentId=x'),
          new Response('{}', { status: 400, headers: { 'content-type': 'application/json' } }),
        ),
      ),
    ).toBeUndefined();
    // A GET's whole JSON answer is read, for its tag.
    expect(onResponse(args(new Request('http://gateway.test/graphql?documentId=x'), answer()))).toBeInstanceOf(Promise);
  });
});
