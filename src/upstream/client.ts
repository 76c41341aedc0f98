import { randomUUID } from 'node:crypto';
import { Pool } from 'undici';
import type { z } from 'zod';
import type { Logger } from '../logger.ts';
import type { Verdict } from './breaker.ts';
import { deadlineSignal, pause, raceSignal } from './deadline.ts';
import { readBareBody, readEnvelope } from './envelope.ts';
import { endpointName, isIdempotent, type Endpoint, type HeaderSet } from './endpoint.ts';
import { bankIdProblem } from './ids.ts';
import {
  InvalidBankIdError,
  UpstreamAuthError,
  UpstreamContractError,
  UpstreamError,
  UpstreamNetworkError,
  UpstreamRateLimitError,
  UpstreamServerError,
  UpstreamUnavailableError,
  httpErrorFor,
  type ContractIssue,
  type UpstreamErrorDetails,
} from './errors.ts';
import { familyOf, UpstreamGuards, type UpstreamFamily } from './guards.ts';
import { ConcurrencyLimiter } from './limiter.ts';
import type { UpstreamCallRecord } from './observer.ts';
import { DEFAULT_RETRY_POLICY, isRetryable, parseRetryAfter, retryDelayMs, type RetryPolicy } from './retry.ts';

/**
 * Where a call's bearer token comes from. The gateway's own login can renew a refused token; a token
 * a caller brought cannot be renewed by us, so it has no `renew`.
 */
export interface TokenSource {
  get(): Promise<string>;
  renew?(refused: string): Promise<string>;
}

export interface UpstreamClientOptions {
  baseUrl: string;
  serviceSegment: string;
  apiKey: string;
  productId: string;
  userId: string;
  /** x-client-id of the issuing (wallet, KYC) endpoints. */
  clientId?: string | undefined;
  /** Per attempt: connecting, then waiting for the headers, then for each piece of the body. */
  timeoutMs: number;
  logger: Logger;
  retry?: RetryPolicy | undefined;
  /** Calls in flight at most; the rest queue. Also the keep-alive pool size. */
  maxConcurrency?: number | undefined;
  /** Breakers, Retry-After holds, the retry budget and the observer, shared by a runtime's clients. */
  guards?: UpstreamGuards | undefined;
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
  /** The gateway's request id: logged with each call and sent upstream as x-correlation-id. */
  correlationId?: string | undefined;
}

/** The bank's concurrency limit is not documented: 50 in flight is a conservative default. */
export const DEFAULT_MAX_CONCURRENCY = 50;

type Attempt = { statusCode: number; headers: Record<string, string | string[] | undefined>; body: unknown };

