import type { z } from 'zod';
import type { CacheEffect } from './cache-policy.ts';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Which documented header set a call carries. `standard` is Document 1, section 4; `login` is the
 * login endpoint's (x-api-key and Content-Type only, no token); `issuing` is Document 2, sections
 * 4.3 and 4.4 (wallets and KYC): no x-user-id, but x-client-id, and the cardholder header the call
 * adds (x-cardholder-id or x-cardholderHash-id, plus x-wallet-id for history); `webhook` is
 * Document 3's webhook management (x-api-key and Content-Type only, no token); `direct-debit` is
 * Document 3's direct debit family (the bearer token only, on its own base address).
 */
export type HeaderSet = 'standard' | 'login' | 'issuing' | 'webhook' | 'direct-debit';

/** Where an endpoint lives, which headers it takes and what it returns. */
interface EndpointShape<Data> {
  method: HttpMethod;
  /** Path template: `{svc}` is the configured service segment, `{name}` a path parameter. */
  path: string;
  headers: HeaderSet;
  /**
   * zod model of the envelope's `data`, or of the whole body where `envelope` is false; every
   * payload is parsed by it before leaving `upstream/`.
   */
  data: z.ZodType<Data>;
  /**
   * Document 3's webhook management and direct debit endpoints answer without the envelope of
   * Documents 1 and 2: success and failure are told by the HTTP status alone.
   */
  envelope?: boolean;
}

/**
 * One documented upstream endpoint: its shape, and what it does to the record cache (a read: `cache`,
 * how it is kept or `'never'`; any other call: `changes`, the kinds of record it changes). Declaring
 * neither is a type error, so a new endpoint cannot forget its policy.
 */
export type Endpoint<Data> = EndpointShape<Data> & CacheEffect;

export function endpoint<Data>(definition: Endpoint<Data>): Endpoint<Data> {
  return definition;
}

/** `GET /svc/api/v1/account`: the name used in logs and errors. */
export function endpointName(e: Endpoint<unknown>): string {
  let name = names.get(e);
  if (name === undefined) names.set(e, (name = `${e.method} ${e.path.replace('{svc}', 'svc')}`));
  return name;
}

/** Made once per endpoint: every call, metric and log line names its endpoint. */
const names = new WeakMap<Endpoint<unknown>, string>();

/** Reads are safe to repeat; a write is retried only after a 401 re-login or a 429, with the same request id. */
export function isIdempotent(method: HttpMethod): boolean {
  return method === 'GET';
}

/**
 * Whether a call to the endpoint carries the x-request-id the bank keeps as its idempotency key
 * (Document 1, section 4, and the issuing family's headers): Document 3's webhook management and
 * direct debit families take none, and the login needs none. Without it a repeated write is not
 * recognised by the bank: the gateway says so (stages/write-outcome-stage.ts).
 */
export function sendsIdempotencyKey(ep: Endpoint<unknown>): boolean {
  return ep.headers === 'standard' || ep.headers === 'issuing';
}
