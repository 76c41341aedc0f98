import type { IncomingHttpHeaders } from 'node:http';
import type { SandboxCredentials } from './credentials.ts';
import { ApiError, badRequest } from './http.ts';
import { WRITE_METHODS } from './http.ts';
import type { Runtime } from './runtime.ts';

/** The header families of the contract. */
export type HeaderSetName = 'standard' | 'login' | 'wallet' | 'kyc' | 'webhook' | 'direct-debit' | 'none';

/**
 * `required`: Authorization must carry a valid bearer token. `optional`: it may be left out,
 * but one that is sent must be valid (Document 2, 4.3 and 4.4: "not marked required").
 */
type BearerRule = 'required' | 'optional' | 'none';

interface HeaderSet {
  /** Checked for presence in this order; spelled as the documents spell them. */
  required: readonly string[];
  /** Required on top of `required` on writes (POST, PUT, PATCH, DELETE) only. */
  requiredOnWrites?: readonly string[];
  bearer: BearerRule;
  /** Headers whose value must equal a configured credential. */
  identity: readonly { header: string; credential: keyof SandboxCredentials }[];
}

const HEADER_SETS: Record<HeaderSetName, HeaderSet> = {
  // Document 1, section 4. Authorization is deliberately not in `required`: an absent
  // header is a missing token, answered 401 like a bad one, so clients re-authenticate.
  standard: {
    required: ['x-api-key', 'x-product-id', 'x-request-id', 'x-user-id', 'Content-Type'],
    bearer: 'required',
    identity: [
      { header: 'x-product-id', credential: 'productId' },
      { header: 'x-user-id', credential: 'userId' },
    ],
  },
  // Document 1, section 4.1.
  login: { required: ['x-api-key', 'Content-Type'], bearer: 'none', identity: [] },
  // Document 2, section 4.3: the cardholder header instead of x-user-id; x-client-id is
  // optional and, when sent, any value is accepted (the document gives no rule for it).
  wallet: {
    required: ['x-api-key', 'x-product-id', 'x-cardholder-id', 'x-request-id', 'Content-Type'],
    bearer: 'optional',
    identity: [{ header: 'x-product-id', credential: 'productId' }],
  },
  // Document 2, section 4.4: x-client-id required, any non-empty value.
  kyc: {
    required: ['x-api-key', 'x-product-id', 'x-cardholderHash-id', 'x-client-id', 'x-request-id', 'Content-Type'],
    bearer: 'optional',
    identity: [{ header: 'x-product-id', credential: 'productId' }],
  },
  // Document 3, section 4.1: webhook management, no bearer token.
  webhook: { required: ['x-api-key', 'Content-Type'], bearer: 'none', identity: [] },
  // Document 3, sections 4.2 and 5: the bearer token alone, Content-Type on the POST cancels.
  // x-on-behalf-of is optional; whom it names is the direct debit domain's check (403 for an
  // id that is no connected account), made after the token's.
  'direct-debit': { required: [], requiredOnWrites: ['Content-Type'], bearer: 'required', identity: [] },
  // The sandbox control API.
  none: { required: [], bearer: 'none', identity: [] },
};

const INVALID_TOKEN_MESSAGE = 'Access token is missing, invalid or expired';

export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const raw = headers[name.toLowerCase()];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** Writes of a family that carries x-request-id are idempotent on it (idempotency.ts). */
export function carriesRequestId(name: HeaderSetName): boolean {
  return HEADER_SETS[name].required.includes('x-request-id');
}

/**
 * Order of checks: presence (in documented order, then the route's extras), api key (401),
 * bearer token (401), identity headers (400), then the Content-Type value (400).
 * Presence comes first so a client missing several headers learns about them one by one
 * in a stable order; credentials are checked before anything that depends on the caller.
 */
export function assertHeaders(
  setName: HeaderSetName,
  extra: readonly string[],
  method: string,
  headers: IncomingHttpHeaders,
  runtime: Runtime,
): void {
  const set = HEADER_SETS[setName];
  const required = WRITE_METHODS.has(method) ? [...set.required, ...(set.requiredOnWrites ?? [])] : set.required;
  const missing = [...required, ...extra].find((name) => headerValue(headers, name) === undefined);
  if (missing !== undefined) throw badRequest(`${missing} is a required header and is missing`);

  const { credentials } = runtime;
  if (set.required.includes('x-api-key') && headerValue(headers, 'x-api-key') !== credentials.apiKey) {
    throw new ApiError(401, 'x-api-key is invalid');
  }
  if (checksBearer(set.bearer, headers) && !runtime.tokens.verify(bearerToken(headers))) {
    throw new ApiError(401, INVALID_TOKEN_MESSAGE);
  }
  for (const { header, credential } of set.identity) {
    if (headerValue(headers, header) !== credentials[credential]) throw badRequest(`${header} is invalid`);
  }
  // Documents 1 and 2 require application/json on every call, GETs included; parameters such
  // as `; charset=utf-8` are accepted.
  if (required.includes('Content-Type') && !isJson(headerValue(headers, 'Content-Type'))) {
    throw badRequest('Content-Type must be application/json');
  }
}

function checksBearer(rule: BearerRule, headers: IncomingHttpHeaders): boolean {
  return rule === 'required' || (rule === 'optional' && headerValue(headers, 'authorization') !== undefined);
}

function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(headerValue(headers, 'authorization') ?? '')?.[1];
}

function isJson(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}
