import type { Plugin } from 'graphql-yoga';
import { createGraphQLError } from 'graphql-yoga';

/**
 * CSRF prevention, as Yoga's plugin (@graphql-yoga/plugin-csrf-prevention) does it: a browser sends
 * a cross-site "simple" request (a GET, or a POST of a form or text/plain) without asking the server
 * first, so such a request must carry a header a page can only add after a CORS preflight. JSON
 * POSTs (GraphiQL, the test kit, SSE subscriptions from fetch) are preflighted already and pass
 * untouched; a GET query needs `x-graphql-csrf: 1` (any value).
 */
export const CSRF_HEADER = 'x-graphql-csrf';

const SIMPLE_CONTENT_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

/** Whether a browser could have sent this request cross-site without a preflight. */
export function needsCsrfHeader(request: Request): boolean {
  const contentType = request.headers.get('content-type');
  if (!contentType) return true;
  const mime = contentType.split(';')[0]!.trim().toLowerCase();
  return SIMPLE_CONTENT_TYPES.includes(mime);
}

/** Refused in onRequestParse: before the body is read, so before any parsing or execution. */
export function useCsrfPrevention(): Plugin {
  return {
    onRequestParse({ request }) {
      if (!needsCsrfHeader(request) || request.headers.has(CSRF_HEADER)) return;
      throw createGraphQLError(
        `This request could have been sent by any web page (a GET, or a form or text/plain POST): send it as JSON, or add the ${CSRF_HEADER} header`,
        { extensions: { code: 'CSRF_HEADER_REQUIRED', http: { status: 403 } } },
      );
    },
  };
}
