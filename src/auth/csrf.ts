import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { createGraphQLError, type Plugin } from 'graphql-yoga';

/**
 * Yoga's CSRF prevention (@graphql-yoga/plugin-csrf-prevention): a browser sends a cross-site
 * "simple" request (a GET, or a POST of a form or text/plain) without asking the server first, so
 * such a request must carry a header a page can only add after a CORS preflight. JSON POSTs
 * (GraphiQL, the test kit, SSE subscriptions from fetch) are preflighted already and pass
 * untouched; a GET query needs `x-graphql-csrf: 1` (any value).
 */
export const CSRF_HEADER = 'x-graphql-csrf';

/**
 * Yoga's plugin decides; its refusal ("Required CSRF header(s) not present") is replaced by one that
 * says what to do and carries a code, still in onRequestParse: before the body is read.
 */
export function useCsrfPrevention(): Plugin {
  const yogaCsrf = useCSRFPrevention({ requestHeaders: [CSRF_HEADER] });
  return {
    onRequestParse(payload) {
      try {
        return yogaCsrf.onRequestParse?.(payload);
      } catch {
        throw createGraphQLError(
          `This request could have been sent by any web page (a GET, or a form or text/plain POST): send it as JSON, or add the ${CSRF_HEADER} header`,
          { extensions: { code: 'CSRF_HEADER_REQUIRED', http: { status: 403 } } },
        );
      }
    },
  };
}
