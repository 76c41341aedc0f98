import type { Plugin } from 'graphql-yoga';
import { refusal } from './refusal.ts';

/**
 * Refuses a request body over `maxBytes` with 413 before anything parses it: at once when
 * Content-Length says so, else (chunked) as soon as the bytes read pass the limit. At most
 * `maxBytes` are ever held in memory. A body with a Content-Length within the limit is left to
 * Yoga's own parser: Node's HTTP parser never gives a body more bytes than it declared (what follows
 * is read as the next request), so counting them again would only cost a copy per request.
 */
export function useBodyLimit(maxBytes: number, hideLimit: boolean): Plugin {
  // The rest of the body is never read, so the connection cannot carry another request: close it.
  const tooLarge = () =>
    refusal(
      'REQUEST_ENTITY_TOO_LARGE',
      hideLimit ? 'Request body too large.' : `Request body too large: the limit is ${maxBytes} bytes.`,
      {},
      {
        status: 413,
        headers: { connection: 'close' },
      },
    );
  return {
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI }) {
      const declared = request.headers.get('content-length');
      if (declared !== null && Number(declared) > maxBytes) throw tooLarge();
      if (declared !== null || !requestParser) return;
      const parse = requestParser;
      setRequestParser(async (incoming) => {
        if (!incoming.body) return parse(incoming);
        const body = await readAtMost(incoming.body, maxBytes);
        if (body === null) throw tooLarge();
        return parse(new fetchAPI.Request(incoming.url, { method: incoming.method, headers: incoming.headers, body }));
      });
    },
  };
}

/** The whole body, or null as soon as it passes `maxBytes` (the rest is never read). */
export async function readAtMost(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
}
