import { createHash } from 'node:crypto';
import type { ExecutionPayload } from './outcome.ts';

/**
 * What the clients put on the wire and got back, read beside them: a fetch that hands each client
 * its response untouched (a tee of the body) and counts, on the copy, the results the response
 * carried (JSON: one; multipart: its JSON parts; SSE: its `next` events). A client that merges
 * incremental payloads itself (Apollo Client, urql, GraphiQL's executor) shows the merged results;
 * the wire shows whether they came in parts.
 */
export interface Exchange {
  method: string;
  /** The request named its document by text (a `query` in the body or the URL). */
  sentText: boolean;
  status: number;
  contentType: string;
  /** Results the body carried so far (read as it arrives). */
  results: number;
  /** The first result's error code, if any (PERSISTED_QUERY_NOT_FOUND...). */
  firstCode: string | undefined;
}

export function tappedFetch(): { fetch: typeof fetch; exchanges: Exchange[] } {
  const exchanges: Exchange[] = [];
  const tapped: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const body = request.method === 'POST' ? await request.clone().text() : '';
    const sentText = /"query"\s*:\s*"/.test(body) || new URL(request.url).searchParams.has('query');
    const response = await fetch(request);
    const exchange: Exchange = {
      method: request.method,
      sentText,
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      results: 0,
      firstCode: undefined,
    };
    exchanges.push(exchange);
    if (!response.body) return response;
    const [forClient, forCount] = response.body.tee();
    void count(forCount, exchange);
    return new Response(forClient, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return { fetch: tapped, exchanges };
}

async function count(body: ReadableStream<Uint8Array>, exchange: Exchange): Promise<void> {
  const texts: string[] = [];
  const decoder = new TextDecoder();
  try {
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      texts.push(decoder.decode(chunk, { stream: true }));
      const payloads = payloadsOf(exchange.contentType, texts.join(''));
      exchange.results = payloads.length;
      exchange.firstCode ??= payloads[0]?.errors?.[0]?.extensions?.code as string | undefined;
    }
  } catch {
    // The client let go of the stream.
  }
}

/** The results in a body so far: JSON, multipart/mixed parts (Yoga's `-` and Apollo's `graphql` boundaries), or SSE `next` events. */
export function payloadsOf(contentType: string, text: string): ExecutionPayload[] {
  const json = (candidates: string[]) =>
    candidates.flatMap((candidate) => {
      try {
        return [JSON.parse(candidate) as ExecutionPayload & { payload?: ExecutionPayload }];
      } catch {
        return [];
      }
    });
  if (contentType.startsWith('multipart/mixed')) {
    const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1] ?? '-';
    const parts = text
      .split(`--${boundary}`)
      .slice(1, -1)
      .map((part) => part.slice(part.indexOf('\r\n\r\n') + 4).trim());
    // Apollo's multipart subscriptions wrap each result (`{"payload": …}`) and send `{}` heartbeats.
    return json(parts).flatMap((part) => (part.payload ? [part.payload] : Object.keys(part).length === 0 ? [] : [part]));
  }
  if (contentType.startsWith('text/event-stream')) {
    const events = text
      .split('\n\n')
      .slice(0, -1)
      .filter((message) => /^event: next/m.test(message));
    return json(
      events.map((message) =>
        message
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim())
          .join('\n'),
      ),
    );
  }
  return text.trim() ? json([text]) : [];
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Apollo's `extensions.persistedQuery`, as every APQ client sends it. */
export const persistedQuery = (text: string) => ({ persistedQuery: { version: 1, sha256Hash: sha256(text) } });
