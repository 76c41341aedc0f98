import type { Dispatcher } from 'undici';
import type { Logger } from '../../platform/logger.ts';
import { sendsIdempotencyKey, type HeaderSet } from '../endpoint.ts';
import { UpstreamNetworkError, type UpstreamError } from '../errors.ts';
import type { UpstreamObserver } from '../observer.ts';
import type { SentWrite } from '../operation.ts';
import { exchange, type ExchangeCut } from '../exchange.ts';
import type { SharedCallState } from '../shared-call-state.ts';
import { logFields, observe, type StoppedCalls, type UpstreamCall } from './call.ts';

/** What the bank answered to one attempt: the body parsed as JSON where it is JSON. */
export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** Who the gateway is to the bank (Document 1, section 4): the values of the documented headers. */
export interface GatewayIdentity {
  apiKey: string;
  productId: string;
  userId: string;
  /** x-client-id of the issuing (wallet, KYC) endpoints. */
  clientId?: string | undefined;
}

/** undici's codes for the per-call timeouts, as opposed to a failed connection. */
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * The last stage: one HTTP exchange with the bank on the connection pool, observed (status and
 * time) and logged at debug. A failure to get an answer becomes a typed error: the deadline's
 * (the request was on the wire), the operation's abandonment (a read cut when its client left), a
 * timeout's or a network failure's.
 */
export function send(
  pool: Dispatcher,
  identity: GatewayIdentity,
  { observer, stoppedCalls }: Pick<SharedCallState, 'observer' | 'stoppedCalls'>,
  logger: Logger,
) {
  // Handlers rather than an async function, as the stages read outcomes (pipeline.ts, passOn).
  return (call: UpstreamCall): Promise<Answer> => {
    // The last look before the wire, for a write too: its operation ended (its client left, its
    // deadline passed) after its slot was granted, so nobody waits for what it would do.
    if (call.signal?.aborted) return Promise.reject(stoppedCalls.errorFor(call.signal, call, false));
    const headers = headersFor(call, identity);
    const signal = wireSignal(call);
    const started = performance.now();
    const sent = noteWrite(call);
    countCall(call);
    return exchange(
      pool,
      { method: call.ep.method, path: call.path, headers, body: call.body ?? null },
      listenedTo(call, signal),
      sent && ((status) => (sent.status = status)),
    ).then(
      (response) => {
        const ms = performance.now() - started;
        observe(observer, call, response.statusCode, ms);
        // Built only when it is written: a copy of the call's log fields per call is no small part of a busy screen's garbage.
        if (logger.isLevelEnabled('debug'))
          logger.debug({ ...logFields(call), status: response.statusCode, ms: Math.round(ms) }, 'upstream call');
        return { statusCode: response.statusCode, headers: response.headers, body: parseJson(response.text) };
      },
      (error: unknown) => {
        throw failureOf(call, signal, error, performance.now() - started, observer, stoppedCalls);
      },
    );
  };
}

/**
 * What may cut the exchange. A read: the operation's end, its deadline or its client leaving. A
 * write once on the wire is the bank's to decide: cutting it half-way would leave nobody knowing
 * whether it was applied, so only the deadline cuts it, as any call; the client's leaving does not,
 * and its idempotency key stays good for the client's retry.
 */
function wireSignal(call: UpstreamCall): AbortSignal | undefined {
  return call.kind === 'write' ? call.deadlineSignal : call.signal;
}

/** The cutting signal as the exchange listens to it: an operation's reads share one listener on it (wire-signal.ts). */
function listenedTo(call: UpstreamCall, signal: AbortSignal | undefined): ExchangeCut | undefined {
  const operation = call.options.operation;
  return operation !== undefined && signal === operation.signal ? operation.readsOnWire : signal;
}

/** A write going on the wire, noted on its operation (operation.ts): the audit trail reads what the bank answered. */
/** The calls counted in their operation's bankCalls: a retried call is one call. */
const counted = new WeakSet<UpstreamCall>();
function countCall(call: UpstreamCall): void {
  const operation = call.options.operation;
  if (!operation || counted.has(call)) return;
  counted.add(call);
  operation.bankCalls += 1;
}

function noteWrite(call: UpstreamCall): SentWrite | undefined {
  const writes = call.kind === 'write' ? call.options.operation?.writes : undefined;
  if (!writes) return undefined;
  const sent: SentWrite = { requestId: call.details.requestId, status: undefined };
  writes.push(sent);
  return sent;
}

function failureOf(
  call: UpstreamCall,
  signal: AbortSignal | undefined,
  error: unknown,
  ms: number,
  observer: UpstreamObserver,
  stoppedCalls: StoppedCalls,
): UpstreamError {
  if (signal?.aborted) return stoppedCalls.errorFor(signal, call, true, ms);
  const code = (error as { code?: string }).code;
  const timedOut = code !== undefined && TIMEOUT_CODES.has(code);
  observe(observer, call, timedOut ? 'timeout' : 'network', ms);
  // The code, not undici's message: that may name the bank's host and port.
  return new UpstreamNetworkError(code ?? (error as Error).name, call.details, { cause: error, timedOut });
}

/**
 * The endpoint's documented header set, the token the auth stage put on the call, and its extra
 * headers: one object, built in the order it is sent (no delete and no spread, which left it in
 * V8's slow dictionary form for every direct debit call).
 */
export function headersFor(call: UpstreamCall, identity: GatewayIdentity): Record<string, string> {
  const set: HeaderSet = call.ep.headers;
  const { token, options } = call;
  let headers: Record<string, string>;
  if (set === 'direct-debit') {
    // Document 3, 4.2: the bearer token alone (x-on-behalf-of comes per call as an extra header).
    headers = { 'content-type': 'application/json', accept: 'application/json' };
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
  } else {
    headers = { 'x-api-key': identity.apiKey, 'content-type': 'application/json', accept: 'application/json' };
    if (sendsIdempotencyKey(call.ep)) {
      headers['x-product-id'] = identity.productId;
      headers['x-request-id'] = call.details.requestId;
      if (set === 'standard') headers['x-user-id'] = identity.userId;
      if (set === 'issuing' && identity.clientId) headers['x-client-id'] = identity.clientId;
      if (token !== undefined) headers.authorization = `Bearer ${token}`;
    }
  }
  // Not documented headers: the bank ignores them, and its logs (or a proxy's, or its own tracing) can match ours.
  if (options.correlationId) headers['x-correlation-id'] = options.correlationId;
  if (call.traceHeaders) Object.assign(headers, call.traceHeaders);
  if (options.headers) Object.assign(headers, options.headers);
  return headers;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
