import type { Plugin } from 'graphql-yoga';
import type { Registry } from 'prom-client';
import { bearerToken } from '../authentication/credentials.ts';
import { sameSecret } from '../platform/secrets.ts';
import { route } from './route.ts';

/** GET /metrics: the registry in Prometheus' text format; with `token` (METRICS_TOKEN), only for `Authorization: Bearer <token>`. */
export function useMetricsRoute(registry: Registry, token: string | undefined): Plugin {
  return route('/metrics', async (request) => {
    if (token && !sameSecret(bearerToken(request.headers.get('authorization')) ?? '', token)) {
      return new Response('metrics need Authorization: Bearer <METRICS_TOKEN>\n', {
        status: 401,
        headers: { 'www-authenticate': 'Bearer realm="metrics"', 'content-type': 'text/plain' },
      });
    }
    return new Response(await registry.metrics(), {
      status: 200,
      headers: { 'content-type': registry.contentType, 'cache-control': 'no-store' },
    });
  });
}
