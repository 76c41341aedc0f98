import type { Plugin } from 'graphql-yoga';
import { preflightRefusal, type OriginCheck } from '../authentication/origins.ts';
import { jsonAnswer } from './route.ts';

/**
 * A CORS preflight from a page whose origin is not allowed, on any path the routes before it did
 * not take, is answered 403 with what to change (authentication/origins.ts says why), before CORS would
 * answer it a bare 204.
 */
export function usePreflightRefusal(originAllowed: OriginCheck): Plugin {
  return {
    onRequest({ request, endResponse }) {
      // Only an OPTIONS request is a preflight: every other passes without its headers read.
      if (request.method !== 'OPTIONS') return;
      const header = (name: string) => request.headers.get(name) ?? undefined;
      const refused = preflightRefusal(originAllowed, request.method, {
        origin: header('origin'),
        host: header('host'),
        'access-control-request-method': header('access-control-request-method'),
      });
      if (refused) endResponse(jsonAnswer(403, refused));
    },
  };
}
