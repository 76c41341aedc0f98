import { createHash } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';

/**
 * ETag and 304 for queries sent as GET (a persisted operation's `?documentId=`, or `?query=`), so a
 * mobile client revalidates a screen with `If-None-Match` and gets no body when nothing changed.
 * The answer is computed all the same (from the record cache, usually without a bank call); what
 * is saved is the transfer and the client's parsing.
 *
 * - The tag is weak (`W/"…"`): it names the JSON, whichever encoding the compression plugin, which
 *   runs after this one, then gives it.
 * - `Cache-Control: private, no-cache`: the answer is one bank user's and must be revalidated each
 *   time, never served from a shared cache; `Vary` names the headers that pick the user.
 * - Only whole JSON answers: never event streams or multipart (subscriptions, @defer).
 *
 * Hand-written: Yoga's response cache plugin sets ETags only on the results it caches itself, and
 * this gateway caches bank reads under the loaders instead (src/upstream/record-cache.ts).
 */
const JSON_TYPE = /^application\/(graphql-response\+)?json\b/;

export function useConditionalGet(): Plugin {
  return {
    // Synchronous for every answer it leaves alone (all but GET's): an async hook would cost each a
    // promise, and the plugins after it a turn of the microtask queue.
    onResponse(args) {
      const { request, response } = args;
      if (request.method !== 'GET' || response.status !== 200 || !JSON_TYPE.test(response.headers.get('content-type') ?? '')) return;
      // Asked last: @whatwg-node makes a stream for a text body when `body` is asked.
      if (!response.body) return;
      return tagged(args);
    },
  };
}

type ResponseArgs = Parameters<NonNullable<Plugin['onResponse']>>[0];

/** The answer with its ETag, or a 304 with no body when the client has it already. */
async function tagged({ request, response, setResponse, fetchAPI }: ResponseArgs): Promise<void> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const etag = `W/"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
  // Copied one by one: a Headers built from Yoga's answers its get() with nothing for what it copied (@whatwg-node ponyfill).
  const headers = new fetchAPI.Headers();
  response.headers.forEach((value, name) => headers.append(name, value));
  headers.set('etag', etag);
  headers.set('cache-control', 'private, no-cache');
  headers.append('vary', 'authorization, cookie, x-api-key');
  if (matches(request.headers.get('if-none-match'), etag)) {
    headers.delete('content-type');
    headers.delete('content-length');
    setResponse(new fetchAPI.Response(null, { status: 304, headers }));
    return;
  }
  headers.set('content-length', String(bytes.byteLength));
  setResponse(new fetchAPI.Response(bytes, { status: 200, statusText: response.statusText, headers }));
}

/** If-None-Match's weak comparison (RFC 9110, 13.1.2): any listed tag, weak or strong, or `*`. */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}
