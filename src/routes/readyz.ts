import type { Plugin } from 'graphql-yoga';
import { readiness, type ReadinessCheck, type ReadinessTiming } from './health.ts';
import type { UpstreamRuntime } from '../upstream/index.ts';
import { jsonAnswer, route } from './route.ts';

export interface ReadinessRouteOptions {
  upstream: UpstreamRuntime;
  upstreamBaseUrl: string;
  /** What /readyz checks beside the bank, by name (Redis, webhook coverage). */
  checks?: Record<string, ReadinessCheck>;
  /** How fresh the evidence about the bank must be (default: DEFAULT_READINESS_TIMING). */
  timing?: ReadinessTiming | undefined;
  /** Whether the server is stopping (server.ts): from then on the instance asks to be taken out of rotation. */
  stopping: () => boolean;
}

/** GET /readyz: 200 while this instance should get traffic, 503 with what is wrong (health.ts) or while it stops. */
export function useReadiness(options: ReadinessRouteOptions): Plugin {
  return route('/readyz', async () => {
    if (options.stopping()) return jsonAnswer(503, { status: 'stopping' });
    const { ready, body } = await readiness(options.upstream, options.upstreamBaseUrl, options.checks, options.timing);
    return jsonAnswer(ready ? 200 : 503, body);
  });
}
