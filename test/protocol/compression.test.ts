import { request } from 'node:http';
import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { chooseEncoding } from '../../src/transport/compression.ts';
import { useKit } from '../helpers/kit.ts';

// Issue 15, point 8: responses compressed when the client accepts it; GraphiQL's page kept by the
// browser (ETag, 304); event streams never compressed (a compressor would hold events back).

const kit = useKit({ listen: true });

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One HTTP exchange with nothing in between: Node's fetch would inflate the body and hide the encoding. */
function raw(method: string, path: string, headers: Record<string, string>, body?: string, firstChunkOnly = false): Promise<Raw> {
  const url = new URL(path, kit.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (firstChunkOnly) {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
          req.destroy();
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', (error) => (firstChunkOnly ? undefined : reject(error)));
    req.end(body);
  });
}

const BIG_QUERY = JSON.stringify({
  query:
    '{ accounts { edges { node { upstreamId accountNumber accountHolderName supportedFeatures { currency transferMethod routingCodes { type value } } } } } }',
});
const SMALL_QUERY = JSON.stringify({ query: '{ balances { currency } }' });
const json = { 'content-type': 'application/json' };

describe('compressed responses', () => {
  it('answers JSON in brotli or gzip as the client prefers, and as is when it accepts neither', async () => {
    const plain = await raw('POST', '/graphql', { ...json, 'accept-encoding': 'identity' }, BIG_QUERY);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('accept-encoding');
    const result = JSON.parse(plain.body.toString('utf8'));
    expect(result.data.accounts.edges.length).toBeGreaterThan(0);
    expect(plain.body.byteLength).toBeGreaterThan(1_024);

    const br = await raw('POST', '/graphql', { ...json, 'accept-encoding': 'gzip, deflate, br' }, BIG_QUERY);
    expect(br.headers['content-encoding']).toBe('br');
    expect(Number(br.headers['content-length'])).toBe(br.body.byteLength);
    expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).toEqual(result);
    expect(br.body.byteLength).toBeLessThan(plain.body.byteLength / 2);

    const gzip = await raw('POST', '/graphql', { ...json, 'accept-encoding': 'br;q=0, gzip' }, BIG_QUERY);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.body).toString('utf8'))).toEqual(result);
  });

  it('leaves small answers as they are', async () => {
    const small = await raw('POST', '/graphql', { ...json, 'accept-encoding': 'gzip, br' }, SMALL_QUERY);
    expect(small.body.byteLength).toBeLessThan(1_024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8')).data.balances.length).toBeGreaterThan(0);
  });

  it('passes an answer it leaves as it is without asking for its body, which would make a stream nobody reads', async () => {
    // @whatwg-node builds a Readable for a text body when `body` is read; its server writes the text itself.
    const made = vi.spyOn(Readable, 'from');
    try {
      for (const accept of ['identity', 'gzip, br']) {
        const answer = await raw('POST', '/graphql', { ...json, 'accept-encoding': accept }, SMALL_QUERY);
        expect(answer.headers.vary).toContain('accept-encoding');
        expect(JSON.parse(answer.body.toString('utf8')).data.balances.length).toBeGreaterThan(0);
      }
      expect(made).not.toHaveBeenCalled();
      // The spy sees the streams that are made: a compressed answer's reading makes one.
      await raw('POST', '/graphql', { ...json, 'accept-encoding': 'gzip' }, BIG_QUERY);
      expect(made).toHaveBeenCalled();
    } finally {
      made.mockRestore();
    }
  });

  it('never compresses an event stream', async () => {
    const body = JSON.stringify({ query: 'subscription { cardStatusChanged { status } }' });
    const stream = await raw('POST', '/graphql', { ...json, accept: 'text/event-stream', 'accept-encoding': 'gzip, br' }, body, true);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toContain('text/event-stream');
    // Yoga marks its event streams `content-encoding: none` so proxies leave them alone too.
    expect([undefined, 'none']).toContain(stream.headers['content-encoding']);
    expect(stream.body.toString('utf8')).toMatch(/^:|^event:|^data:/m);
  });

  it('serves GraphiQL compressed once, with an ETag the browser revalidates to a 304 without a body', async () => {
    const html = { accept: 'text/html' };
    const plain = await raw('GET', '/graphql', html);
    expect(plain.status).toBe(200);
    const etag = plain.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(plain.headers['cache-control']).toBe('no-cache');
    const br = await raw('GET', '/graphql', { ...html, 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.etag).toBe(etag);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.body.byteLength).toBeLessThan(plain.body.byteLength / 3);
    const again = await raw('GET', '/graphql', { ...html, 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.byteLength).toBe(0);
  });
});

describe('chooseEncoding', () => {
  it('follows Accept-Encoding tokens and q-values, brotli first on a tie', () => {
    expect(chooseEncoding(null)).toBeNull();
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0')).toBeNull();
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('*, br;q=0')).toBe('gzip');
  });
});
