import { STATUS_CODES } from 'node:http';
import type { Plugin } from 'graphql-yoga';

/**
 * The routes outside GraphQL (routes/: /healthz, /readyz, /metrics, /webhooks...) go first, and
 * what one answers goes out as it made it: the plugins after them leave its answer alone.
 */

/** The requests a route answered. */
const routed = new WeakSet<Request>();

/**
 * The routes as one onRequest hook: each route's own, in order, until one answers. One hook rather
 * than one per route: every request, GraphQL's included, would ask each route in turn, and Yoga
 * makes a payload and a chain of promise helpers for each hook it calls.
 */
export function useRoutes(routes: Plugin[]): Plugin {
  const answers = routes.map((route) => {
    const { onRequest, ...others } = route;
    if (!onRequest || Object.keys(others).length > 0) throw new Error('a route is an onRequest hook and nothing else');
    return onRequest;
  });
  return {
    onRequest: (payload) => {
      let answered = false;
      const asRoute = {
        ...payload,
        endResponse: (response: Response) => {
          answered = true;
          routed.add(payload.request);
          payload.endResponse(withReasonPhrase(response));
        },
      };
      const askFrom = (first: number): void | Promise<void> => {
        for (let index = first; index < answers.length && !answered; index++) {
          const asking: unknown = answers[index]!(asRoute);
          if (isPromiseLike(asking)) return Promise.resolve(asking).then(() => askFrom(index + 1));
        }
      };
      return askFrom(0);
    },
  };
}

const isPromiseLike = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';

/**
 * A route's answer with node:http's reason phrase (`403 Forbidden`) where the route made its Response
 * without one: Yoga's own answers carry it, and node:http wrote it when it answered these paths.
 */
function withReasonPhrase(response: Response): Response {
  if (response.statusText) return response;
  return new Response(response.body, {
    status: response.status,
    statusText: STATUS_CODES[response.status] ?? '',
    headers: response.headers,
  });
}

/**
 * A plugin whose response hook passes over the routes' answers: they go out as a route made them,
 * with no CORS headers, request id, ETag or compression, and are not counted among the GraphQL
 * endpoint's answers.
 */
export function graphqlOnly(plugin: Plugin): Plugin {
  const { onResponse } = plugin;
  if (!onResponse) return plugin;
  return { ...plugin, onResponse: (payload) => (routed.has(payload.request) ? undefined : onResponse(payload)) };
}