/** One logical call: what all its attempts share. */
interface Call {
  ep: Endpoint<unknown>;
  family: UpstreamFamily;
  /** Reads (and login, which changes nothing) are retried after failures; writes only after a 429. */
  kind: 'read' | 'write';
  details: UpstreamErrorDetails;
  path: string;
  body: string | undefined;
  options: CallOptions;
  /** What every log line about the call carries: endpoint, x-request-id, x-correlation-id. */
  log: UpstreamErrorDetails & { correlationId: string | undefined };
  /** Aborts at the deadline: queued, waiting or on the wire. */
  signal: AbortSignal | undefined;
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

/** undici's codes for the per-call timeouts, as opposed to a failed connection. */
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export class UpstreamClient {
  readonly #pool: Pool;
  readonly #options: UpstreamClientOptions;
  readonly #retry: RetryPolicy;
  readonly #prefix: string;
  readonly #limiter: ConcurrencyLimiter;
  readonly #guards: UpstreamGuards;

  constructor(options: UpstreamClientOptions) {
    const url = new URL(options.baseUrl);
    this.#options = options;
    this.#retry = options.retry ?? DEFAULT_RETRY_POLICY;
    this.#guards = options.guards ?? new UpstreamGuards({ logger: options.logger, retryBudget: this.#retry.retryBudget });
    this.#prefix = url.pathname.replace(/\/+$/, '');
    const maxConcurrency = options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY;
    this.#limiter = new ConcurrencyLimiter(maxConcurrency);
    this.#pool = new Pool(url.origin, {
      connections: maxConcurrency,
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 60_000,
      connectTimeout: Math.min(options.timeoutMs, 5_000),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  /**
   * Calls one endpoint and returns its `data`, parsed by the endpoint's model. The family's breaker
   * admits the call (or it fails fast), retries follow the policy within the runtime's retry budget,
   * and the whole call ends by its deadline.
   *
   * The breaker counts the call once, by its outcome after retries: a failure a retry absorbed says
   * nothing of an outage, and counting attempts would let 30% transient 503s trip a 50% breaker by
   * chance (about 1 time in 20 at the first 20 calls), turning a recoverable bank into an outage.
   * Every attempt still goes to the observer (metrics).
   */
  async call<Data>(ep: Endpoint<Data>, options: CallOptions = {}): Promise<Data> {
    const call = this.#prepare(ep, options);
    const permit = this.#admit(call);
    const send = async (token: string | undefined) => this.#read(ep, await this.#attempt(call, token), call);
    try {
      // The half-open probe is a single attempt: its answer alone says whether the bank is back.
      const data = await this.#withRetries(call, permit.probe ? 1 : this.#retry.maxAttempts, () => this.#withAuth(call, send));
      permit.settle('success');
      return data;
    } catch (error) {
      permit.settle(this.#verdict(call, error));
      this.#logFailure(call, error);
      throw error;
    }
  }

  /** Waits for calls in flight, or with `force` aborts them (a stop whose grace period ran out). */
  close(force = false): Promise<void> {
    return force ? this.#pool.destroy() : this.#pool.close();
  }

  #prepare(ep: Endpoint<unknown>, options: CallOptions): Call {
    // Before the breaker admits anything: a refused id is the caller's mistake, not the bank's failure.
    for (const [header, value] of Object.entries(options.headers ?? {})) if (ID_HEADERS.has(header)) checkedBankId(header, value);
    const name = endpointName(ep);
    const requestId = isIdempotent(ep.method) ? randomUUID() : (options.idempotencyKey ?? randomUUID());
    const details = { endpoint: name, requestId };
    return {
      ep,
      family: familyOf(ep),
      kind: isIdempotent(ep.method) || ep.headers === 'login' ? 'read' : 'write',
      details,
      path: this.#path(ep, options),
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      options,
      log: { ...details, correlationId: options.correlationId },
      signal: deadlineSignal(options.deadline),
    };
  }

  /** The breaker's leave for the call, or a fast failure: open circuit, or a deadline already gone. */
  #admit(call: Call) {
    if (call.signal?.aborted) {
      this.#observe(call, 'deadline', 0);
      throw this.#guards.deadlineExceeded(call.details, false);
    }
    const permit = this.#guards.breaker(call.family).acquire();
    if (!permit) {
      this.#observe(call, 'circuit-open', 0);
      throw this.#guards.circuitOpen(call.family, call.details);
    }
    this.#guards.retryBudget.recordCall();
    return permit;
  }

  /**
   * What the call says about the bank's health. Failures of a token this call waited for are the
   * login's, counted in the auth family by that call itself.
   */
  #verdict(call: Call, error: unknown): Verdict {
    if (!this.#owns(call, error)) return 'none';
    if (error instanceof UpstreamUnavailableError) return error.inFlight ? 'failure' : 'none';
    if (error instanceof UpstreamNetworkError || error instanceof UpstreamServerError) return 'failure';
    return 'success';
  }

  #owns(call: Call, error: unknown): error is UpstreamError {
    return error instanceof UpstreamError && error.requestId === call.details.requestId;
  }

  /** One re-login and one retry on 401, only where the token is ours to renew. */
  async #withAuth<T>(call: Call, send: (token: string | undefined) => Promise<T>): Promise<T> {
    const auth = call.options.auth;
    const token = await this.#token(call, auth?.get());
    try {
      return await send(token);
    } catch (error) {
      if (!(error instanceof UpstreamAuthError) || !auth?.renew || token === undefined) throw error;
      return send(await this.#token(call, auth.renew(token)));
    }
  }

