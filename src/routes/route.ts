import type { Plugin } from 'graphql-yoga';

/**
 * A route outside GraphQL as a Yoga plugin, as graphql-yoga's own useReadinessCheck is one: a
 * request for `path`, whatever its method or query string, gets `answer`'s response and goes no
 * further. yoga.ts registers routes first and sends their answers out as they are made.
 */
export function route(path: string, answer: (request: Request) => Response | Promise<Response>): Plugin {
  return {
    onRequest({ request, url, endResponse }) {
      if (url.pathname !== path) return;
      return Promise.resolve(answer(request)).then(endResponse);
    },
  };
}

/** A JSON answer nobody may cache: health, readiness, refusals. */
export function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}
