import { randomUUID } from 'node:crypto';
import { endpointName, isIdempotent, type Endpoint } from '../endpoint.ts';
import { UpstreamError, InvalidBankIdError, UpstreamUnavailableError, type UpstreamErrorDetails } from '../errors.ts';
import { familyOf, type UpstreamFamily } from '../families.ts';
import { bankIdProblem } from '../ids.ts';
import type { UpstreamCallRecord, UpstreamObserver } from '../observer.ts';
import { abandonment, type OperationBounds } from '../operation.ts';

/**
 * Where a call's bearer token comes from. The gateway's own login can renew a refused token; a token
 * a caller brought cannot be renewed by us, so it has no `renew`.
 */
export interface TokenSource {
  get(): Promise<string>;
  /** The token when one is at hand with no wait (most calls): the call need not race a login against its signal. */
  current?(): string | undefined;
  renew?(refused: string): Promise<string>;
}

export interface CallOptions {
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | null | undefined>;
  body?: unknown;
  /** Extra headers an endpoint requires, e.g. `x-account-id`. */
  headers?: Record<string, string>;
  auth?: TokenSource | undefined;
  /** For writes: sent as x-request-id so a replayed write is not applied twice upstream. */
  idempotencyKey?: string | undefined;
  /** Epoch ms by which the call must be done (the operation's deadline). */
  deadline?: number | undefined;
  /** The operation's signals, made once for all its calls (operation.ts); without them a deadline gets a timer per call. */
  operation?: OperationBounds | undefined;
  /** The gateway's request id: logged with each call and sent upstream as x-correlation-id. */
  correlationId?: string | undefined;
  /** Who the call is for (API key name, JWT subject, bank user): clients take turns for the bank's slots. */
  client?: string | undefined;
  /** The bank user the answer belongs to: a kept read (cache-policy.ts) is cached under it; without it, never. */
  cacheScope?: string | undefined;
}

/**
 * One logical call on its way through the stages (pipeline.ts): what all its attempts share, and
 * the things stages hand inwards, each set by one stage only.
 */
export interface UpstreamCall {
  readonly ep: Endpoint<unknown>;
  readonly family: UpstreamFamily;
  /** Reads (and login, which changes nothing) are retried after failures; writes only after a 429. */
  readonly kind: 'read' | 'write';
  readonly details: UpstreamErrorDetails;
  /** Path and query string, bank ids checked, under the base address's own path. */
  readonly path: string;
  readonly body: string | undefined;
  readonly options: CallOptions;
  /**
   * Set by the deadline stage: aborts at the deadline or when the operation's client leaves, whether
   * queued, waiting or on the wire (a read; a write on the wire listens to `deadlineSignal`).
   */
  signal: AbortSignal | undefined;
  /** Set by the deadline stage: aborts at the deadline only. */
  deadlineSignal: AbortSignal | undefined;
  /** Attempts the retry stage may make; the breaker stage lowers it to 1 for a half-open probe. */
  maxAttempts: number;
  /** Set by the auth renewal stage before each attempt; undefined for endpoints without a token. */
  token: string | undefined;
  /** Attempts put on the wire so far: counted by the attempt span stage (tracing on), else 0. */
  attempts: number;
  /** Set by the attempt span stage for each attempt: the W3C trace context it is sent with. */
  traceHeaders: Record<string, string> | undefined;
}

/** Where the endpoint's path lives: the base address's own path and the `{svc}` segment. */
export interface CallTarget {
  prefix: string;
  serviceSegment: string;
}

/** Query keys and headers that carry a bank id (Documents 1-3), checked like path parameters. */
const ID_QUERY_KEY = /^(id|\w+_id)$/;
const ID_HEADERS = new Set(['x-account-id', 'x-cardholder-id', 'x-wallet-id', 'x-cardholderHash-id', 'x-on-behalf-of']);

/** The last guard: an implausible id never reaches the bank, whatever brought it (see ids.ts). */
function checkedBankId(parameter: string, value: string): string {
  const problem = bankIdProblem(value);
  if (problem) throw new InvalidBankIdError(parameter, problem);
  return value;
}

/**
 * The call as the stages see it. It throws before any stage runs when a bank id is implausible: that
 * is the caller's mistake, not the bank's failure, so no breaker may count it.
 */