  /** A token, waited for no longer than the call's deadline (a login may be slow or queued). */
  #token(call: Call, pending: Promise<string> | undefined): Promise<string | undefined> {
    if (!pending) return Promise.resolve(undefined);
    return raceSignal(pending, call.signal, () => this.#guards.deadlineExceeded(call.details, false));
  }

  async #withRetries<T>(call: Call, maxAttempts: number, run: () => Promise<T>): Promise<T> {
    let waited = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        return await run();
      } catch (error) {
        const delay = this.#nextDelay(call, attempt, maxAttempts, error, waited);
        if (delay === undefined) throw error;
        this.#options.logger.warn(
          { ...call.log, attempt, delayMs: delay, error: (error as Error).message },
          'retrying upstream call',
        );
        if (!(await pause(delay, call.signal))) throw this.#guards.deadlineExceeded(call.details, false);
        waited += delay;
      }
    }
  }

  /**
   * The wait before another attempt, or undefined when the failure stands. The policy's budgetMs
   * bounds the waits; the deadline bounds everything (attempts that are slow under load included).
   */
  #nextDelay(call: Call, attempt: number, maxAttempts: number, error: unknown, waited: number): number | undefined {
    if (!this.#owns(call, error) || !isRetryable(error, call.kind) || attempt >= maxAttempts) return undefined;
    const delay = retryDelayMs(this.#retry, attempt, error);
    const now = Date.now();
    if (waited + delay > this.#retry.budgetMs || now + delay > (call.options.deadline ?? Infinity)) {
      // A Retry-After this call may not wait out: say when to come back rather than pass on the 429.
      if (error instanceof UpstreamRateLimitError) throw this.#guards.rateLimited(now + delay, call.details, error);
      return undefined;
    }
    // Other calls found the family down meanwhile: no point adding to it.
    if (this.#guards.breaker(call.family).state === 'open') return undefined;
    if (!this.#guards.retryBudget.tryRetry()) {
      this.#options.logger.warn({ ...call.log, family: call.family }, 'retry budget spent: not retrying');
      return undefined;
    }
    return delay;
  }

  async #attempt(call: Call, token: string | undefined): Promise<Attempt> {
    await this.#waitOutRateLimit(call);
    const headers = this.#headers(call.ep.headers, call.details.requestId, token, call.options);
    const started = performance.now();
    let sent = false;
    try {
      const { response, text } = await this.#limiter.run(async () => {
        sent = true;
        const answer = await this.#pool.request({ method: call.ep.method, path: call.path, headers, body: call.body, signal: call.signal });
        return { response: answer, text: await answer.body.text() };
      }, call.signal);
      const ms = performance.now() - started;
      this.#observe(call, response.statusCode, ms);
      this.#options.logger.debug(
        { ...call.log, status: response.statusCode, ms: Math.round(ms) },
        'upstream call',
      );
      return { statusCode: response.statusCode, headers: response.headers, body: parseJson(text) };
    } catch (error) {
      throw this.#attemptFailure(call, error, sent, performance.now() - started);
    }
  }

  #attemptFailure(call: Call, error: unknown, sent: boolean, ms: number): UpstreamError {
    if (call.signal?.aborted) {
      this.#observe(call, 'deadline', ms);
      return this.#guards.deadlineExceeded(call.details, sent);
    }
    const code = (error as { code?: string }).code;
    const timedOut = code !== undefined && TIMEOUT_CODES.has(code);
    this.#observe(call, timedOut ? 'timeout' : 'network', ms);
    // The code, not undici's message: that may name the bank's host and port.
    return new UpstreamNetworkError(code ?? (error as Error).name, call.details, { cause: error, timedOut });
  }

  /** A 429's Retry-After holds the whole family: wait it out, or fail fast if it outlasts the call. */
  async #waitOutRateLimit(call: Call): Promise<void> {
    const until = this.#guards.heldUntil(call.family);
    if (until === undefined) return;
    if (until > (call.options.deadline ?? Date.now() + this.#retry.budgetMs)) {
      this.#observe(call, 'rate-limited', 0);
      throw this.#guards.rateLimited(until, call.details);
    }
    if (!(await pause(until - Date.now(), call.signal))) throw this.#guards.deadlineExceeded(call.details, false);
  }

  #observe(call: Call, status: UpstreamCallRecord['status'], durationMs: number): void {
    this.#guards.observer.call({ endpoint: call.details.endpoint, family: call.family, status, durationMs });
  }

  #logFailure(call: Call, error: unknown): void {
    const unavailable =
      error instanceof UpstreamUnavailableError || error instanceof UpstreamNetworkError || error instanceof UpstreamServerError;
    if (!unavailable || !this.#owns(call, error)) return;
    this.#options.logger.warn(
      { ...call.log, family: call.family, error: error.message },
      'upstream call failed',
    );
  }

  #read<Data>(ep: Endpoint<Data>, attempt: Attempt, call: Call): Data {
    const { details } = call;
    const reading = ep.envelope === false ? readBareBody(attempt.statusCode, attempt.body) : readEnvelope(attempt.statusCode, attempt.body);
    if (reading.ok === 'malformed') throw this.#contractError([{ path: '(body)', message: reading.reason }], details);
    if (reading.ok === false) {
      const retryAfterMs = parseRetryAfter(attempt.headers['retry-after']);
      const error = httpErrorFor(reading.status, reading.message, { ...details, code: reading.code, retryAfterMs });
      if (error instanceof UpstreamRateLimitError && retryAfterMs !== undefined) this.#guards.holdOff(call.family, Date.now() + retryAfterMs);
      throw error;
    }
    const parsed = ep.data.safeParse(reading.data);
    if (!parsed.success) throw this.#contractError(contractIssues(parsed.error), details);
    return parsed.data;
  }

  #contractError(issues: ContractIssue[], details: UpstreamErrorDetails): UpstreamContractError {
    const error = new UpstreamContractError(issues, details);
    this.#options.logger.error({ ...details, issues }, error.message);
    return error;
  }

  #path(ep: Endpoint<unknown>, options: CallOptions): string {
    const path = ep.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (name === 'svc') return this.#options.serviceSegment;
      const value = options.params?.[name];
      if (value === undefined) throw new Error(`Missing path parameter ${name} for ${ep.path}`);
      return encodeURIComponent(checkedBankId(name, value));
    });
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value === undefined || value === null) continue;
      query.set(key, ID_QUERY_KEY.test(key) ? checkedBankId(key, String(value)) : String(value));
    }
    const search = query.size > 0 ? `?${query}` : '';
    return `${this.#prefix}${path}${search}`;
  }

  #headers(set: HeaderSet, requestId: string, token: string | undefined, options: CallOptions): Record<string, string> {
    const o = this.#options;
    const base: Record<string, string> = { 'x-api-key': o.apiKey, 'content-type': 'application/json', accept: 'application/json' };
    if (set === 'direct-debit') {
      // Document 3, 4.2: the bearer token alone (x-on-behalf-of comes per call as an extra header).
      delete base['x-api-key'];
      if (token !== undefined) base.authorization = `Bearer ${token}`;
    } else if (set !== 'login' && set !== 'webhook') {
      Object.assign(base, { 'x-product-id': o.productId, 'x-request-id': requestId });
      if (set === 'standard') base['x-user-id'] = o.userId;
      if (set === 'issuing' && o.clientId) base['x-client-id'] = o.clientId;
      if (token !== undefined) base.authorization = `Bearer ${token}`;
    }
    // Not a documented header: the bank ignores it, and its logs (or a proxy's) can match ours.
    if (options.correlationId) base['x-correlation-id'] = options.correlationId;
    return { ...base, ...options.headers };
  }
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** zod issues → dotted paths into the whole body (`data[0].field`), as an operator would look for them. */
export function contractIssues(error: z.ZodError): ContractIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.reduce<string>(
      (acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : `${acc}.${String(part)}`),
      'data',
    ),
    message: issue.message,
  }));
}
