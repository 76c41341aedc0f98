/**
 * The one GraphQL POST of the tests: a JSON body to a URL, over the network or in-process
 * (`{ fetch: kit.gateway.yoga.fetch }` with `http://gateway.test/graphql`), answered with its status,
 * its headers and its body read as JSON. Streams (SSE, multipart) and raw sockets are read where
 * they are used.
 */

/** How a GraphQL POST was answered. */
export interface GraphqlAnswer<Body = any> {
  status: number;
  headers: Headers;
  /** The body read as JSON; undefined when it was empty. */
  body: Body;
}

/** What sends the request: the global fetch, or a server's own (Yoga's, a router's) in-process. */
type Fetch = (url: string, init: RequestInit) => Promise<Response> | Response;

/** The media type a GraphQL-over-HTTP client asks for, sent unless `headers` name another accept. */
const GRAPHQL_RESPONSE = 'application/graphql-response+json';

/**
 * POSTs `body` (`{ query, variables }`, `{ documentId }`, `{ extensions }`, a batch...) as JSON to
 * `url` with `headers` (which may replace the content-type and accept). `signal` lets a client walk
 * away: the promise then rejects with the AbortError, as fetch does.
 */
export async function postGraphql<Body = any>(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  { fetch: send = fetch, signal }: { fetch?: Fetch; signal?: AbortSignal } = {},
): Promise<GraphqlAnswer<Body>> {
  const response = await send(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: GRAPHQL_RESPONSE, ...headers },
    body: JSON.stringify(body),
    signal,
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    throw new Error(`${url} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`);
  }
  return { status: response.status, headers: response.headers, body: parsed as Body };
}