export function prepareCall(ep: Endpoint<unknown>, options: CallOptions, target: CallTarget, maxAttempts: number): UpstreamCall {
  if (options.headers) for (const header in options.headers) if (ID_HEADERS.has(header)) checkedBankId(header, options.headers[header]!);
  const requestId = isIdempotent(ep.method) ? randomUUID() : (options.idempotencyKey ?? randomUUID());
  const details = { endpoint: endpointName(ep), requestId };
  return {
    ep,
    family: familyOf(ep),
    kind: isIdempotent(ep.method) || ep.headers === 'login' ? 'read' : 'write',
    details,
    path: pathOf(ep, options, target),
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    options,
    signal: undefined,
    deadlineSignal: undefined,
    maxAttempts,
    token: undefined,
    attempts: 0,
    traceHeaders: undefined,
  };
}

function pathOf(ep: Endpoint<unknown>, options: CallOptions, target: CallTarget): string {
  let path = '';
  for (const part of templateOf(ep.path)) {
    if (typeof part === 'string') path += part;
    else if (part.name === 'svc') path += target.serviceSegment;
    else {
      const value = options.params?.[part.name];
      if (value === undefined) throw new Error(`Missing path parameter ${part.name} for ${ep.path}`);
      path += encodeURIComponent(checkedBankId(part.name, value));
    }
  }
  return `${target.prefix}${path}${queryOf(options.query)}`;
}

/** `?a=1&b=2`, or nothing: most calls have no query, and need no URLSearchParams. */
function queryOf(given: CallOptions['query']): string {
  if (given === undefined) return '';
  let query: URLSearchParams | undefined;
  for (const key in given) {
    const value = given[key];
    if (value === undefined || value === null) continue;
    (query ??= new URLSearchParams()).set(key, ID_QUERY_KEY.test(key) ? checkedBankId(key, String(value)) : String(value));
  }
  return query ? `?${query}` : '';
}

/** An endpoint's path as its literal parts and its parameters (`{cardId}`), split once per path. */
type PathPart = string | { name: string };
const templates = new Map<string, PathPart[]>();

function templateOf(path: string): PathPart[] {
  let parts = templates.get(path);
  if (parts === undefined) {
    parts = path
      .split(/(\{\w+\})/)
      .filter((part) => part !== '')
      .map((part) => (part.startsWith('{') ? { name: part.slice(1, -1) } : part));
    templates.set(path, parts);
  }
  return parts;
}

/** What every log line about the call carries: endpoint, x-request-id, x-correlation-id (made when a line is written). */
export function logFields(call: UpstreamCall): UpstreamErrorDetails & { correlationId: string | undefined } {
  return { ...call.details, correlationId: call.options.correlationId };
}

/** Whether the error is this call's own failure, rather than one it inherited (a login it waited for). */
export function ownedBy(call: UpstreamCall, error: unknown): error is UpstreamError {
  return error instanceof UpstreamError && error.requestId === call.details.requestId;
}

/**
 * The failure of a call its operation stopped, whichever stage it was in: its client's leaving as
 * the signal carries it (not observed: it says nothing of the bank), else the deadline's, which
 * names the deadline's length.
 */
export class StoppedCalls {
  readonly #observer: UpstreamObserver;
  readonly #operationDeadlineMs: number;

  constructor(observer: UpstreamObserver, operationDeadlineMs: number) {
    this.#observer = observer;
    this.#operationDeadlineMs = operationDeadlineMs;
  }

  /** The error of a call `signal` stopped; the deadline's is observed when `ms` says how long the attempt took. */
  errorFor(signal: AbortSignal | undefined, call: UpstreamCall, inFlight: boolean, ms?: number): UpstreamUnavailableError {
    const gone = abandonment(signal);
    if (gone) return gone;
    if (ms !== undefined) observe(this.#observer, call, 'deadline', ms);
    return this.deadlineExceededError(call.details, inFlight);
  }

  deadlineExceededError(details: UpstreamErrorDetails, inFlight: boolean): UpstreamUnavailableError {
    return new UpstreamUnavailableError(
      'DEADLINE_EXCEEDED',
      `The bank did not answer within ${this.#operationDeadlineMs} ms, this operation's deadline`,
      details,
      { inFlight },
    );
  }
}

/** One attempt (or a refusal to attempt) for the metrics and readiness. */
export function observe(observer: UpstreamObserver, call: UpstreamCall, status: UpstreamCallRecord['status'], durationMs: number): void {
  observer.call({ endpoint: call.details.endpoint, family: call.family, status, durationMs });
}
