import { BANK_COST_HEADER } from '../limits/bank-call-pricing.ts';
import type { CORSOptions } from 'graphql-yoga';
import { API_KEY_HEADER } from './credentials.ts';
import { CSRF_HEADERS } from './csrf.ts';

/**
 * Browser origins (ALLOWED_ORIGINS): which pages may call the gateway cross-origin (CORS) and open
 * a WebSocket to it. `*` allows any. Requests without an Origin come from non-browser clients and
 * are not an origin matter.
 */

export type OriginCheck = (origin: string | undefined, host?: string | undefined) => boolean;

export function createOriginCheck(allowed: readonly string[]): OriginCheck {
  const any = allowed.includes('*');
  const set = new Set(allowed.map((origin) => origin.toLowerCase()));
  return (origin, host) => {
    if (origin === undefined) return true;
    if (any || set.has(origin.toLowerCase())) return true;
    // The gateway's own pages (GraphiQL) are same-origin wherever it is deployed.
    return host !== undefined && sameHost(origin, host);
  };
}

function sameHost(origin: string, host: string): boolean {
  try {
    return new URL(origin).host.toLowerCase() === host.toLowerCase();
  } catch {
    return false;
  }
}

/**
 * Yoga's `cors` option: none without allowed origins; otherwise answers only an allowed origin,
 * naming it (never `*`), and no credentials mode (the gateway uses no cookies).
 */
export function corsOptions(allowed: readonly string[]): false | ((request: Request) => CORSOptions) {
  if (allowed.length === 0) return false;
  const check = createOriginCheck(allowed);
  return (request) => {
    const origin = request.headers.get('origin') ?? undefined;
    if (origin === undefined || !check(origin)) return false;
    return {
      origin: [origin],
      methods: ['GET', 'POST', 'OPTIONS'],
      allowedHeaders: ['content-type', 'accept', 'authorization', API_KEY_HEADER, ...CSRF_HEADERS, 'x-request-id', BANK_COST_HEADER],
      exposedHeaders: ['x-request-id', 'www-authenticate', 'retry-after'],
      credentials: false,
      maxAge: 600,
    };
  };
}

/**
 * A CORS preflight from a page whose origin is not allowed: the 403 body that says what to change,
 * or undefined to let it through. Without it a refused preflight either gets a bare 204 (Yoga's
 * CORS with other origins allowed) or reaches the CSRF check and is refused with a message about a
 * CSRF header, which sends the page's author looking in the wrong place.
 */
export function preflightRefusal(
  check: OriginCheck,
  method: string | undefined,
  headers: { origin?: string; host?: string; 'access-control-request-method'?: string },
): object | undefined {
  if (method !== 'OPTIONS' || headers['access-control-request-method'] === undefined) return undefined;
  if (check(headers.origin, headers.host)) return undefined;
  const message = `Origin ${headers.origin} may not call this gateway: add it to ALLOWED_ORIGINS (comma-separated origins, or * for any).`;
  return { errors: [{ message, extensions: { code: 'ORIGIN_NOT_ALLOWED' } }] };
}
