import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import type { z } from 'zod';
import type { Logger } from '../logger.ts';
import { readBareBody, readEnvelope } from './envelope.ts';
import { endpointName, isIdempotent, type Endpoint, type HeaderSet } from './endpoint.ts';
import {
  UpstreamAuthError,
  UpstreamContractError,
  UpstreamNetworkError,
  httpErrorFor,
  type ContractIssue,
  type UpstreamErrorDetails,
} from './errors.ts';
import { ConcurrencyLimiter } from './limiter.ts';
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
  timeoutMs: number;
  logger: Logger;
  retry?: RetryPolicy;
  /** Calls in flight at most; the rest queue. Also the keep-alive pool size. */
  maxConcurrency?: number;
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

export class UpstreamClient {
  readonly #pool: Pool;
  readonly #options: UpstreamClientOptions;
  readonly #retry: RetryPolicy;
  readonly #prefix: string;
  readonly #limiter: ConcurrencyLimiter;

  constructor(options: UpstreamClientOptions) {
    const url = new URL(options.baseUrl);
    this.#options = options;
    this.#retry = options.retry ?? DEFAULT_RETRY_POLICY;
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

  /** Calls one endpoint and returns its `data`, parsed by the endpoint's model. */
  async call<Data>(ep: Endpoint<Data>, options: CallOptions = {}): Promise<Data> {
    const name = endpointName(ep);
    const requestId = isIdempotent(ep.method) ? randomUUID() : (options.idempotencyKey ?? randomUUID());
    const details = { endpoint: name, requestId };
    const path = this.#path(ep, options);
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const send = async (token: string | undefined) => {
      const attempt = await this.#attempt(ep, path, this.#headers(ep.headers, requestId, token, options.headers), body, details);
      return this.#read(ep, attempt, details);
    };
    return isIdempotent(ep.method) ? this.#withRetries(() => this.#withAuth(send, options.auth), details) : this.#withAuth(send, options.auth);
  }

  close(): Promise<void> {
    return this.#pool.close();
  }

  /** One re-login and one retry on 401, only where the token is ours to renew. */
  async #withAuth<T>(send: (token: string | undefined) => Promise<T>, auth: TokenSource | undefined): Promise<T> {
    const token = await auth?.get();
    try {
      return await send(token);
    } catch (error) {
      if (!(error instanceof UpstreamAuthError) || !auth?.renew || token === undefined) throw error;
      return send(await auth.renew(token));
    }
  }

  async #withRetries<T>(run: () => Promise<T>, details: UpstreamErrorDetails): Promise<T> {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        return await run();
      } catch (error) {
        if (!isRetryable(error) || attempt >= this.#retry.maxAttempts) throw error;
        const delay = retryDelayMs(this.#retry, attempt, error);
        if (Date.now() - started + delay > this.#retry.budgetMs) throw error;
        this.#options.logger.warn({ ...details, attempt, delayMs: delay, error: (error as Error).message }, 'retrying upstream read');
        await sleep(delay);
      }
    }
  }

  async #attempt(
    ep: Endpoint<unknown>,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
    details: UpstreamErrorDetails,
  ): Promise<Attempt> {
    const started = performance.now();
    try {
      const { response, text } = await this.#limiter.run(async () => {
        const answer = await this.#pool.request({ method: ep.method, path, headers, body });
        return { response: answer, text: await answer.body.text() };
      });
      this.#options.logger.debug(
        { ...details, status: response.statusCode, ms: Math.round(performance.now() - started) },
        'upstream call',
      );
      return { statusCode: response.statusCode, headers: response.headers, body: parseJson(text) };
    } catch (error) {
      const reason = (error as { code?: string }).code ?? (error as Error).message;
      throw new UpstreamNetworkError(reason, details, { cause: error });
    }
  }

  #read<Data>(ep: Endpoint<Data>, attempt: Attempt, details: UpstreamErrorDetails): Data {
    const reading = ep.envelope === false ? readBareBody(attempt.statusCode, attempt.body) : readEnvelope(attempt.statusCode, attempt.body);
    if (reading.ok === 'malformed') throw this.#contractError([{ path: '(body)', message: reading.reason }], details);
    if (reading.ok === false) {
      throw httpErrorFor(reading.status, reading.message, {
        ...details,
        code: reading.code,
        retryAfterMs: parseRetryAfter(attempt.headers['retry-after']),
      });
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
      return encodeURIComponent(value);
    });
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined && value !== null) query.set(key, String(value));
    }
    const search = query.size > 0 ? `?${query}` : '';
    return `${this.#prefix}${path}${search}`;
  }

  #headers(
    set: HeaderSet,
    requestId: string,
    token: string | undefined,
    extra: Record<string, string> | undefined,
  ): Record<string, string> {
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
    return { ...base, ...extra };
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
