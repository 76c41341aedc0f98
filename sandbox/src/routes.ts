import type { IncomingHttpHeaders } from 'node:http';
import type { HeaderSetName } from './headers.ts';
import type { ErrorStyle, HttpMethod, Reply } from './http.ts';
import type { Runtime } from './runtime.ts';

export interface RequestContext {
  runtime: Runtime;
  method: HttpMethod;
  /** Path without query string. */
  path: string;
  params: Record<string, string>;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body; undefined for GET and for empty bodies. */
  body: unknown;
}

/** May be async, but idempotent routes are safe either way (see idempotency.ts). */
export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

export interface Route {
  method: HttpMethod;
  /** Literal segments and `:name` parameters, e.g. `/svc/api/v1/transfer/beneficiary/:id`. */
  path: string;
  /** The documented header family; see headers.ts. */
  headers: HeaderSetName;
  /** Headers required on top of the set, e.g. `x-account-id`; same missing-header message. */
  extraHeaders?: readonly string[];
  /** How failures of this route are rendered; the Document 1 envelope unless stated. */
  errors?: ErrorStyle;
  handler: Handler;
  /** A control-API write that changes no record the API answers with (the request log, latency, capacity): watchers are not told. */
  recordsUnchanged?: true;
}

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  /** `errors`: the style of the family the path belongs to, so the 405 reads like its other errors. */
  | { kind: 'method-not-allowed'; allowed: HttpMethod[]; errors: ErrorStyle | undefined }
  | { kind: 'not-found' };

export interface Router {
  match(method: string, path: string): RouteMatch;
}

interface CompiledRoute {
  route: Route;
  segments: string[];
}

export function createRouter(routes: readonly Route[]): Router {
  // Grouped by segment count: a path is only tried against the patterns of its own length.
  const byLength = new Map<number, CompiledRoute[]>();
  for (const route of routes) {
    const segments = splitPath(route.path);
    byLength.set(segments.length, [...(byLength.get(segments.length) ?? []), { route, segments }]);
  }
  return {
    match(method, path) {
      const segments = splitPath(path);
      const hits: { route: Route; params: Record<string, string> }[] = [];
      for (const { route, segments: pattern } of byLength.get(segments.length) ?? []) {
        const params = matchSegments(pattern, segments);
        if (params) hits.push({ route, params });
      }
      const hit = hits.find(({ route }) => route.method === method);
      if (hit) return { kind: 'found', ...hit };
      if (hits.length > 0)
        return { kind: 'method-not-allowed', allowed: hits.map(({ route }) => route.method), errors: hits[0]?.route.errors };
      return { kind: 'not-found' };
    },
  };
}

// A trailing slash is tolerated: `/svc/api/v1/account/` is the same resource.
function splitPath(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

function matchSegments(pattern: readonly string[], actual: readonly string[]): Record<string, string> | null {
  if (pattern.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (const [index, expected] of pattern.entries()) {
    const segment = actual[index] ?? '';
    if (expected.startsWith(':')) {
      const value = safeDecode(segment);
      if (value === null) return null;
      params[expected.slice(1)] = value;
    } else if (expected !== segment) {
      return null;
    }
  }
  return params;
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
