import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'graphql-yoga';

/**
 * Compressed responses, and a GraphiQL page the browser keeps.
 *
 * Written here rather than taken from @whatwg-node/server's `useContentEncoding` because that
 * plugin also inflates gzip request bodies after the body-size check has seen only their compressed
 * length (a zip bomb past MAX_BODY_BYTES), and compresses event streams, which a compressor holds
 * back until it has a block to emit: live updates would stall.
 *
 * - Only whole documents are compressed: JSON results and the GraphiQL page, never
 *   `text/event-stream` or `multipart/mixed`, and nothing under MIN_BYTES.
 * - Brotli when the client accepts it, else gzip.
 * - The GraphiQL page is the same for the process's life, so it is compressed once per encoding and
 *   served with an ETag: a browser that has it gets 304 and no body.
 */
const MIN_BYTES = 1_024;
const COMPRESSIBLE = /^(application\/(graphql-response\+)?json|text\/html|text\/javascript|application\/javascript|text\/css)\b/;

type Encoding = 'br' | 'gzip';

const compressors: Record<Encoding, (input: Uint8Array) => Promise<Buffer>> = {
  // Quality 5: most of brotli's gain on text at a fraction of the CPU of its maximum.
  br: (input) => promisify(brotliCompress)(input, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
  gzip: (input) => promisify(gzip)(input, { level: 6 }),
};

/** The encoding to answer in, from Accept-Encoding's tokens and q-values (RFC 9110, 12.5.3). */
export function chooseEncoding(acceptEncoding: string | null): Encoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [token = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(token.trim(), q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const wildcard = accepted.get('*') ?? 0;
  const weight = (encoding: Encoding) => accepted.get(encoding) ?? wildcard;
  const best = (['br', 'gzip'] as const).filter((encoding) => weight(encoding) > 0).sort((a, b) => weight(b) - weight(a))[0];
  return best ?? null;
}

interface Cached {
  etag: string;
  bodies: Map<Encoding | 'identity', Uint8Array>;
}

export function useResponseCompression(): Plugin {
  // The GraphiQL page, by the bytes Yoga rendered: rendered once per process, so one entry.
  let page: Cached | null = null;

  /** The GraphiQL page: served from `page`, compressed once per encoding. */
  const servePage = async ({ request, response, setResponse, fetchAPI }: ResponseArgs, encoding: Encoding | null) => {
    const bytes = new Uint8Array(await response.arrayBuffer());
    // The same page as last time (a byte compare, far cheaper than hashing the page again) keeps its entry.
    if (page === null || !Buffer.from(bytes).equals(page.bodies.get('identity')!)) {
      page = { etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`, bodies: new Map([['identity', bytes]]) };
    }
    setResponse(await pageResponse(fetchAPI, request, response, varied(fetchAPI, response), page, encoding));
  };

  return {
    // Synchronous unless there is work on the body: most answers pass with only a Vary header added.
    onResponse(args) {
      const { request, response } = args;
      const type = response.headers.get('content-type') ?? '';
      if (response.headers.has('content-encoding') || !COMPRESSIBLE.test(type)) return;
      const encoding = chooseEncoding(request.headers.get('accept-encoding'));
      // `response.body` is asked only where the body is then read: @whatwg-node makes a stream for a
      // text body when it is asked, which its server never uses (it writes the text itself).
      if (request.method === 'GET' && type.startsWith('text/html')) return response.body ? servePage(args, encoding) : undefined;
      // Nothing to do with the body: the answer goes on as it is (Yoga's own, sent without a stream in
      // between, and never read into memory here), only marked as varying by encoding, as its 304 is.
      const declared = Number(response.headers.get('content-length') ?? Number.NaN);
      if (encoding === null || declared < MIN_BYTES) {
        response.headers.append('vary', 'accept-encoding');
        return;
      }
      return response.body ? compressBody(args, encoding) : undefined;
    },
  };
}

type ResponseArgs = Parameters<NonNullable<Plugin['onResponse']>>[0];

function varied(fetchAPI: ResponseArgs['fetchAPI'], response: Response): Headers {
  const headers = new fetchAPI.Headers(response.headers);
  headers.append('vary', 'accept-encoding');
  return headers;
}

/** An answer of unknown or sufficient length, read and compressed unless it turns out small. */
async function compressBody({ response, setResponse, fetchAPI }: ResponseArgs, encoding: Encoding): Promise<void> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.byteLength < MIN_BYTES) setResponse(withBody(fetchAPI, response, varied(fetchAPI, response), bytes, null));
  else setResponse(withBody(fetchAPI, response, varied(fetchAPI, response), await compressors[encoding](bytes), encoding));
}

/** The GraphiQL page: 304 for a browser that has it, else its bytes in the encoding asked for, compressed once. */
async function pageResponse(
  fetchAPI: { Response: typeof Response },
  request: Request,
  response: Response,
  headers: Headers,
  page: Cached,
  encoding: Encoding | null,
): Promise<Response> {
  headers.set('etag', page.etag);
  headers.set('cache-control', 'no-cache');
  if (request.headers.get('if-none-match') === page.etag) {
    headers.delete('content-type');
    headers.delete('content-length');
    return new fetchAPI.Response(null, { status: 304, headers });
  }
  const key = encoding ?? 'identity';
  let body = page.bodies.get(key);
  if (body === undefined) {
    body = await compressors[key as Encoding](page.bodies.get('identity')!);
    page.bodies.set(key, body);
  }
  return withBody(fetchAPI, response, headers, body, encoding);
}

function withBody(
  fetchAPI: { Response: typeof Response },
  response: Response,
  headers: Headers,
  body: Uint8Array,
  encoding: Encoding | null,
): Response {
  if (encoding !== null) headers.set('content-encoding', encoding);
  headers.set('content-length', String(body.byteLength));
  return new fetchAPI.Response(body as Uint8Array<ArrayBuffer>, { status: response.status, statusText: response.statusText, headers });
}
