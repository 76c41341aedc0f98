import { STATUS_CODES } from 'node:http';
import type { Plugin } from 'graphql-yoga';

/**
 * The routes outside GraphQL (routes/: /healthz, /readyz, /metrics, /webhooks...) go first, and
 * what one answers goes out as it made it: the plugins after them leave its answer alone.
 */

/** The requests a route answered. */
const routed = new WeakSet<Request>();

/**
 * A route (routes/index.ts: an onRequest hook and nothing else) as a plugin of its own: what it
 * answers is marked, so the plugins after it leave that answer alone (graphqlOnly).
 */
export function asRoute(route: Plugin): Plugin {
  const { onRequest, ...others } = route;
  if (!onRequest || Object.keys(others).length > 0) throw new Error('a route is an onRequest hook and nothing else');
  return {
    onRequest: (payload) =>
      onRequest({
        ...payload,
        endResponse: (response: Response) => {
          routed.add(payload.request);
          payload.endResponse(withReasonPhrase(response));
        },
      }),
  };
}

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
