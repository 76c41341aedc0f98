import type { Plugin } from 'graphql-yoga';
import { jsonAnswer, route } from './route.ts';

/** GET /healthz: the process answers. Liveness only; whether it should get traffic is /readyz's question. */
export const useLiveness = (): Plugin => route('/healthz', () => jsonAnswer(200, { status: 'ok' }));
