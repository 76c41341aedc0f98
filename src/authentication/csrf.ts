import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { createGraphQLError, type Plugin } from 'graphql-yoga';

/**
 * Yoga's CSRF prevention (@graphql-yoga/plugin-csrf-prevention): a browser sends a cross-site
 * "simple" request (a GET, or a POST of a form or text/plain) without asking the server first, so
 * such a request must carry a header a page can only add after a CORS preflight. JSON POSTs
 * (GraphiQL, the test kit, SSE subscriptions from fetch) are preflighted already and pass
 * untouched; a GET query needs `x-graphql-csrf: 1` (any value), or one of the headers Apollo's
 * clients send for the same purpose and Apollo Server accepts: `x-apollo-operation-name` (Apollo
 * Kotlin and Apollo iOS mark every GET with it) or `apollo-require-preflight`.
 */
export const CSRF_HEADER = 'x-graphql-csrf';

/** Every header taken as CSRF proof, ours first. */
export const CSRF_HEADERS = [CSRF_HEADER, 'x-apollo-operation-name', 'apollo-require-preflight'];

/**
 * Yoga's plugin decides; its refusal ("Required CSRF header(s) not present") is replaced by one that
 * says what to do and carries a code, still in onRequestParse: before the body is read.
 */
export function useCsrfPrevention(): Plugin {
  const yogaCsrf = useCSRFPrevention({ requestHeaders: CSRF_HEADERS });
  return {
    onRequestParse(payload) {
      try {
        return yogaCsrf.onRequestParse?.(payload);
      } catch {
        throw createGraphQLError(
          `This request could have been sent by any web page (a GET, or a form or text/plain POST): send it as JSON, or add the ${CSRF_HEADER} header (or Apollo's x-apollo-operation-name or apollo-require-preflight)`,
          { extensions: { code: 'CSRF_HEADER_REQUIRED', http: { status: 403 } } },
        );
      }
    },
  };
}
